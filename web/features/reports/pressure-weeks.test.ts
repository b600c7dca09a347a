import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pressureWeeks } from './pressure-weeks';

describe('pressureWeeks', () => {
  it('sums the days per Dutch week, Monday to Sunday', () => {
    expect(
      pressureWeeks([
        { date: '2026-03-01', count: 5 }, // a Sunday: the week of Monday 23 February
        { date: '2026-03-02', count: 7 }, // Monday
        { date: '2026-03-08', count: 1 }, // Sunday of the same week
        { date: '2026-03-16', count: 2 },
      ]),
    ).toEqual([
      { monday: '2026-02-23', count: 5 },
      { monday: '2026-03-02', count: 8 },
      { monday: '2026-03-16', count: 2 },
    ]);
  });

  it('keeps the total of the days and gives Mondays only (across year ends and leap days)', () => {
    const day = fc
      .date({
        min: new Date('2023-12-01T00:00:00Z'),
        max: new Date('2025-01-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ date: day, count: fc.nat(1000) }), { selector: (e) => e.date }),
        (days) => {
          const weeks = pressureWeeks(days);
          expect(weeks.reduce((s, w) => s + w.count, 0)).toBe(days.reduce((s, d) => s + d.count, 0));
          for (const w of weeks) expect(new Date(`${w.monday}T00:00:00Z`).getUTCDay()).toBe(1);
          for (const d of days) {
            const w = weeks.find(
              (x) => x.monday <= d.date && d.date < new Date(Date.parse(x.monday) + 7 * 864e5).toISOString(),
            );
            expect(w, d.date).toBeDefined();
          }
        },
      ),
    );
  });
});
