import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalUnits, lineCents, normaliseRate, roundDiv, vatCents } from './statement-money';

describe('statement money', () => {
  it('rounds a line once, halves away from zero', () => {
    expect(lineCents(2, '0.0125')).toBe(3); // 2.5 cents
    expect(lineCents(3, '0.0125')).toBe(4); // 3.75 cents
    expect(lineCents(1, '0.0049')).toBe(0); // 0.49 cents
    expect(lineCents(200_000, '0.0125')).toBe(250_000);
    expect(lineCents(5, null)).toBe(0);
    expect(roundDiv(-250n, 100n)).toBe(-3n);
    expect(roundDiv(-249n, 100n)).toBe(-2n);
  });

  it('takes VAT on the total at the stored fraction', () => {
    expect(vatCents(15, '0.210000')).toBe(3); // 3.15
    expect(vatCents(50, '0.210000')).toBe(11); // 10.5
    expect(vatCents(100, null)).toBe(0);
    expect(vatCents(-50, '0.21')).toBe(-11);
  });

  it('equals the exact product rounded, for any count and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 99_999_999 }),
        (n, units) => {
          const rate = `${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`;
          // n × units ten-thousandths of a euro = n × units / 100 cents, exact in BigInt.
          const exact = BigInt(n) * BigInt(units);
          const floor = exact / 100n;
          const expected = exact % 100n >= 50n ? floor + 1n : floor;
          expect(lineCents(n, rate)).toBe(Number(expected));
          expect(normaliseRate(rate)).toBe(rate);
        },
      ),
    );
  });

  it('reads decimal text without floats and refuses anything else', () => {
    expect(decimalUnits('0.1', 4)).toBe(1000n);
    expect(decimalUnits('-1.5', 4)).toBe(-15000n);
    expect(decimalUnits('1e3', 4)).toBeNull();
    expect(normaliseRate('2')).toBe('2.0000');
  });
});
