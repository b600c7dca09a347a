// Pure rules for a dataset's dated entries (spec 000 §3/§4): commission and participation
// (extra inzet) are each valid for an inclusive date range written YYYY-MM-DD.

/** An entry valid from `start` to `end`, both inclusive, as YYYY-MM-DD. */
export interface DatedEntry {
  start: string;
  end: string;
}

/** The factor of a date without a participation entry: no extra effort. */
export const DEFAULT_PARTICIPATION_FACTOR = 1;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether the text is a real calendar date written YYYY-MM-DD (2024-02-30 is not). */
export function isIsoDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Whether the date (YYYY-MM-DD) lies within the entry's range, ends included. */
export function covers(entry: DatedEntry, date: string): boolean {
  // ISO dates compare correctly as strings.
  return entry.start <= date && date <= entry.end;
}

/** Whether two inclusive date ranges share at least one day. */
export function rangesOverlap(a: DatedEntry, b: DatedEntry): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** The first entry whose range overlaps `candidate`; undefined when it fits. */
export function findOverlap<T extends DatedEntry>(
  entries: readonly T[],
  candidate: DatedEntry,
): T | undefined {
  return entries.find((e) => rangesOverlap(e, candidate));
}

/**
 * The entry valid on `date`; when ranges overlap anyway (the server refuses that, but old data
 * may have it) the one that started last wins. Returns undefined when none is valid.
 */
export function entryOn<T extends DatedEntry>(entries: readonly T[], date: string): T | undefined {
  let found: T | undefined;
  for (const e of entries) {
    if (covers(e, date) && (!found || e.start > found.start)) found = e;
  }
  return found;
}

/** The participation factor valid on `date` (spec 001 §9 extra inzet); 1 when none is. */
export function participationFactorOn(
  entries: readonly (DatedEntry & { factor: number })[],
  date: string,
): number {
  return entryOn(entries, date)?.factor ?? DEFAULT_PARTICIPATION_FACTOR;
}

/** The commission amount valid on `date`; null when none is. */
export function commissionOn(
  entries: readonly (DatedEntry & { amount: number })[],
  date: string,
): number | null {
  return entryOn(entries, date)?.amount ?? null;
}

/** A dataset's factor and commission valid on `date` (YYYY-MM-DD). */
export function ratesOn(
  dataset: {
    commission: readonly (DatedEntry & { amount: number })[];
    participation: readonly (DatedEntry & { factor: number })[];
  },
  date: string,
): { factor: number; commission: number | null } {
  return {
    factor: participationFactorOn(dataset.participation, date),
    commission: commissionOn(dataset.commission, date),
  };
}

/** Entries sorted newest first: by start descending, then by end descending. */
export function newestFirst<T extends DatedEntry>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) =>
    a.start === b.start ? b.end.localeCompare(a.end) : b.start.localeCompare(a.start),
  );
}
