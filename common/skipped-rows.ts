import { z } from 'zod';

// Why an import left rows of a file out (issue 15 §4): the counts per reason go into the task's
// result (`skippedBy`), the first SKIPPED_ROWS_KEPT rows into a table of their own, downloadable as
// CSV (line, reason, e-mail as in the file) from the upload result and from /tasks.

/** The reasons a row is skipped: no valid e-mail, an e-mail an earlier row had, a mapping's exclude filter. */
export const SKIP_REASONS = ['invalid', 'repeated', 'excluded'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The reasons as the result and the download name them. */
export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  invalid: 'Ongeldig e-mailadres',
  repeated: 'Dubbel in het bestand',
  excluded: 'Uitgesloten door de mapping',
};

/** How many skipped rows a task keeps for the download (the counts cover all of them). */
export const SKIPPED_ROWS_KEPT = 10_000;

/** The skipped rows per reason, in a task's result. */
export const SkippedBySchema = z.object({
  invalid: z.number(),
  repeated: z.number(),
  excluded: z.number(),
});
export type SkippedBy = z.infer<typeof SkippedBySchema>;

/** A task's counts per reason; null when the task has none (not an import, or from before they were kept). */
export function skippedByOf(result: unknown): SkippedBy | null {
  const parsed = z.object({ skippedBy: SkippedBySchema }).safeParse(result ?? {});
  return parsed.success ? parsed.data.skippedBy : null;
}

/** The header of the skipped-rows download. */
export const SKIPPED_ROWS_HEADER = ['regel', 'reden', 'email'];

export const SkippedRowsMessages = {
  title: 'Overgeslagen regels',
  download: 'Download overgeslagen regels',
  kept: (n: number) => `De download bevat de eerste ${n.toLocaleString('nl-NL')} overgeslagen regels.`,
} as const;
