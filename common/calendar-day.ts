import { parseDay } from './date-math';

// DESIGN §7 'Calendar dates', docs/decisions.md#dates: a calendar date (a planned send's day, a
// campaign's start, a commission or participation range, a pressure date) is a day of the Dutch
// calendar, written 'YYYY-MM-DD' wherever it travels. No code takes one through the time zone of
// the process or the browser: an instant becomes its day in Europe/Amsterdam, and a day is
// never turned into a Date.

/** The time zone of the business: the one in which an instant has its calendar day. */
export const BUSINESS_TIME_ZONE = 'Europe/Amsterdam';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// An ISO 8601 instant that names its offset; without one it is a wall-clock time, not an instant.
const INSTANT = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Whether `text` is a real calendar day written 'YYYY-MM-DD' (2026-02-30 is not). */
export function isCalendarDay(text: string): boolean {
  return DAY.test(text) && parseDay(text) === text;
}

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const clockFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: BUSINESS_TIME_ZONE,
  hourCycle: 'h23',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The calendar day ('YYYY-MM-DD') of an instant in the business time zone. */
export function businessDay(instant: Date | string): string {
  const d = typeof instant === 'string' ? new Date(instant) : instant;
  // en-CA formats as YYYY-MM-DD.
  return dayFormat.format(d);
}

/** Today's calendar day in the business time zone ('YYYY-MM-DD'). */
export function businessToday(now: Date = new Date()): string {
  return businessDay(now);
}

/**
 * The calendar day a text names: an instant with its offset ('...Z', '...+01:00') is its day in
 * Amsterdam; a day written 'YYYY-MM-DD' or 'DD-MM-YYYY' (a time without offset after it ignored)
 * is that day. Null for anything else.
 */
export function calendarDayOf(text: string): string | null {
  const t = text.trim();
  const instant = INSTANT.exec(t);
  if (instant) {
    if (!isCalendarDay(instant[1])) return null;
    // Date.parse reads an offset only with its colon (+01:00).
    const ms = Date.parse(t.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isNaN(ms) ? null : businessDay(new Date(ms));
  }
  return parseDay(t);
}

/** DD-MM-YYYY of a calendar day 'YYYY-MM-DD'. */
const dutch = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

/**
 * A date as shown (spec 001 §9 'DD-MM-YYYY in displays'): a calendar day as written, an instant
 * (a Date or an ISO string with offset) as its day in Amsterdam. Empty for no or no valid date.
 */
export function displayDay(value: string | Date | null | undefined): string {
  if (!value) return '';
  const day =
    typeof value === 'string'
      ? calendarDayOf(value)
      : Number.isNaN(value.getTime())
        ? null
        : businessDay(value);
  return day ? dutch(day) : '';
}

/** An instant as shown, 'DD-MM-YYYY HH:mm:ss', on the clock of Amsterdam. Empty for no or no valid instant. */
export function displayDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  // A string without an offset would be read on the clock of the process or browser: refused.
  if (typeof value === 'string' && !INSTANT.test(value.trim())) return '';
  const d =
    typeof value === 'string' ? new Date(value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : value;
  if (Number.isNaN(d.getTime())) return '';
  return `${dutch(businessDay(d))} ${clockFormat.format(d)}`;
}

/** The ISO weekday of a calendar day 'YYYY-MM-DD': 1 = Monday .. 7 = Sunday. */
export function weekdayOf(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  // A day in UTC: the weekday of a calendar day depends on no time zone. setUTCFullYear, as
  // Date.UTC reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  const sunday0 = date.getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
}

/** The calendar month 'YYYY-MM' `months` months after `month` (negative: before), its year in four digits. */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}
