import { type SQL, sql } from 'drizzle-orm';
import { normalizeDomain } from '../../../common/blacklists';
import { normalizeEmail } from '../../../common/email';
import { SelectionMessages } from '../../../common/selections';
import { trimValue } from '../../../common/values';
import type { DbOrTx } from '../../db/client';
import { badRequest } from '../../lib/http-errors';
import { addressField, type CompileContext, foldedAttribute, foldSql, recordDatasetField } from './compile';
import type { SelectionFileColumn } from './selection-file.table';

// DESIGN §6 intersect / complement: a line file's rows are stored normalised the way the record
// side is compared, so a re-run needs no upload and the match is one hashed semi-join.

/** The stored line files of a selection, by line id. */
export async function loadSelectionFiles(
  db: DbOrTx,
  selectionId: string,
): Promise<Map<string, { name: string; columns: SelectionFileColumn[] }>> {
  const { rows } = await db.execute(
    sql`SELECT line_id, name, columns FROM selection_files WHERE selection_id = ${selectionId}`,
  );
  return new Map(
    (rows as { line_id: string; name: string; columns: SelectionFileColumn[] }[]).map((r) => [
      r.line_id,
      { name: r.name, columns: r.columns },
    ]),
  );
}

/** A file value as it is stored for its column: normalised like the record side it is compared with. */
export function normalizeFileValue(column: SelectionFileColumn, value: string | null): string | null {
  if (value === null) return null;
  switch (column.base) {
    case 'id':
      return normalizeEmail(value);
    case 'domain':
      return normalizeDomain(value);
    case 'dataset':
      return trimValue(value);
    default:
      // A mapped attribute or the dataset description: trimmed, case folded.
      return trimValue(value).toLowerCase();
  }
}

/**
 * The SQL condition "this record equals a row of the line's file on every field" (never NULL: a
 * missing value on either side is no match, so a complement keeps such a record). Throws 400
 * when the line has no stored file or a field is not one of its columns.
 */
export function fileRowsSql(
  files: Map<string, { name: string; columns: SelectionFileColumn[] }>,
  selectionId: string,
  lineId: string,
  fields: string[],
  ctx: CompileContext,
): SQL {
  const file = files.get(lineId);
  if (!file) throw badRequest(SelectionMessages.lineUnknown);
  const recordSide: SQL[] = [];
  const fileSide: SQL[] = [];
  const partners: string[] = [];
  for (const field of fields) {
    const index = file.columns.findIndex((c) => c.name === field);
    if (index < 0) throw badRequest(SelectionMessages.lineUnknown);
    const c = file.columns[index];
    fileSide.push(sql`f.vals[${index + 1}::int]`);
    if (c.base === 'id') recordSide.push(addressField(ctx, 'email'));
    else if (c.base === 'domain') recordSide.push(addressField(ctx, 'domain'));
    else if (c.base === 'dataset') recordSide.push(recordDatasetField(ctx, 'id'));
    else if (c.base === 'datasetDescription')
      recordSide.push(foldSql(recordDatasetField(ctx, 'description'), ctx.collation));
    else recordSide.push(foldedAttribute(c.mapped ?? c.name, ctx));
    if (c.base && c.basePartner) partners.push(c.basePartner);
  }
  const rows = sql`SELECT ${sql.join(fileSide, sql`, `)} FROM selection_file_rows f
    WHERE f.selection_id = ${selectionId} AND f.line_id = ${lineId}`;
  const tuple = recordSide.length === 1 ? recordSide[0] : sql`(${sql.join(recordSide, sql`, `)})`;
  const narrowed = partners.map((p) => sql` AND ${recordDatasetField(ctx, 'partnerId')} = ${p}`);
  // A NULL on either side is no match (a record without the value is not in the file), never unknown.
  return sql`(coalesce(${tuple} IN (${rows}), FALSE)${sql.join(narrowed, sql``)})`;
}
