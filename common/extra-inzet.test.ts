import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, type CategoryCounts, clampCell, extraInzet, redistribute } from './extra-inzet';

const counts = fc.record({
  new: fc.nat(5000),
  notOpenedOrClicked: fc.nat(5000),
  opens: fc.nat(5000),
  clicks: fc.nat(5000),
});
const selection = fc.record({
  new: fc.boolean(),
  notOpenedOrClicked: fc.boolean(),
  opens: fc.boolean(),
  clicks: fc.boolean(),
});
// Factors as whole thousandths, the way staff type them (1,15 or 2,5), 0 to 5.
const thousandths = fc.integer({ min: 0, max: 5000 });

describe('extraInzet', () => {
  it('is round half up of (clicks+opens)×(factor−1) in exact decimals, 0 at or below factor 1', () => {
    fc.assert(
      fc.property(fc.nat(20_000_000), thousandths, (n, k) => {
        // Independent: integers in thousandths, rounding half up by hand.
        const numerator = n * (k - 1000);
        const expected = k <= 1000 ? 0 : Math.floor((2 * numerator + 1000) / 2000);
        expect(extraInzet(n, k / 1000)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('rounds the decimal value, not its binary float (10 × 0.15 = 1.5 → 2)', () => {
    expect(extraInzet(10, 1.15)).toBe(2);
    expect(extraInzet(5, 1.1)).toBe(1);
    expect(extraInzet(4, 1.1)).toBe(0);
    expect(extraInzet(100, 1)).toBe(0);
    expect(extraInzet(100, 0.5)).toBe(0);
    expect(extraInzet(3, 2)).toBe(3);
  });
});

describe('clampCell', () => {
  it('keeps an edit between 0 and the original, as an integer', () => {
    expect(clampCell(-3, 10)).toBe(0);
    expect(clampCell(12, 10)).toBe(10);
    expect(clampCell(4.7, 10)).toBe(4);
    expect(clampCell(Number.NaN, 10)).toBe(0);
  });
});

describe('redistribute', () => {
  it('gives chosen counts to selected categories and spreads the extra over new, then notOpenedOrClicked', () => {
    fc.assert(
      fc.property(counts, counts, selection, thousandths, (original, chosen, selected, k) => {
        const out = redistribute(original, chosen, selected, k / 1000);
        const base = {} as CategoryCounts;
        for (const c of CATEGORIES) base[c] = selected[c] ? Math.min(chosen[c], original[c]) : 0;
        expect(out.opens).toBe(base.opens);
        expect(out.clicks).toBe(base.clicks);
        const extra = extraInzet(base.opens + base.clicks, k / 1000);
        const toNew = Math.min(extra, original.new - base.new);
        expect(out.new).toBe(base.new + toNew);
        expect(out.notOpenedOrClicked).toBe(
          base.notOpenedOrClicked +
            Math.min(extra - toNew, original.notOpenedOrClicked - base.notOpenedOrClicked),
        );
        for (const c of CATEGORIES) {
          expect(out[c]).toBeGreaterThanOrEqual(0);
          expect(out[c]).toBeLessThanOrEqual(original[c]);
        }
        expect(out.total).toBe(out.new + out.notOpenedOrClicked + out.opens + out.clicks);
      }),
      { numRuns: 2000 },
    );
  });

  it('with the default selection and factor 1.5 buys opens and clicks and adds half of them from new', () => {
    const out = redistribute(
      { new: 100, notOpenedOrClicked: 50, opens: 20, clicks: 10 },
      { new: 100, notOpenedOrClicked: 50, opens: 20, clicks: 10 },
      { new: false, notOpenedOrClicked: false, opens: true, clicks: true },
      1.5,
    );
    expect(out).toEqual({ new: 15, notOpenedOrClicked: 0, opens: 20, clicks: 10, total: 45 });
    const small = redistribute(
      { new: 4, notOpenedOrClicked: 50, opens: 20, clicks: 10 },
      { new: 4, notOpenedOrClicked: 50, opens: 20, clicks: 10 },
      { new: false, notOpenedOrClicked: false, opens: true, clicks: true },
      1.5,
    );
    expect(small).toEqual({ new: 4, notOpenedOrClicked: 11, opens: 20, clicks: 10, total: 45 });
  });
});
