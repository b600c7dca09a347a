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
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
