import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { selections } from './selection.table';

/** How a line file's column is matched (spec 001 §3 CSV mapping for line files). */
export interface SelectionFileColumn {
  /** The column's name in the file. */
  field: string;
  /** The name the query tree's `fields` use: the mapped attribute, or the generated `gen_` name of a base entry. */
  name: string;
  /** A global attribute of the record, or a base entry of the record itself. */
  mapped?: string;
  base?: 'id' | 'dataset' | 'datasetDescription' | 'domain';
  /** Narrows a base entry to this partner's datasets. */
  basePartner?: string;
}

/**
 * The uploaded file of a Bestandsmatch / Bestand uitsluiten line (DESIGN §6: intersect and
 * complement), kept so the selection can be re-run without the upload. Its rows are in
 * selection_file_rows, their values in the order of `columns`, already normalised for matching.
 */
export const selectionFiles = pgTable(
  'selection_files',
  {
    selectionId: text('selection_id')
      .notNull()
      .references(() => selections.id, { onDelete: 'cascade' }),
    lineId: text('line_id').notNull(),
    name: text('name').notNull(),
    columns: jsonb('columns').$type<SelectionFileColumn[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'selection_files_pkey', columns: [t.selectionId, t.lineId] })],
);

/** The rows of a line file: one text[] of normalised values per distinct row. */
export const selectionFileRows = pgTable(
  'selection_file_rows',
  {
    selectionId: text('selection_id')
      .notNull()
      .references(() => selections.id, { onDelete: 'cascade' }),
    lineId: text('line_id').notNull(),
    vals: text('vals').array().notNull(),
  },
  (t) => [index('selection_file_rows_line_idx').on(t.selectionId, t.lineId)],
);
