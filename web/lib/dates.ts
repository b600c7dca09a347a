import { calendarDayOf, displayDateTime, displayDay } from '../../common/calendar-day';

// docs/decisions.md#dates: every date the screens show or send is a day of the Dutch calendar,
// whatever the browser's time zone: a calendar day is shown as written, an instant as its day
// (and clock) in Europe/Amsterdam, and a typed date becomes 'YYYY-MM-DD' without passing a Date.

/** A date as DD-MM-YYYY (spec: list and display format); empty for no or invalid dates. */
export function formatDate(value: string | Date | null | undefined): string {
  return displayDay(value);
}

/** A date-time as DD-MM-YYYY HH:mm:ss on the clock of Amsterdam; empty for no or invalid dates. */
export function formatDateTime(value: string | Date | null | undefined): string {
  return displayDateTime(value);
}

/** The value format of date inputs (dd-MM-yyyy, spec 001 §9). */
export const DATE_INPUT_FORMAT = 'DD-MM-YYYY';

/**
 * Parses a date typed as DD-MM-YYYY (day and month of one or two digits, a four-digit year, so
 * half-typed text is no date) for a DateInput's `dateParser`; returns YYYY-MM-DD or null.
 */
export function parseInputDate(text: string): string | null {
  const m = /^(\d{1,2})-(\d{1,2})-(\d{4})$/.exec(text.trim());
  return m ? calendarDayOf(`${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}-${m[3]}`) : null;
}
