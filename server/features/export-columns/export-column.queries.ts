import { asc, eq } from 'drizzle-orm';
import {
  DEFAULT_EXPORT_COLUMN_TYPE,
  EXPORT_COLUMN_TYPES,
  type ExportColumn,
  type ExportColumnType,
} from '../../../common/export-columns';
import type { Db } from '../../db/client';
import { exportColumns } from './export-column.table';

type ExportColumnRow = typeof exportColumns.$inferSelect;

/** Presents a row as API JSON ({_id, type}); a missing or unknown type shows as the default string. */
export function presentExportColumn(row: ExportColumnRow): ExportColumn {
  const type = (EXPORT_COLUMN_TYPES as readonly string[]).includes(row.type)
    ? (row.type as ExportColumnType)
    : DEFAULT_EXPORT_COLUMN_TYPE;
  return { _id: row.id, type };
}

/** Lists the export columns sorted by id. */
export function listExportColumns(db: Db): Promise<ExportColumnRow[]> {
  return db.select().from(exportColumns).orderBy(asc(exportColumns.id));
}

/** Adds an export column; returns the row, or undefined when the column already exists. */
export async function insertExportColumn(
  db: Db,
  values: { id: string; type: ExportColumnType },
): Promise<ExportColumnRow | undefined> {
  const [row] = await db.insert(exportColumns).values(values).onConflictDoNothing().returning();
  return row;
}

/** Deletes an export column by name; returns whether it existed. */
export async function deleteExportColumn(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .delete(exportColumns)
    .where(eq(exportColumns.id, id))
    .returning({ id: exportColumns.id });
  return rows.length > 0;
}
