import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addMonths,
  calendarDayOf,
  displayDateTime,
  displayDay,
  isCalendarDay,
  weekdayOf,
} from './calendar-day';

// DESIGN §7: a calendar date is a day of the Dutch calendar whatever the zone of the process
// (server) or the browser. Every property runs with the process in zones on both sides of
// Amsterdam, so code that used the local clock would fail here (vitest itself runs in Amsterdam).

const HOUR = 3_600_000;

/** The last Sunday of a month, as a UTC day number (ms). */
function lastSunday(year: number, month: number): number {
  const last = Date.UTC(year, month + 1, 0);
  return last - new Date(last).getUTCDay() * 24 * HOUR;
}

/**
 * Independent of Intl: Amsterdam's offset by the EU rule (since 1996 summer time from the last
 * Sunday of March to the last Sunday of October, both at 01:00 UTC) and the day of an instant.
 */
function amsterdamDay(t: Date): string {
  const y = t.getUTCFullYear();
  const summer = t.getTime() >= lastSunday(y, 2) + HOUR && t.getTime() < lastSunday(y, 9) + HOUR;
  return new Date(t.getTime() + (summer ? 2 : 1) * HOUR).toISOString().slice(0, 10);
}

const instant = fc.date({
  min: new Date('1996-01-01T00:00:00Z'),
  max: new Date('2099-12-31T23:59:59Z'),
  noInvalidDate: true,
});
// Instants near an Amsterdam midnight, where a zone slip shows: 23:00 or 22:00 UTC ± 2 hours.
const nearMidnight = fc
  .tuple(instant, fc.integer({ min: -120, max: 120 }))
  .map(
    ([d, minutes]) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 22, minutes)),
  );
const day = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const pad = (n: number) => String(n).padStart(2, '0');
/** The instant written with an offset of `minutes` (its wall clock in that offset). */
function withOffset(t: Date, minutes: number): string {
  const wall = new Date(t.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  const sign = minutes < 0 ? '-' : '+';
  return `${wall}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

describe.each(['UTC', 'America/New_York', 'Pacific/Kiritimati', 'Asia/Kolkata'])(
  'with the process in %s',
  (zone) => {
    const before = process.env.TZ;
    // The modules are loaded again in that zone: a formatter made at load time would take its zone then.
    let m: typeof import('./calendar-day') & typeof import('./pressure-date');
    beforeAll(async () => {
      process.env.TZ = zone;
      vi.resetModules();
      m = { ...(await import('./calendar-day')), ...(await import('./pressure-date')) };
    });
    afterAll(() => {
      process.env.TZ = before;
    });

    it('runs in that zone (the properties below would see a local-clock slip)', () => {
      const offset = new Date('2026-12-02T12:00:00Z').getTimezoneOffset();
      expect(offset).toBe(
        { UTC: 0, 'America/New_York': 300, 'Pacific/Kiritimati': -840, 'Asia/Kolkata': -330 }[zone],
      );
    });

    it('takes an instant’s day in Amsterdam', () => {
      fc.assert(
        fc.property(fc.oneof(instant, nearMidnight), (t) => {
          expect(m.businessDay(t)).toBe(amsterdamDay(t));
          expect(m.businessDay(t.toISOString())).toBe(amsterdamDay(t));
        }),
        { numRuns: 2000 },
      );
    });

    it('reads an instant with any offset as its day in Amsterdam, a written day as that day', () => {
      fc.assert(
        fc.property(nearMidnight, fc.integer({ min: -48, max: 56 }), (t, quarters) => {
          expect(m.calendarDayOf(withOffset(t, quarters * 15))).toBe(amsterdamDay(t));
          expect(m.calendarDayOf(withOffset(t, quarters * 15).replace(/:(\d{2})$/, '$1'))).toBe(
            amsterdamDay(t),
          );
        }),
        { numRuns: 2000 },
      );
      fc.assert(
        fc.property(day, (d) => {
          expect(m.calendarDayOf(d)).toBe(d);
          expect(m.calendarDayOf(`${d}T23:30:00`)).toBe(d);
          expect(m.isCalendarDay(d)).toBe(true);
        }),
      );
    });

    it('shows a day as DD-MM-YYYY and reads that back as the same day', () => {
      fc.assert(
        fc.property(day, (d) => {
          const shown = m.displayDay(d);
          expect(shown).toMatch(/^\d{2}-\d{2}-\d{4}$/);
          expect(m.calendarDayOf(shown)).toBe(d);
        }),
      );
      fc.assert(
        fc.property(nearMidnight, (t) => {
          expect(m.calendarDayOf(m.displayDay(t))).toBe(amsterdamDay(t));
          expect(m.displayDateTime(t).slice(0, 10)).toBe(m.displayDay(t));
        }),
      );
    });

    it('shows the planned send of 02-12-2026 stored as midnight in Amsterdam as 02-12-2026', () => {
      expect(m.displayDay('2026-12-01T23:00:00.000Z')).toBe('02-12-2026');
      expect(m.displayDay(new Date('2026-12-01T23:00:00.000Z'))).toBe('02-12-2026');
      expect(m.displayDay('2026-12-02')).toBe('02-12-2026');
      expect(m.displayDateTime('2026-12-01T23:00:00.000Z')).toBe('02-12-2026 00:00:00');
      expect(m.displayDateTime('2026-07-01T22:30:15Z')).toBe('02-07-2026 00:30:15');
    });

    it('puts an instant in the Dutch week: the pressure date is the Monday after its Amsterdam day', () => {
      fc.assert(
        fc.property(nearMidnight, (t) => {
          const d = amsterdamDay(t);
          const monday = m.defaultPressureDate(m.businessDay(t));
          expect(m.weekdayOf(monday)).toBe(1);
          const days = (Date.parse(monday) - Date.parse(d)) / (24 * HOUR);
          expect(days >= 1 && days <= 7).toBe(true);
        }),
      );
      // Sunday 29-11-2026 23:30 and Monday 30-11-2026 00:30 in Amsterdam: two weeks.
      expect(m.defaultPressureDate(m.businessDay('2026-11-29T22:30:00Z'))).toBe('2026-11-30');
      expect(m.defaultPressureDate(m.businessDay('2026-11-29T23:30:00Z'))).toBe('2026-12-07');
    });
  },
);

describe('calendar days', () => {
  it('gives the ISO weekday of a day, Monday 1 to Sunday 7', () => {
    fc.assert(
      fc.property(day, (d) => {
        // Independent: 0001-01-01 was a Monday (proleptic Gregorian); count the days from it.
        const days = Math.round((Date.parse(d) - Date.parse('0001-01-01')) / (24 * HOUR));
        expect(weekdayOf(d)).toBe((days % 7) + 1);
      }),
    );
  });

  it('refuses what is no date, and an instant without offset is no instant', () => {
    for (const text of [
      '2026-02-30',
      '31-04-2026',
      '2026-12-02T25:00:00Z',
      '2026-13-01T10:00:00Z',
      'morgen',
      '',
    ])
      expect(calendarDayOf(text)).toBeNull();
    expect(isCalendarDay('2026-2-3')).toBe(false);
    expect(displayDay('2026-02-30')).toBe('');
    expect(displayDay(new Date(Number.NaN))).toBe('');
    expect(displayDateTime('2026-12-02T10:00:00')).toBe('');
    expect(displayDateTime(null)).toBe('');
  });
});

describe('addMonths', () => {
  it('moves over year ends both ways and writes the year in four digits', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-03', -14)).toBe('2025-01');
    expect(addMonths('0999-12', 1)).toBe('1000-01');
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 9000 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: -500, max: 500 }),
        (y, m, k) => {
          const month = `${y}-${String(m).padStart(2, '0')}`;
          expect(addMonths(addMonths(month, k), -k)).toBe(month);
        },
      ),
    );
  });
});
