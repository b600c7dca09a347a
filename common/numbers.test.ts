import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CampaignDaysFieldSchema, CampaignMessages } from './campaigns';
import { parseInteger } from './numbers';
import { ResultCellSchema, SelectionMessages } from './selections';

// One reading of typed whole numbers; nothing is changed silently.

/** A number written the Dutch way, with dots between groups of three. */
const grouped = (n: number) => n.toLocaleString('nl-NL', { useGrouping: true });

describe('parseInteger', () => {
  it('reads plain and Dutch-grouped whole numbers as themselves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(parseInteger(String(n))).toEqual({ ok: true, value: n });
        expect(parseInteger(grouped(n))).toEqual({ ok: true, value: n });
        expect(parseInteger(` ${grouped(n)} `)).toEqual({ ok: true, value: n });
        expect(parseInteger(n)).toEqual({ ok: true, value: n });
      }),
    );
    expect(parseInteger('12.500')).toEqual({ ok: true, value: 12_500 });
    expect(parseInteger('1.000.000')).toEqual({ ok: true, value: 1_000_000 });
  });

  it('refuses negatives and decimals instead of dropping the sign or the separator', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 99 }), (n, frac) => {
        expect(parseInteger(`-${n}`)).toEqual({ ok: false, problem: 'negative' });
        expect(parseInteger(-n)).toEqual({ ok: false, problem: 'negative' });
        expect(parseInteger(`${n},${frac}`)).toEqual({ ok: false, problem: 'decimal' });
        expect(parseInteger(n + frac / 100)).toEqual({ ok: false, problem: 'decimal' });
      }),
    );
    expect(parseInteger('1,5')).toEqual({ ok: false, problem: 'decimal' });
    expect(parseInteger('1.5')).toEqual({ ok: false, problem: 'decimal' });
    expect(parseInteger('12.50')).toEqual({ ok: false, problem: 'decimal' });
    expect(parseInteger('-3')).toEqual({ ok: false, problem: 'negative' });
  });

  it('never answers a value for text that is not a whole number, and never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseInteger(text);
        if (parsed.ok) {
          expect(Number.isSafeInteger(parsed.value) && parsed.value >= 0).toBe(true);
          expect(text.trim().replace(/^\+/, '').replaceAll('.', '')).toBe(
            String(parsed.value).padStart(text.trim().replace(/^\+/, '').replaceAll('.', '').length, '0'),
          );
        }
      }),
    );
    for (const text of ['', '  ', 'abc', '1e3', '1..000', '.500', '12.5000', '0x10', '١٢'])
      expect(parseInteger(text).ok).toBe(false);
  });

  it('refuses numbers above the maximum', () => {
    expect(parseInteger('101', 100)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(parseInteger('100', 100)).toEqual({ ok: true, value: 100 });
    expect(parseInteger('99999999999999999999')).toEqual({ ok: false, problem: 'tooLarge' });
  });
});

describe('the selection builder fields', () => {
  it('reads a result cell like every number and refuses decimals and negatives with the rule', () => {
    expect(ResultCellSchema.parse('1.250')).toBe(1250);
    expect(ResultCellSchema.parse(' 7 ')).toBe(7);
    for (const wrong of ['1,5', '-3', '', 'abc', '1.5', '100.000.001']) {
      const r = ResultCellSchema.safeParse(wrong);
      expect(r.success, wrong).toBe(false);
      expect(r.error?.issues[0].message).toBe(SelectionMessages.countInvalid);
    }
  });

  it('reads the campaign day filter like every number, at most six digits', () => {
    expect(CampaignDaysFieldSchema.parse('30')).toBe(30);
    expect(CampaignDaysFieldSchema.parse('1.000')).toBe(1000);
    for (const wrong of ['1,5', '-3', '', '1000000']) {
      const r = CampaignDaysFieldSchema.safeParse(wrong);
      expect(r.success, wrong).toBe(false);
      expect(r.error?.issues[0].message).toBe(CampaignMessages.daysInvalid);
    }
  });
});
