import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatEuroCents,
  formatMonth,
  formatRate,
  MonthSchema,
  StatementIdParamsSchema,
  StatementRefSchema,
  statementNumberText,
} from './statements';

describe('statement formats', () => {
  it('writes money the Dutch way', () => {
    expect(formatEuroCents(123456)).toBe('€ 1.234,56');
    expect(formatEuroCents(0)).toBe('€ 0,00');
    expect(formatEuroCents(-5)).toBe('€ -0,05');
    expect(formatEuroCents(1_000_000)).toBe('€ 10.000,00');
    expect(formatEuroCents(123_456_789_012)).toBe('€ 1.234.567.890,12');
  });

  it('reads money back to the same cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        const text = formatEuroCents(cents).replace('€ ', '').replaceAll('.', '').replace(',', '.');
        expect(Math.round(Number(text) * 100)).toBe(cents);
      }),
    );
  });

  it('writes rates with at least two decimals, months in words, days DD-MM-YYYY, numbers padded', () => {
    expect(formatRate('0.0125')).toBe('€ 0,0125');
    expect(formatRate('2.5000')).toBe('€ 2,50');
    expect(formatRate('1234.1')).toBe('€ 1.234,10');
    expect(formatMonth('2026-03')).toBe('maart 2026');
    expect(formatDay('2026-03-01')).toBe('01-03-2026');
    expect(statementNumberText(7)).toBe('AF-000007');
  });

  it('takes months, references and ids only when well formed', () => {
    for (const bad of ['2026-13', '2026-00', '26-03', '2026-3', 'abc', '', '0999-01']) {
      expect(MonthSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(MonthSchema.safeParse('2026-12').success).toBe(true);
    expect(StatementRefSchema.parse({ month: '2026-03', partner: 'p_1', dataset: '' })).toEqual({
      month: '2026-03',
      partner: 'p_1',
    });
    expect(StatementRefSchema.safeParse({ month: '2026-03', partner: '../x' }).success).toBe(false);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect(StatementIdParamsSchema.safeParse({ id: bad }).success, bad).toBe(false);
    }
  });
});
