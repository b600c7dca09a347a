import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { EnrichmentColumnInput } from '../../../common/enrichment';

/** How one column of an enrichment file is used: the contract's column (field, mapped, match). */
export type EnrichmentColumn = EnrichmentColumnInput;

/**
 * An uploaded enrichment file (spec 001 §3 Enrichment file; DESIGN §6 Enrichment files): its name
 * (unique: DELETE /api/enrichment/files/{name}), the date it was applied (the later file wins
 * between files) and recordCount, the number of addresses it matched.
 */
export const enrichmentFiles = pgTable('enrichment_files', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique('enrichment_files_name_key'),
  // Set under the enrichment lock when the file is applied, so date order is the order of application.
  date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
  recordCount: integer('record_count').notNull().default(0),
  columns: jsonb('columns').$type<EnrichmentColumn[]>().notNull(),
  taskId: text('task_id'),
});

/**
 * What one file added to one address: its Verrijk values ({attribute: value}), so deleting the file
 * removes exactly that and the values of earlier files come back. The winning values of every file
 * together are kept in address_enrichment for the selection engine to read.
 * Indexed by address: the AVG look-up and erasure of one address read and delete its rows by probe
 * (docs/decisions.md, AVG erasure).
 */
export const enrichmentValues = pgTable(
  'enrichment_values',
  {
    fileId: text('file_id').notNull(),
    addressId: bigint('address_id', { mode: 'number' }).notNull(),
    attrs: jsonb('attrs').$type<Record<string, string>>().notNull(),
  },
  (t) => [index('enrichment_values_address_idx').on(t.addressId)],
);

/**
 * The enrichment attributes of an address (DESIGN §6): for each attribute the value of the latest
 * file that set it, maintained on upload and delete. A narrow table of its own, not a column of
 * addresses: rewriting a million wide address rows (two indexes each) took 9-24 s of an upload,
 * inserting here about one second (docs/decisions.md, Enrichment files).
 */
export const addressEnrichment = pgTable('address_enrichment', {
  addressId: bigint('address_id', { mode: 'number' }).primaryKey(),
  attrs: jsonb('attrs').$type<Record<string, string>>().notNull(),
});
