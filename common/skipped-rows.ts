import { z } from 'zod';

// Why an import or a mailing's results file left rows of a file out: the counts per
// reason go into the task's result (`skippedBy`), the first SKIPPED_ROWS_KEPT rows into a table of
// their own, downloadable as CSV (line, reason, e-mail as in the file) from the upload result and
// from /tasks.

/**
 * The reasons an import skips a row: no valid e-mail, an e-mail an earlier row had, a mapping's
 * exclude filter, an address erased under the AVG (every row of it, the first included).
 */
export const SKIP_REASONS = ['invalid', 'repeated', 'excluded', 'erased'] as const;
/** One reason an import skips a row: 'invalid', 'repeated', 'excluded' or 'erased'. */
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * The reasons a mailing's results file skips a row (DESIGN §6), the first that holds: no e-mail,
 * an e-mail that is not one of the mailing's addresses, an unknown event, no readable date.
 */
export const RESULT_SKIP_REASONS = ['invalid', 'notInMailing', 'unknownEvent', 'invalidDate'] as const;
/** One reason a mailing's results file skips a row. */
export type ResultSkipReason = (typeof RESULT_SKIP_REASONS)[number];

/** Every reason a task can record for a row, in the order results and downloads list them. */
export const ROW_SKIP_REASONS = [
  'invalid',
  'repeated',
  'excluded',
  'erased',
  'notInMailing',
  'unknownEvent',
  'invalidDate',
] as const;
/** Any reason a task can record for a skipped row, of an import or a results file. */
export type RowSkipReason = (typeof ROW_SKIP_REASONS)[number];

/** The reasons as the result and the download name them. */
export const SKIP_REASON_LABELS: Record<RowSkipReason, string> = {
  invalid: 'Ongeldig e-mailadres',
  repeated: 'Dubbel in het bestand',
  excluded: 'Uitgesloten door de mapping',
  erased: 'AVG-verwijderd',
  notInMailing: 'E-mailadres niet in deze mailing',
  unknownEvent: 'Onbekend event',
  invalidDate: 'Ongeldige datum',
};

/** How many skipped rows a task keeps for the download (the counts cover all of them). */
export const SKIPPED_ROWS_KEPT = 10_000;

/** The skipped rows per reason, in a task's result. */
export const SkippedBySchema = z.object({
  invalid: z.number(),
  repeated: z.number(),
  excluded: z.number(),
  // Results of imports from before erasure existed have no such count.
  erased: z.number().default(0),
});
/** An import's skipped rows per reason, as SkippedBySchema parses them. */
export type SkippedBy = z.infer<typeof SkippedBySchema>;

/** The skipped rows per reason, in a results task's result. */
export type ResultSkippedBy = Record<ResultSkipReason, number>;

/**
 * A task's counts per reason (an import's or a results file's); null when the task has none (no
 * import, or from before they were kept).
 */
export function skippedByOf(result: unknown): Partial<Record<RowSkipReason, number>> | null {
  const parsed = z
    .object({ skippedBy: z.partialRecord(z.enum(ROW_SKIP_REASONS), z.number()) })
    .safeParse(result ?? {});
  return parsed.success ? parsed.data.skippedBy : null;
}

/** The header of the skipped-rows download. */
export const SKIPPED_ROWS_HEADER = ['regel', 'reden', 'email'];

/** The Dutch texts of the skipped-rows download in an upload result and on /tasks. */
export const SkippedRowsMessages = {
  title: 'Overgeslagen regels',
  download: 'Download overgeslagen regels',
  kept: (n: number) => `De download bevat de eerste ${n.toLocaleString('nl-NL')} overgeslagen regels.`,
} as const;
