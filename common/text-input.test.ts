import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUnsafeText, isSafeText } from './text-input';

describe('isSafeText', () => {
  it('refuses NUL and lone surrogates, accepts paired surrogates and ordinary text', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'a\udfff', '\udc00\ud800', 'x\ud83d'])
      expect(isSafeText(bad), bad).toBe(false);
    for (const good of ['', 'José', '😀', 'a\ud83d\ude00b', 'tab\tnewline\n', 'ä€ß'])
      expect(isSafeText(good), good).toBe(true);
  });

  it('agrees with "encodes to UTF-8 and back unchanged, without NUL" on any UTF-16 string', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', 'a', '\ud83d\ude00') }),
        (a, b) => {
          const s = a + b;
          const roundTrips = Buffer.from(s, 'utf8').toString('utf8') === s;
          expect(isSafeText(s)).toBe(roundTrips && !s.includes('\u0000'));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('findUnsafeText', () => {
  it('names the path of the first unsafe string, keys included', () => {
    expect(findUnsafeText({ a: 'ok', b: [1, 'x', { c: 'y\u0000' }] }, 'body')).toBe('body.b[2].c');
    expect(findUnsafeText({ 'k\ud800': 1 }, 'body')).toBe('body');
    expect(findUnsafeText({ a: ['ok', 2, null, true] }, 'body')).toBeUndefined();
    expect(findUnsafeText('a\u0000')).toBe('(waarde)');
  });
});
