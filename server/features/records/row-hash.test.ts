import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBytes, hashDigest, hashSeparator, hashStart, rowHash } from './row-hash';

describe('the row hash', () => {
  it('hashes to 16 hex digits, telling apart where raw ends and attrs begin', () => {
    expect(rowHash('raw', 'attrs')).toMatch(/^[0-9a-f]{16}$/);
    expect(rowHash('raw', 'attrs')).toBe(rowHash('raw', 'attrs'));
    expect(rowHash('ab', 'c')).not.toBe(rowHash('a', 'bc'));
    expect(rowHash('a', 'b')).not.toBe(rowHash('a', 'c'));
  });

  it('hashes a text as its UTF-8 bytes, so that a binary pass can hash the bytes it writes', () => {
    const bytesHash = (raw: Buffer, attrs: Buffer) => {
      hashStart();
      hashBytes(raw, 0, raw.length);
      hashSeparator();
      hashBytes(attrs, 0, attrs.length);
      return hashDigest();
    };
    // Any UTF-16 text: non-ASCII of two, three and four bytes, lone surrogates (U+FFFD, as Buffer
    // encodes them) at the start, the middle and the end.
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('a', '\t', 'é', '€', '😀', '\ud800', '\udc00'),
        fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      ),
    });
    fc.assert(
      fc.property(text, text, (raw, attrs) => {
        expect(rowHash(raw, attrs)).toBe(bytesHash(Buffer.from(raw, 'utf8'), Buffer.from(attrs, 'utf8')));
      }),
      { numRuns: 3000 },
    );
    expect(rowHash('é', '')).not.toBe(rowHash('e', ''));
    expect(rowHash('\ud800x', '')).toBe(rowHash('\ufffdx', ''));
  });
});
