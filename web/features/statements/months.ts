import { addMonths, businessToday } from '../../../common/calendar-day';
import { formatMonth } from '../../../common/statements';

// The statements screen picks one calendar month (a statement covers one partner and one month by
// planned send date): months are written 'YYYY-MM' and shown with their Dutch name (formatMonth of the contract).

/** How many months back from the current one the month picker offers. */
export const MONTHS_BACK = 36;

const MONTH = /^(\d{4})-(\d{2})$/;

/** The month ('YYYY-MM') `offset` months after `month` (negative: before); null for no month. */
export function shiftMonth(month: string, offset: number): string | null {
  const m = MONTH.exec(month);
  if (!m) return null;
  if (Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[1]) * 12 + Number(m[2]) - 1 + offset < 0) return null;
  return addMonths(month, offset);
}

/** The current month in the Dutch calendar ('YYYY-MM'). */
export function currentMonth(now: Date = new Date()): string {
  return businessToday(now).slice(0, 7);
}

/** The month the screen opens on: the previous month, the one whose statements are due. */
export function defaultMonth(now: Date = new Date()): string {
  return shiftMonth(currentMonth(now), -1) ?? currentMonth(now);
}

/** The picker's choices, newest first: the current month and MONTHS_BACK months before it. */
export function monthOptions(now: Date = new Date()): { value: string; label: string }[] {
  const current = currentMonth(now);
  return Array.from({ length: MONTHS_BACK + 1 }, (_, i) => shiftMonth(current, -i))
    .filter((m): m is string => m !== null)
    .map((value) => ({ value, label: formatMonth(value) }));
}
