import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, businessDay, defaultPressureDate, pressureWindow } from './pressure-date';

const isoDay = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('defaultPressureDate', () => {
  it('is the first Monday strictly after the planned send date', () => {
    fc.assert(
      fc.property(isoDay, (day) => {
        const monday = defaultPressureDate(day);
        // Independent: step day by day with the Date object until a Monday comes.
        const d = new Date(`${day}T00:00:00Z`);
        do d.setUTCDate(d.getUTCDate() + 1);
        while (d.getUTCDay() !== 1);
        expect(monday).toBe(d.toISOString().slice(0, 10));
      }),
      { numRuns: 3000 },
    );
  });

  it('follows the spec: a Sunday gets the next day, a Monday the Monday after', () => {
    expect(defaultPressureDate('2026-11-29')).toBe('2026-11-30'); // Sunday
    expect(defaultPressureDate('2026-11-30')).toBe('2026-12-07'); // Monday
    expect(defaultPressureDate('2026-11-25')).toBe('2026-11-30'); // Wednesday
    expect(defaultPressureDate('2024-12-31')).toBe('2025-01-06'); // over a year end
  });

  it('refuses what is not a date', () => {
    expect(() => defaultPressureDate('2026-02-30')).toThrow();
    expect(() => defaultPressureDate('30-11-2026')).toThrow();
  });
});

describe('pressureWindow', () => {
  it('is the 7 days before the pressure date and holds the planned send date', () => {
    fc.assert(
      fc.property(isoDay, (day) => {
        const w = pressureWindow(defaultPressureDate(day));
        expect(addDays(w.from, 7)).toBe(w.to);
        expect(w.from <= day && day < w.to).toBe(true);
      }),
    );
  });
});

describe('businessDay', () => {
  it('takes the calendar day in Amsterdam', () => {
    expect(businessDay('2026-11-29T23:30:00Z')).toBe('2026-11-30');
    expect(businessDay('2026-07-01T21:59:00Z')).toBe('2026-07-01');
    expect(businessDay('2026-07-01T22:00:00Z')).toBe('2026-07-02');
  });
});
