import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentMonth, defaultMonth, MONTHS_BACK, monthOptions, shiftMonth } from './months';

// The month picker of the statements screen: Dutch month names, the previous month by default,
// on the Dutch calendar whatever the browser's clock zone.

describe('statement months', () => {
  it('opens on the previous month, across a year and on the Dutch calendar', () => {
    expect(defaultMonth(new Date('2026-11-29T10:00:00Z'))).toBe('2026-10');
    expect(defaultMonth(new Date('2027-01-15T10:00:00Z'))).toBe('2026-12');
    // 23:30 UTC on 31 October is already 1 November in Amsterdam.
    expect(currentMonth(new Date('2026-10-31T23:30:00Z'))).toBe('2026-11');
    expect(defaultMonth(new Date('2026-10-31T23:30:00Z'))).toBe('2026-10');
  });

  it('offers the current month and the ones before it, newest first, the default among them', () => {
    const now = new Date('2026-11-29T10:00:00Z');
    const options = monthOptions(now);
    expect(options).toHaveLength(MONTHS_BACK + 1);
    expect(options.slice(0, 3)).toEqual([
      { value: '2026-11', label: 'november 2026' },
      { value: '2026-10', label: 'oktober 2026' },
      { value: '2026-09', label: 'september 2026' },
    ]);
    expect(options.map((o) => o.value)).toContain(defaultMonth(now));
  });

  it('shifts there and back to the same month', () => {
    const month = fc
      .tuple(fc.integer({ min: 1000, max: 9000 }), fc.integer({ min: 1, max: 12 }))
      .map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(month, fc.integer({ min: -600, max: 600 }), (m, k) => {
        const there = shiftMonth(m, k);
        expect(there).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
        expect(shiftMonth(there ?? '', -k)).toBe(m);
      }),
    );
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('geen', 1)).toBeNull();
  });
});
