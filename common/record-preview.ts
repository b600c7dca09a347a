import { z } from 'zod';

// The mapping screen's preview: a sample of a dataset's records with the columns
// of its file beside the attributes its mapping made of them.

/** The Dutch texts of the record preview on the mapping screen. */
export const RecordPreviewMessages = {
  title: 'Voorbeeld van de records',
  fetchFailed: 'Kon het voorbeeld van de records niet ophalen',
  empty: 'Dit bestand heeft nog geen records.',
  notApplied:
    "De opgeslagen mapping is nog niet doorgevoerd: de kenmerken hieronder zijn die van de vorige mapping. Klik op 'Mapping doorvoeren'.",
} as const;

/** How many records the preview shows unless asked: `?limit=` takes 1 to 100. */
export const PREVIEW_DEFAULT_LIMIT = 20;

/** The query of GET /api/datasets/{partnerId}/{datasetId}/preview: `limit`, 1 to 100 records. */
export const RecordPreviewQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(PREVIEW_DEFAULT_LIMIT),
});

/**
 * A sample of a dataset's records (the first by address id): per record its e-mail, the values of
 * the file's `columns` as uploaded and the values of the mapping's `attributes`, both in the order
 * of those lists (null when absent); encrypted values shown decrypted, as the CSV download does.
 * `applied`: whether the records were built with the saved mapping.
 */
export const RecordPreviewSchema = z.object({
  columns: z.array(z.string()),
  attributes: z.array(z.string()),
  applied: z.boolean(),
  recordCount: z.number(),
  rows: z.array(
    z.object({
      email: z.string(),
      values: z.array(z.string().nullable()),
      attrs: z.array(z.string().nullable()),
    }),
  ),
});
/** A sample of a dataset's records, as RecordPreviewSchema parses it. */
export type RecordPreview = z.infer<typeof RecordPreviewSchema>;
