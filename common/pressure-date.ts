// spec 001 §9: the default pressure date (pressureAge) of a mailing is the Monday following the
// planned send date (the day after the coming Sunday; for a Sunday, plus 1 day). DESIGN §4: the
// pressure window is the 7 days before it (end exclusive), so by default the calendar week.

const DAY_MS = 86_400_000;

// A planned send's calendar day is its day in the business time zone (common/calendar-day.ts);
// re-exported here for the pressure rule's callers.
export { BUSINESS_TIME_ZONE, businessDay } from './calendar-day';

/** Parses 'YYYY-MM-DD' to a UTC day number; throws on anything else. */
function dayNumber(isoDate: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) throw new RangeError(`Geen datum (YYYY-MM-DD): ${isoDate}`);
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(t);
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) {
    throw new RangeError(`Geen bestaande datum: ${isoDate}`);
  }
  return t / DAY_MS;
}

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Adds whole days to a 'YYYY-MM-DD' date. */
export function addDays(isoDate: string, days: number): string {
  return isoOf(dayNumber(isoDate) + days);
}

/** The Monday after a planned send date ('YYYY-MM-DD'): Monday → next Monday, Sunday → the next day. */
export function defaultPressureDate(plannedSendDate: string): string {
  const day = dayNumber(plannedSendDate);
  // 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays.
  const weekday = (((day + 3) % 7) + 7) % 7; // 0 = Monday … 6 = Sunday
  return isoOf(day + 7 - weekday);
}

/** The pressure window of a pressure date: [age − 7 days, age), as 'YYYY-MM-DD' from (inclusive) and to (exclusive). */
export function pressureWindow(pressureDate: string): { from: string; to: string } {
  return { from: addDays(pressureDate, -7), to: pressureDate };
}
