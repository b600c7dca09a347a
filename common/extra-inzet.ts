// spec 001 §9: extra = round((clicks+opens)*(factor-1)), factor defaults to 1; the extra is added
// first to 'new' (capped at the original) and then to notOpenedOrClicked. One rule for the
// selection engine on the server and the results table in the browser.

/** The four engagement categories of a selection result row, in the table's column order (spec 001 §9). */
export const CATEGORIES = ['new', 'notOpenedOrClicked', 'opens', 'clicks'] as const;
/** One engagement category of a selection result row. */
export type Category = (typeof CATEGORIES)[number];

/**
 * What staff read for each category, on every screen that counts them (counts, selection results,
 * the pressure check). notOpenedOrClicked is the spec's 'inactive' (spec 001 §2 counts): one name,
 * Inactief, everywhere (docs/decisions.md "Dutch texts").
 */
export const CATEGORY_LABELS: Record<Category, string> = {
  new: 'Nieuw',
  notOpenedOrClicked: 'Inactief',
  opens: 'Geopend',
  clicks: 'Geklikt',
};

/** Counts per category of one result row. */
export type CategoryCounts = Record<Category, number>;

/** Which categories the redistribution buys; spec 001 §9: opens and clicks on, new and notOpenedOrClicked off. */
export const DEFAULT_SELECTED_CATEGORIES: Readonly<Record<Category, boolean>> = {
  new: false,
  notOpenedOrClicked: false,
  opens: true,
  clicks: true,
};

// The factor is a decimal (a participation entry, 0 to 1,000); it is taken at six decimals so the
// rounding is exact decimal rounding, not binary floating point (1.15 - 1 is 0.1499... in floats).
const SCALE = 1_000_000;

/**
 * The extra count for `clicks + opens` addresses at a participation factor: round half up of
 * (clicks + opens) × (factor − 1), computed exactly on the factor's decimals; 0 for a factor of 1
 * or less (a factor below 1 takes nothing away). Returns a non-negative integer.
 */
export function extraInzet(clicksPlusOpens: number, factor: number): number {
  const scaled = Math.round(factor * SCALE) - SCALE;
  if (scaled <= 0 || clicksPlusOpens <= 0) return 0;
  // round half up of n * scaled / SCALE in integers: floor((2·n·scaled + SCALE) / (2·SCALE)).
  const n = BigInt(Math.trunc(clicksPlusOpens));
  return Number((2n * n * BigInt(scaled) + BigInt(SCALE)) / (2n * BigInt(SCALE)));
}

/** Clamps an edited cell (spec 001 §5): an integer between 0 and the original count. */
export function clampCell(value: number, original: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(Math.max(Math.trunc(value), 0), original);
}

/** The sum of the four categories. */
export function totalOf(counts: CategoryCounts): number {
  return counts.new + counts.notOpenedOrClicked + counts.opens + counts.clicks;
}

/**
 * A row's counts after the redistribution: the selected categories take their chosen counts (each
 * clamped to the original), the others 0; then the extra inzet of the chosen opens and clicks is
 * added to new up to its original, the rest to notOpenedOrClicked up to its original (what does
 * not fit is not allocated). Returns the new counts with their total.
 */
export function redistribute(
  original: CategoryCounts,
  chosen: CategoryCounts,
  selected: Readonly<Record<Category, boolean>>,
  factor: number,
): CategoryCounts & { total: number } {
  const counts = {} as CategoryCounts;
  for (const c of CATEGORIES) counts[c] = selected[c] ? clampCell(chosen[c], original[c]) : 0;
  let extra = extraInzet(counts.clicks + counts.opens, factor);
  const toNew = Math.min(extra, original.new - counts.new);
  counts.new += toNew;
  extra -= toNew;
  counts.notOpenedOrClicked += Math.min(extra, original.notOpenedOrClicked - counts.notOpenedOrClicked);
  return { ...counts, total: totalOf(counts) };
}
