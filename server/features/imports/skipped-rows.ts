import crypto from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { CsvFormat } from '../../../common/csv-download';
import { normalizeEmail } from '../../../common/email';
import {
  ROW_SKIP_REASONS,
  type RowSkipReason,
  SKIP_REASON_LABELS,
  SKIPPED_ROWS_HEADER,
  SKIPPED_ROWS_KEPT,
  type SkippedBy,
} from '../../../common/skipped-rows';
import type { DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { pgTextArray } from '../../lib/pg-array';
import { anySuppressions, suppressionKey } from '../avg/suppression';
import type { SkippedRow, SkippedRows } from '../records/skip-log';
import { type CsvBody, csvDownload } from '../uploads/csv-download';

// The skipped rows of an import as stored and downloaded; the mappers' notes of them
// are records/skip-log.ts.

/**
 * The repeats an import's SQL knows: the rows of `from` (a SELECT of `ln`) with the e-mail field of
 * their staged row (`staging`, its column `emailColumn`), the first SKIPPED_ROWS_KEPT by row.
 */
export async function listRepeatedRows(
  tx: DbOrTx,
  staging: string,
  emailColumn: string,
  from: string,
): Promise<SkippedRow[]> {
  const result = await tx.execute<{ ln: string; email: string | null }>(
    sql.raw(`SELECT x.ln, s.${emailColumn} AS email FROM (${from}) x JOIN ${staging} s ON s.ln = x.ln
      ORDER BY x.ln LIMIT ${SKIPPED_ROWS_KEPT}`),
  );
  return result.rows.map((r) => [Number(r.ln), 'repeated', r.email]);
}

/**
 * Notes in `skipped` the rows an import left out as erased (AVG art. 17): the rows of `from` (a
 * SELECT of `ln`), counted in full, the first SKIPPED_ROWS_KEPT kept by their line only: the
 * e-mail of an erased address is never stored again, not even in the skipped rows (which the
 * erasure itself clears of it).
 */
export async function noteErasedRows(tx: DbOrTx, skipped: SkippedRows, from: string): Promise<void> {
  const result = await tx.execute<{ ln: string; n: string }>(
    sql.raw(`SELECT x.ln, count(*) OVER () AS n FROM (${from}) x ORDER BY x.ln LIMIT ${SKIPPED_ROWS_KEPT}`),
  );
  if (result.rows.length === 0) return;
  skipped.counts.erased += Number(result.rows[0].n);
  skipped.keep(result.rows.map((r) => [Number(r.ln), 'erased', null]));
}

/** Stores a task's first skipped rows (one statement; at most SKIPPED_ROWS_KEPT). */
export async function insertSkippedRows(tx: DbOrTx, taskId: string, rows: SkippedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    INSERT INTO import_skipped_rows (task_id, row, reason, email)
    SELECT ${taskId}, x.row::bigint, x.reason, x.email
    FROM unnest(${pgTextArray(rows.map((r) => String(r[0])))}::text[], ${pgTextArray(rows.map((r) => r[1]))}::text[],
      ${pgTextArray(rows.map((r) => r[2]))}::text[]) AS x(row, reason, email)`);
}

/**
 * Stores a task's first SKIPPED_ROWS_KEPT rows of `skipped` (a SELECT of ln, reason and email, one
 * row per skipped row; set-based, in one statement with the count) and returns the count of all of
 * them per reason. Without a task the rows are only counted.
 */
export async function saveSkippedRowsFrom(
  tx: DbOrTx,
  taskId: string | null,
  skipped: SQL,
): Promise<Partial<Record<RowSkipReason, number>>> {
  const counted = await tx.execute<{ reason: RowSkipReason; n: number }>(
    taskId === null
      ? sql`SELECT reason, count(*)::int AS n FROM (${skipped}) x GROUP BY reason`
      : sql`WITH x AS MATERIALIZED (${skipped}),
        kept AS (
          INSERT INTO import_skipped_rows (task_id, row, reason, email)
          SELECT ${taskId}, ln, reason, email FROM x ORDER BY ln LIMIT ${sql.raw(String(SKIPPED_ROWS_KEPT))}
        )
        SELECT reason, count(*)::int AS n FROM x GROUP BY reason`,
  );
  return Object.fromEntries(counted.rows.map((r) => [r.reason, r.n]));
}

/**
 * Which of the e-mail fields `fields` (as in a file) name an erased address (AVG art. 17): each
 * normalised and hashed in Node as the ways in do, the distinct hashes probed in one statement.
 */
async function erasedFields(tx: DbOrTx, keys: ColumnKeys, fields: (string | null)[]): Promise<Set<string>> {
  const key = suppressionKey(keys);
  const hashOf = new Map<string, string>();
  for (const field of fields) {
    const email = normalizeEmail(field);
    if (email && !hashOf.has(email))
      hashOf.set(email, crypto.createHmac('sha256', key).update(email, 'utf8').digest('hex'));
  }
  if (hashOf.size === 0) return new Set();
  const { rows: hits } = await tx.execute<{ h: string }>(
    sql`SELECT encode(hash, 'hex') AS h FROM avg_suppressions
      WHERE hash IN (SELECT decode(h, 'hex') FROM unnest(${pgTextArray([...hashOf.values()])}::text[]) h)`,
  );
  const erased = new Set(hits.map((x) => x.h));
  return new Set(
    fields.filter((f): f is string => {
      const email = normalizeEmail(f);
      return email !== null && erased.has(hashOf.get(email) ?? '');
    }),
  );
}

/**
 * The rows with the e-mail field left out where it names an erased address: a row the mapping's
 * exclude filter dropped, say, is kept by its line only.
 */
async function withoutErasedEmails(tx: DbOrTx, keys: ColumnKeys, rows: SkippedRow[]): Promise<SkippedRow[]> {
  const erased = await erasedFields(
    tx,
    keys,
    rows.map((r) => r[2]),
  );
  return erased.size === 0
    ? rows
    : rows.map((r) => (r[2] !== null && erased.has(r[2]) ? [r[0], r[1], null] : r));
}

/**
 * Empties the e-mail field of task `taskId`'s stored skipped rows where it names an erased address
 * (a results file's row of one is then kept by its line only). Nothing is read while no address
 * was ever erased. The caller holds off erasure (holdOffErasure).
 */
export async function clearErasedSkippedEmails(tx: DbOrTx, keys: ColumnKeys, taskId: string): Promise<void> {
  if (!(await anySuppressions(tx))) return;
  const { rows } = await tx.execute<{ email: string }>(
    sql`SELECT DISTINCT email FROM import_skipped_rows WHERE task_id = ${taskId} AND email IS NOT NULL`,
  );
  const erased = await erasedFields(
    tx,
    keys,
    rows.map((r) => r.email),
  );
  if (erased.size === 0) return;
  await tx.execute(sql`UPDATE import_skipped_rows SET email = NULL
    WHERE task_id = ${taskId} AND email = ANY(${pgTextArray([...erased])}::text[])`);
}

/**
 * Stores the first skipped rows of an import task and returns its skipped rows per reason: the
 * mappers counted the invalid and excluded ones, the import the erased ones; the others of the
 * `skipped` are repeats. `keys` when any address was ever erased: no stored row then keeps the
 * e-mail of an erased address (withoutErasedEmails).
 */
export async function saveSkippedRows(
  tx: DbOrTx,
  taskId: string,
  skipped: number,
  rows: SkippedRows,
  keys: ColumnKeys | null,
): Promise<SkippedBy> {
  const first = rows.first();
  await insertSkippedRows(tx, taskId, keys ? await withoutErasedEmails(tx, keys, first) : first);
  const { invalid, excluded, erased } = rows.counts;
  return { invalid, excluded, erased, repeated: skipped - invalid - excluded - erased };
}

/**
 * The skipped-rows download of a task: regel (the row's line in the file: its number plus the
 * header line, exact while no value holds a line break), reden (in Dutch) and the e-mail as in the
 * file, by line, in `format` (csvDownload).
 */
export function skippedRowsCsv(
  pool: pg.Pool,
  keys: () => ColumnKeys,
  taskId: string,
  format: CsvFormat,
): CsvBody {
  return csvDownload(pool, keys, {
    header: SKIPPED_ROWS_HEADER,
    format,
    // regel is a line number.
    numberColumns: [0],
    select: (client) => {
      const reason = ROW_SKIP_REASONS.map(
        (r) => `WHEN ${client.escapeLiteral(r)} THEN ${client.escapeLiteral(SKIP_REASON_LABELS[r])}`,
      ).join(' ');
      return `SELECT row + 1, CASE reason ${reason} ELSE reason END, email FROM import_skipped_rows
        WHERE task_id = ${client.escapeLiteral(taskId)} ORDER BY row`;
    },
  });
}
