import { z } from 'zod';

// spec 001 §2 /counts 'Bestandsaantallen', §3 Count row, §7 GET /count?useBlacklist.

/** The Dutch texts of the counts screen ('Bestandsaantallen'). */
export const CountMessages = {
  title: 'Bestandsaantallen',
  useBlacklist: 'Gebruik blacklist?',
  allPartners: 'Alle partners',
  fetchFailed: 'Kon tellingen niet ophalen',
  empty: 'Geen bestanden gevonden.',
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

/** GET /count's query: useBlacklist 'true' (default) or 'false'. */
export const CountQuerySchema = z.object({
  useBlacklist: z
    .enum(['true', 'false'], { error: 'useBlacklist is true of false' })
    .optional()
    .transform((v) => v !== 'false'),
});

/** The totals row of the counts table: the sum of each category and of the totals. */
export function countTotals(rows: readonly CountRow[]) {
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
