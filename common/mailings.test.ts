import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copyDescription,
  LimitInputSchema,
  MailingInputSchema,
  MailingMessages,
  normalizeLimitInput,
  remainingAddresses,
} from './mailings';

describe('normalizeLimitInput (spec 001 §5)', () => {
  it.each([
    ['', ''],
    ['  ', '  '],
    ['-5', '0'],
    ['-', '0'],
    ['007', '007'],
    ['1.000', '1.000'],
    ['1,5', '1,5'],
    ['abc', 'abc'],
    ['12a3', '12a3'],
  ])('%j becomes %j', (typed, shown) => {
    expect(normalizeLimitInput(typed)).toBe(shown);
  });

  it('keeps what is not negative as typed; the schema reads it or refuses it, never changes it', () => {
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const shown = normalizeLimitInput(typed);
        if (shown !== '0') expect(shown).toBe(typed);
      }),
    );
    expect(LimitInputSchema.parse({ limit: '1.000' }).limit).toBe(1000);
    expect(LimitInputSchema.parse({ limit: '007' }).limit).toBe(7);
    for (const limit of ['1,5', '12a3', 'abc', '', -1, 1.5])
      expect(LimitInputSchema.safeParse({ limit }).error?.issues[0]?.message).toBe(
        MailingMessages.limitInvalid,
      );
  });
});

describe('mailing rules', () => {
  it('remaining is addresses minus recordCount, at least 0', () => {
    expect(remainingAddresses({ addresses: 100, recordCount: 40 })).toBe(60);
    expect(remainingAddresses({ addresses: 10, recordCount: 40 })).toBe(0);
  });

  it('names the results that went with removed addresses, only when there were any', () => {
    expect(MailingMessages.removed(2)).toBe('Er zijn 2 e-mails verwijderd uit de verzending');
    expect(MailingMessages.removed(2, 0)).toBe('Er zijn 2 e-mails verwijderd uit de verzending');
    expect(MailingMessages.removed(2, 1)).toBe(
      'Er zijn 2 e-mails verwijderd uit de verzending, met hun 1 resultaat',
    );
    expect(MailingMessages.removed(2, 3)).toBe(
      'Er zijn 2 e-mails verwijderd uit de verzending, met hun 3 resultaten',
    );
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
