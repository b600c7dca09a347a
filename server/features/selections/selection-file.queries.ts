import { type SQL, sql } from 'drizzle-orm';
import { normalizeDomain } from '../../../common/blacklists';
import { normalizeEmail } from '../../../common/email';
import { type FileLeaf, leavesOf, type QueryNode } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { trimValue } from '../../../common/values';
import type { DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { pgTextArray } from '../../lib/pg-array';
import { anySuppressions, suppressedSql } from '../avg/suppression';
import {
  addressField,
  type CompileContext,
  foldedAttribute,
  foldSql,
  recordDatasetField,
} from './compile-context';
import type { SelectionFileColumn } from './selection-file.table';

// DESIGN §6 intersect / complement: a line file's rows are stored normalised the way the record
// side is compared, so a re-run needs no upload and the match is one hashed semi-join.

/** The stored files of a selection's file lines with their data rows, by line. */
export async function lineFileSizes(
  db: DbOrTx,
  selectionId: string,
): Promise<{ lineId: string; name: string; rows: number }[]> {
  const { rows } = await db.execute(sql`SELECT f.line_id AS "lineId", f.name,
      (SELECT count(*) FROM selection_file_rows r WHERE r.selection_id = f.selection_id AND r.line_id = f.line_id)::int AS rows
    FROM selection_files f WHERE f.selection_id = ${selectionId} ORDER BY f.line_id`);
  return rows as { lineId: string; name: string; rows: number }[];
}

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
 * Deletes from the task's temporary line_rows (columns v0..v{columns-1}, normalised) the rows
 * holding an erased e-mail address in any column, as an erasure deletes stored line-file rows;
 * returns how many went. Only values with an '@' are hashed, none while nothing was ever erased.
 * The caller holds holdOffErasure.
 */
export async function deleteErasedLineRows(db: DbOrTx, keys: ColumnKeys, columns: number): Promise<number> {
  if (!(await anySuppressions(db))) return 0;
  const erased = Array.from({ length: columns }, (_, i) => {
    const v = sql.raw(`l.v${i}`);
    return sql`(${v} LIKE '%@%' AND ${suppressedSql(keys, v)})`;
  });
  const { rowCount } = await db.execute(sql`DELETE FROM line_rows l WHERE ${sql.join(erased, sql` OR `)}`);
  return rowCount ?? 0;
}

/**
 * A file line the query names has no stored file, or its file lacks a field the line compares on
 * (400). A save allows it (the builder stores the query before it uploads the files); a run does not.
 */
export class LineFileError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** The file lines of a tree by line id, each named as the messages name it (number and what it matches). */
export function fileLineNames(tree: QueryNode): Map<string, string> {
  const names = new Map<string, string>();
  leavesOf(tree).forEach((leaf, i) => {
    const line: [kind: 'intersect' | 'complement', file: FileLeaf] | null =
      'intersect' in leaf
        ? ['intersect', leaf.intersect]
        : 'complement' in leaf
          ? ['complement', leaf.complement]
          : null;
    if (line && !names.has(line[1].id)) {
      const [kind, file] = line;
      names.set(file.id, SelectionMessages.fileLine(i + 1, kind, file.name ?? file.id, file.fields));
    }
  });
  return names;
}

/**
 * The SQL condition "this record equals a row of the line's file on every field" (never NULL: a
 * missing value on either side is no match, so a complement keeps such a record). Throws
 * LineFileError, naming the line by `lineName`, when the line has no stored file or a field is
 * not one of its columns.
 */
export function fileRowsSql(
  files: Map<string, { name: string; columns: SelectionFileColumn[] }>,
  selectionId: string,
  lineId: string,
  fields: string[],
  ctx: CompileContext,
  lineName = `Regel ${lineId}`,
): SQL {
  const file = files.get(lineId);
  if (!file) throw new LineFileError(SelectionMessages.lineFileMissing(lineName));
  const recordSide: SQL[] = [];
  const fileSide: SQL[] = [];
  const partners: string[] = [];
  for (const field of fields) {
    const index = file.columns.findIndex((c) => c.name === field);
    if (index < 0) throw new LineFileError(SelectionMessages.lineFieldMissing(lineName, field));
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

/**
 * The file lines of `after` whose file comes from another selection (a template's line carries
 * that selection's id, spec 001 §3 'optional selection/campaign/mailing') and must be copied into
 * `selectionId`: a line whose source is new or other than in `before`, or whose file `selectionId`
 * does not hold yet. Returns line id and source selection per line.
 */
export function templateLines(
  selectionId: string,
  before: QueryNode | null,
  after: QueryNode,
  stored: ReadonlySet<string>,
): { lineId: string; source: string }[] {
  const sourceBefore = new Map(
    (before ? fileLeavesWithSource(before) : []).map((f) => [f.id, f.selection] as const),
  );
  const lines = new Map<string, string>();
  for (const file of fileLeavesWithSource(after)) {
    if (file.selection === selectionId || lines.has(file.id)) continue;
    if (sourceBefore.get(file.id) !== file.selection || !stored.has(file.id))
      lines.set(file.id, file.selection);
  }
  return [...lines].map(([lineId, source]) => ({ lineId, source }));
}

function fileLeavesWithSource(tree: QueryNode): (FileLeaf & { selection: string })[] {
  return leavesOf(tree).flatMap((leaf) => {
    const file = 'intersect' in leaf ? leaf.intersect : 'complement' in leaf ? leaf.complement : null;
    return file?.selection ? [{ ...file, selection: file.selection }] : [];
  });
}

/**
 * Copies the stored files of `lines` (line id, source selection) into selection `selectionId`
 * under the same line ids, replacing what the selection held for them; a source without that
 * line's file copies nothing. Returns the line ids copied. The copy writes e-mail addresses: the
 * caller's transaction holds off erasure (holdOffErasure) from its start.
 */
export async function copyLineFiles(
  db: DbOrTx,
  selectionId: string,
  lines: { lineId: string; source: string }[],
): Promise<string[]> {
  if (lines.length === 0) return [];
  const ids = pgTextArray(lines.map((l) => l.lineId));
  const sources = pgTextArray(lines.map((l) => l.source));
  // The upsert locks each line's row first, as an upload of that line does, so a copy and an
  // upload of one line run one after the other and the later one's rows stay whole.
  const { rows } = await db.execute(sql`
    INSERT INTO selection_files (selection_id, line_id, name, columns)
    SELECT ${selectionId}, f.line_id, f.name, f.columns
    FROM unnest(${ids}::text[], ${sources}::text[]) AS c(line_id, source)
    JOIN selection_files f ON f.selection_id = c.source AND f.line_id = c.line_id
    ON CONFLICT (selection_id, line_id)
      DO UPDATE SET name = excluded.name, columns = excluded.columns, created_at = now()
    RETURNING line_id`);
  const copied = (rows as { line_id: string }[]).map((r) => r.line_id);
  if (copied.length === 0) return [];
  await db.execute(sql`DELETE FROM selection_file_rows
    WHERE selection_id = ${selectionId} AND line_id = ANY(${pgTextArray(copied)}::text[])`);
  await db.execute(sql`
    INSERT INTO selection_file_rows (selection_id, line_id, vals)
    SELECT ${selectionId}, r.line_id, r.vals
    FROM unnest(${ids}::text[], ${sources}::text[]) AS c(line_id, source)
    JOIN selection_file_rows r ON r.selection_id = c.source AND r.line_id = c.line_id
    WHERE c.line_id = ANY(${pgTextArray(copied)}::text[])`);
  return copied;
}
