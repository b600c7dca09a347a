import { describe, expect, it } from 'vitest';
import { emailColumnOf, hasEmailColumn, isCsvName, uploadResultOf, uploadSummary } from './imports';

describe('uploadSummary', () => {
  it('lists the counters in the spec order, by their Dutch names, with the elapsed milliseconds', () => {
    expect(uploadSummary({ read: 5, saved: 2, skipped: 3, deleted: 0, unchanged: 0 }, 1234.4)).toBe(
      'Gevonden: 5, Opgeslagen: 2, Overgeslagen: 3, Verwijderd: 0, Onveranderd: 0 (1234 ms)',
    );
    expect(uploadSummary({ read: 1 })).toBe(
      'Gevonden: 1, Opgeslagen: 0, Overgeslagen: 0, Verwijderd: 0, Onveranderd: 0',
    );
  });
});

describe('uploadResultOf', () => {
  it('reads counters from a task result and ignores anything else', () => {
    expect(uploadResultOf({ read: 2, deleted: 1, other: 'x' })).toEqual({ read: 2, deleted: 1 });
    expect(uploadResultOf(null)).toEqual({});
    expect(uploadResultOf({ read: 'twee' })).toEqual({});
  });
});

describe('file checks', () => {
  it('accepts .csv names only', () => {
    expect(isCsvName('Adressen.CSV')).toBe(true);
    expect(isCsvName('adressen.csv.xlsx')).toBe(false);
  });

  it('uses the dataset e-mail column or email, matched without case or surrounding space', () => {
    expect(emailColumnOf({ emailColumnName: ' mail ' })).toBe('mail');
    expect(emailColumnOf({ emailColumnName: '' })).toBe('email');
    expect(emailColumnOf(null)).toBe('email');
    expect(hasEmailColumn(['naam', ' E-Mail '], 'e-mail')).toBe(true);
    expect(hasEmailColumn(['naam'], 'email')).toBe(false);
  });
});
