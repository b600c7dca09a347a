import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copyDescription,
  LimitInputSchema,
  MailingInputSchema,
  normalizeLimitInput,
  remainingAddresses,
} from './mailings';

describe('normalizeLimitInput (spec 001 §5)', () => {
  it.each([
    ['', ''],
    ['  ', ''],
    ['-5', '0'],
    ['-', '0'],
    ['007', '7'],
    ['1.000', '1000'],
    ['abc', ''],
    ['12a3', '123'],
  ])('%j becomes %j', (typed, shown) => {
    expect(normalizeLimitInput(typed)).toBe(shown);
  });

  it('always gives empty or a whole number of 0 or more that the server accepts', () => {
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const shown = normalizeLimitInput(typed);
        if (shown === '') return;
        expect(shown).toMatch(/^(0|[1-9]\d*)$/);
        if (shown.length <= 10) expect(LimitInputSchema.safeParse({ limit: shown }).success).toBe(true);
      }),
    );
  });
});

describe('mailing rules', () => {
  it('remaining is addresses minus recordCount, at least 0', () => {
    expect(remainingAddresses({ addresses: 100, recordCount: 40 })).toBe(60);
    expect(remainingAddresses({ addresses: 10, recordCount: 40 })).toBe(0);
  });

  it('describes a copy as the spec writes it', () => {
    expect(copyDescription('opens', 'Alle verzendingen', 'Voorjaar')).toBe(
      'Geopende e-mails van Alle verzendingen in Voorjaar',
    );
  });

  it('drops the empty external id and checks the webpower rule per entry', () => {
    const ok = MailingInputSchema.parse({ name: 'x', externalParty: 'webpower', externalId: ['1:2', ''] });
    expect(ok.externalId).toEqual(['1:2']);
    const bad = MailingInputSchema.safeParse({ name: 'x', externalParty: 'webpower', externalId: ['12'] });
    expect(bad.success).toBe(false);
  });
});
