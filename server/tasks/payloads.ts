import { z } from 'zod';
import { SelectionDraftSchema } from '../../common/live-count';
import { LINE_BASES } from '../../common/selections';

// The payload each task type is queued with, as the worker parses it before the task runs. The
// schemas describe what the queuing code writes and no more: a rule they added would fail a task
// that runs today.

/** An upload into a dataset or a delete from file: where the staged file is and how to read it. */
export const ImportPayloadSchema = z.object({
  datasetId: z.string(),
  staging: z.string(),
  headers: z.array(z.string()),
  emailIndex: z.number(),
  rows: z.number(),
  deleteOld: z.boolean(),
});

/** A remap: the dataset whose records are mapped again. */
export const RemapPayloadSchema = z.object({ datasetId: z.string() });

/** A results file of a mailing: the mailing and where the staged file's columns are. */
export const ResultsPayloadSchema = z.object({
  mailingId: z.string(),
  staging: z.string(),
  rows: z.number(),
  emailIndex: z.number(),
  eventIndex: z.number(),
  dateIndex: z.number(),
  osIndex: z.number(),
  instants: z.boolean().optional(),
});

/** A blacklist import: its staging table, row count and the file's column indexes. */
export const BlacklistImportPayloadSchema = z.object({
  staging: z.string(),
  rows: z.number(),
  /** email; domain; or email, partner, dataset (0-based, into the staging table's c1..cN). */
  columns: z.array(z.number()),
});

/** A DNS check, which needs nothing but the stored addresses. */
export const DnsCheckPayloadSchema = z.object({});

/** A selection run: the campaign, mailing and selection it counts. */
export const SelectionQueryPayloadSchema = z.object({
  campaignId: z.string(),
  mailingId: z.string(),
  selectionId: z.string(),
});

/** A live count that took longer than a request waits: the draft it counts, of a selection of the mailing. */
export const SelectionCountPayloadSchema = z.object({
  campaignId: z.string(),
  mailingId: z.string(),
  draft: SelectionDraftSchema,
});

/** A line file of a selection: where the file is staged and how its columns are matched. */
export const LineFilePayloadSchema = z.object({
  selectionId: z.string(),
  lineId: z.string(),
  name: z.string(),
  staging: z.string(),
  /** The staged file's data rows (the total its progress counts). */
  rows: z.number(),
  /** The matched columns (SelectionFileColumn), each with its 0-based index into the staging table's c1..cN. */
  columns: z.array(
    z.object({
      field: z.string(),
      name: z.string(),
      mapped: z.string().optional(),
      base: z.enum(LINE_BASES).optional(),
      basePartner: z.string().optional(),
      index: z.number(),
    }),
  ),
});

/** An enrichment file: its name, where it is staged and its mapped columns. */
export const EnrichmentPayloadSchema = z.object({
  name: z.string(),
  staging: z.string(),
  rows: z.number(),
  /** The mapped columns (EnrichmentColumn), each with its 0-based index into the staging table's c1..cN. */
  columns: z.array(
    z.object({ field: z.string(), mapped: z.string(), match: z.boolean(), index: z.number() }),
  ),
});

/** The daily clean-up past the retention period, which needs nothing but the settings. */
export const RetentionPayloadSchema = z.object({});

/** A bulk AVG erasure: the staged file of addresses and its e-mail column (0-based, into c1..cN). */
export const AvgErasePayloadSchema = z.object({
  staging: z.string(),
  rows: z.number(),
  emailIndex: z.number(),
});

/** Every task type with the schema of its payload; the handlers of server/tasks/handlers.ts follow its keys. */
export const TASK_PAYLOADS = {
  import: ImportPayloadSchema,
  remap: RemapPayloadSchema,
  deleteall: ImportPayloadSchema,
  'mailing-results': ResultsPayloadSchema,
  'blacklist-email': BlacklistImportPayloadSchema,
  'blacklist-domain': BlacklistImportPayloadSchema,
  'partner-blacklist': BlacklistImportPayloadSchema,
  'dns-check': DnsCheckPayloadSchema,
  'selection-query': SelectionQueryPayloadSchema,
  'selection-count': SelectionCountPayloadSchema,
  'selection-file': LineFilePayloadSchema,
  enrichment: EnrichmentPayloadSchema,
  retention: RetentionPayloadSchema,
  'avg-erase': AvgErasePayloadSchema,
} as const;

/** A task type of the application ('import', 'remap', ...). */
export type TaskType = keyof typeof TASK_PAYLOADS;

/** The payload of a task of type T, as its schema gives it. */
export type PayloadOf<T extends TaskType> = z.output<(typeof TASK_PAYLOADS)[T]>;
