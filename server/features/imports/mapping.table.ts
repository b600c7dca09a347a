import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { MappingEntry } from '../../../common/mappings';
import { datasets } from '../datasets/dataset.table';

/** A dataset's column mapping and the header names of its last uploaded file. */
export const datasetMappings = pgTable('dataset_mappings', {
  datasetId: text('dataset_id')
    .primaryKey()
    .references(() => datasets.id, { onDelete: 'cascade' }),
  mappings: jsonb('mappings').$type<MappingEntry[]>().notNull().default([]),
  headers: text('headers').array().notNull().default([]),
  // The positions of records.raw: every column any file of the dataset had (and the blind index
  // column of an encrypted one), in the order first seen; only ever appended to.
  rawColumns: text('raw_columns').array().notNull().default([]),
  // md5 of the mappings the records were last built with (import or remap); equal to the current
  // mappings' md5 means a record with unchanged raw columns has unchanged attributes too.
  appliedHash: text('applied_hash'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
