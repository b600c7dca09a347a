import { weekdayOf } from '../../../common/calendar-day';
import type { PressureEntry } from '../../../common/mailings';
import { addDays } from '../../../common/pressure-date';

/** One Dutch week (Monday to Sunday) of the mail pressure: its Monday and the addresses of its days. */
export interface PressureWeek {
  monday: string;
  count: number;
}

/**
 * The pressure table's days summed per Dutch week (DESIGN §7: Monday to Sunday), oldest first; a
 * week between two with mailings and without any of its own is left out, as the table has no row for it.
 */
export function pressureWeeks(entries: PressureEntry[]): PressureWeek[] {
  const weeks = new Map<string, number>();
  for (const e of entries) {
    const monday = addDays(e.date, 1 - weekdayOf(e.date));
    weeks.set(monday, (weeks.get(monday) ?? 0) + e.count);
  }
  return [...weeks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([monday, count]) => ({ monday, count }));
}
