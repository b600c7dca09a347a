import { daysInMonth } from './date-format';
import { trimValue } from './values';

// DESIGN §6: a dateRange bound is a date (DD-MM-YYYY or YYYY-MM-DD) or a Solr-style relative date

// (NOW, NOW-30YEARS, NOW-6MONTHS/DAY, NOW+1DAY), so "age 30 to 40" is one line. Ranges are
// inclusive on whole days, so every bound resolves to a calendar day.

/** The parts of a wall-clock date-time, month 1-12. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A calendar day 'YYYY-MM-DD' when y-m-d exists, else null. */
export function calendarDay(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1 || year > 9999 || month < 1 || month > 12) return null;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/**
 * A stored or typed date as a calendar day: 'YYYY-MM-DD' or 'DD-MM-YYYY', each optionally followed
 * by a time (' HH:mm:ss' or 'T...'); surrounding white space ignored. Null for anything else
 * (DESIGN §6: a value that is not a date never matches). The SQL twin is lw_to_date.
 */
export function parseDay(text: string): string | null {
  const t = trimValue(text);
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/s.exec(t);
  if (m) return calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{2})-(\d{2})-(\d{4})(?:[ T].*)?$/s.exec(t);
  if (m) return calendarDay(Number(m[3]), Number(m[2]), Number(m[1]));
  return null;
}

const UNITS: Record<string, keyof WallClock> = {
  YEAR: 'year',
  YEARS: 'year',
  MONTH: 'month',
  MONTHS: 'month',
  DAY: 'day',
  DAYS: 'day',
  DATE: 'day',
  HOUR: 'hour',
  HOURS: 'hour',
  MINUTE: 'minute',
  MINUTES: 'minute',
  SECOND: 'second',
  SECONDS: 'second',
};

/** Adds n of a unit the way Solr's date math does (a month or year step keeps the day, clamped to the month's end). */
function add(c: WallClock, unit: keyof WallClock, n: number): WallClock {
  if (unit === 'year' || unit === 'month') {
    const months = c.year * 12 + (c.month - 1) + (unit === 'year' ? n * 12 : n);
    const year = Math.floor(months / 12);
    const month = (months % 12) + 1;
    return { ...c, year, month, day: Math.min(c.day, daysInMonth(year, month)) };
  }
  const ms = { day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1000 }[unit as 'day'] * n;
  const d = new Date(Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) + ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** The wall clock of an instant in Amsterdam, the business time zone. */
export function amsterdamWallClock(now: Date): WallClock {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Amsterdam',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/**
 * A dateRange bound as a calendar day: a date, or NOW followed by steps (+N or -N and a unit:
 * YEAR(S), MONTH(S), DAY(S), HOUR(S), MINUTE(S), SECOND(S)) and an optional rounding (/DAY etc.),
 * counted from `now` in Amsterdam. Null when the bound is neither.
 */
export function resolveDateBound(bound: string, now: Date = new Date()): string | null {
  const text = bound.trim().toUpperCase();
  if (!text.startsWith('NOW')) return parseDay(bound);
  let rest = text.slice(3);
  let clock = amsterdamWallClock(now);
  while (rest.length > 0) {
    const step = /^([+-])(\d{1,6})([A-Z]+)/.exec(rest);
    if (step) {
      const unit = UNITS[step[3]];
      if (!unit) return null;
      clock = add(clock, unit, (step[1] === '-' ? -1 : 1) * Number(step[2]));
      rest = rest.slice(step[0].length);
      continue;
    }
    // Rounding down to a unit: on whole days only /YEAR and /MONTH change the day.
    const round = /^\/([A-Z]+)/.exec(rest);
    if (round && UNITS[round[1]]) {
      const unit = UNITS[round[1]];
      if (unit === 'year') clock = { ...clock, month: 1, day: 1 };
      if (unit === 'month') clock = { ...clock, day: 1 };
      rest = rest.slice(round[0].length);
      continue;
    }
    return null;
  }
  if (clock.year < 1 || clock.year > 9999) return null;
  return calendarDay(clock.year, clock.month, clock.day);
}
