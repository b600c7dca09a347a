import { z } from 'zod';

// spec 001 §2 /counts 'Bestandsaantallen', §3 Count row, §7 GET /count?useBlacklist.

/** The Dutch texts of the counts screen ('Bestandsaantallen'). */
export const CountMessages = {
  title: 'Bestandsaantallen',
  useBlacklist: 'Gebruik blacklist?',
  allPartners: 'Alle partners',
  fetchFailed: 'Kon tellingen niet ophalen',
  empty: 'Geen bestanden gevonden.',
  uniqueRow: 'Unieke adressen',
  /** The row's title attribute: what it counts, against the totals row above it. */
  uniqueHint:
    'Elk adres één keer, in zijn categorie, hoeveel bestanden het ook heeft; de rij Totaal telt een adres in twee bestanden twee keer',
  // The counts are slow only while the refresher has many addresses left (after a large import):
  // a few minutes later they answer within a second (docs/decisions.md, Counts at scale).
  timeout: 'De tellingen duurden te lang en zijn afgebroken; probeer het over een paar minuten opnieuw',
} as const;

/** One dataset's addresses by engagement category (spec 001 §3 Count row). */
export const CountRowSchema = z.object({
  dataset: z.object({
    id: z.string(),
    sort: z.number(),
    name: z.string(),
    partner: z.string(),
    active: z.boolean(),
    /** The participation factor valid today. */
    factor: z.number(),
  }),
  new: z.number(),
  notOpenedOrClicked: z.number(),
  opens: z.number(),
  clicks: z.number(),
  total: z.number(),
});
/** One dataset's addresses by engagement category, as CountRowSchema parses it. */
export type CountRow = z.infer<typeof CountRowSchema>;

/** Addresses by engagement category and their sum, as the totals row and the unique row show them. */
export const CategoryTotalsSchema = z.object({
  new: z.number(),
  notOpenedOrClicked: z.number(),
  opens: z.number(),
  clicks: z.number(),
  total: z.number(),
});
/** Addresses by engagement category and their sum, as CategoryTotalsSchema parses it. */
export type CategoryTotals = z.infer<typeof CategoryTotalsSchema>;

/**
 * GET /count?unique=true's answer: the spec's rows, and `unique`, the distinct addresses over all
 * datasets per category: an address counts once, in its category, when at least one of its records
 * counts in its dataset's row (docs/decisions.md, Counts at scale).
 */
export const CountAnswerSchema = z.object({
  rows: z.array(CountRowSchema),
  unique: CategoryTotalsSchema,
});
/** GET /count?unique=true's answer, as CountAnswerSchema parses it. */
export type CountAnswer = z.infer<typeof CountAnswerSchema>;

/** A boolean query flag, 'true' or 'false'; `fallback` when left out. */
const queryFlag = (name: string, fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: `${name} is true of false` })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true'));

/**
 * GET /count's query: useBlacklist 'true' (default) or 'false'; unique 'true' answers CountAnswer
 * (the rows with the unique addresses), else the spec's list of rows.
 */
export const CountQuerySchema = z.object({
  useBlacklist: queryFlag('useBlacklist', true),
  unique: queryFlag('unique', false),
});

/** The totals row of the counts table: the sum of each category and of the totals. */
export function countTotals(rows: readonly CountRow[]): CategoryTotals {
  const sum = (k: 'new' | 'notOpenedOrClicked' | 'opens' | 'clicks' | 'total') =>
    rows.reduce((n, r) => n + r[k], 0);
  return {
    new: sum('new'),
    notOpenedOrClicked: sum('notOpenedOrClicked'),
    opens: sum('opens'),
    clicks: sum('clicks'),
    total: sum('total'),
  };
}
