import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../../db/client';
import { markingSelDirty } from '../selections/sel-dirty.sql';

// Every statement of an import's general path (import.service.ts) besides the shared ones of
// import.queries.ts, in the order the import runs them. The temporary tables live until the
// import's transaction ends:
// - the work table (workTable): the mapping pass's line per file row (IMPORT_WORK_COLUMNS);
// - k: one row per valid e-mail, its first line (ln), the address id a row brought (key) and the
//   rows of that e-mail (n);
// - ka: the first lines with their address ids;
// - kk: the first lines to write, and whether the dataset holds a record for the address.

/** Gives the import's transaction 256 MB of work_mem: its de-duplication and joins hash millions of e-mails. */
export async function setImportWorkMem(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
}

/** Creates the import's unlogged work table with the columns of the import mapper's lines. */
export async function createWorkTable(tx: DbOrTx, work: string, columns: string): Promise<void> {
  await tx.execute(sql.raw(`CREATE UNLOGGED TABLE ${work} (${columns})`));
}

/**
 * The statements a re-import's reading connection runs before its pass: a temporary table
 * `current` of the dataset's records with their e-mail, found by index lookups in id order when
 * `lookupRecords` (among many more addresses), else by one hash join.
 */
export function currentRecordsStatements(
  current: string,
  datasetLiteral: string,
  lookupRecords: boolean,
): string[] {
  return [
    `SET work_mem = '256MB'`,
    ...(lookupRecords
      ? ['SET enable_hashjoin = off', 'SET enable_mergejoin = off']
      : ['SET enable_nestloop = off', 'SET enable_mergejoin = off']),
    `CREATE TEMP TABLE ${current} AS SELECT a.email, r.raw_hash, r.row_hash, r.address_id
             FROM records r JOIN addresses a ON a.id = r.address_id WHERE r.dataset_id = ${datasetLiteral}`,
    'RESET enable_hashjoin',
    'RESET enable_mergejoin',
    'RESET enable_nestloop',
    `ANALYZE ${current}`,
  ];
}

/** The statements that clean a re-import's reading connection after its pass. */
export function currentRecordsCleanup(current: string): string[] {
  return [`DROP TABLE IF EXISTS ${current}`, 'RESET work_mem'];
}

/**
 * The SELECT the mapping pass reads: the staged rows' `columns` and line, on a re-import joined
 * with their record in `current` by the e-mail as SQL normalises it.
 */
export function importSelect(
  columns: string,
  staging: string,
  emailIndex: number,
  current: string | null,
): string {
  return current
    ? `SELECT ${columns}, s.ln, c.raw_hash, c.row_hash, c.address_id, c.email FROM ${staging} s
           LEFT JOIN ${current} c ON c.email = lower(btrim(s.c${emailIndex + 1})) COLLATE "C"`
    : `SELECT ${columns}, s.ln FROM ${staging} s`;
}

/** Updates the planner's statistics of a table the import just filled. */
export async function analyzeTable(tx: DbOrTx, table: string): Promise<void> {
  await tx.execute(sql`ANALYZE ${sql.raw(table)}`);
}

/**
 * The work table's valid rows (an e-mail, not excluded) and, among them, those whose address must
 * be looked up (the pass brought no address id).
 */
export async function countValidRows(tx: DbOrTx, work: string): Promise<{ valid: number; lookup: number }> {
  const counts = await tx.execute<{ valid: number; lookup: number }>(sql`
        SELECT count(*)::int AS valid, count(*) FILTER (WHERE key IS NULL)::int AS lookup
        FROM ${sql.raw(work)} WHERE email IS NOT NULL`);
  return { valid: Number(counts.rows[0].valid), lookup: Number(counts.rows[0].lookup) };
}

/**
 * Creates and analyzes `k`: one row per valid e-mail of the work table, its first line, the address
 * id a row brought and its count of rows (`sorted`: in e-mail order, for many index lookups);
 * returns its rows.
 */
export async function createFirstRows(tx: DbOrTx, work: string, sorted: boolean): Promise<number> {
  const dedup = await tx.execute(sql`
        CREATE TEMP TABLE k ON COMMIT DROP AS
        SELECT min(ln) AS ln, email, min(key) AS key, count(*) AS n FROM ${sql.raw(work)} WHERE email IS NOT NULL GROUP BY email
        ${sorted ? sql`ORDER BY email` : sql``}`);
  await tx.execute(sql`ANALYZE k`);
  return Number(dedup.rowCount ?? 0);
}

/** The SELECT of the lines that repeat an e-mail of an earlier line (for listRepeatedRows). */
export function repeatedLinesSelect(work: string): string {
  return `SELECT w.ln FROM ${work} w JOIN k ON k.email = w.email WHERE k.n > 1 AND w.ln > k.ln`;
}

/** The SELECT of the lines of the erased e-mails of `ke` (removeErasedFirstRows), for noteErasedRows. */
export function erasedLinesSelect(work: string): string {
  return `SELECT w.ln FROM ${work} w JOIN ke ON ke.email = w.email`;
}

/** Turns the planner's hash and merge joins off (index lookups) or back on, for the rest of the transaction. */
export async function setHashJoins(tx: DbOrTx, on: boolean): Promise<void> {
  const value = sql.raw(on ? 'on' : 'off');
  await tx.execute(sql`SET LOCAL enable_hashjoin = ${value}`);
  await tx.execute(sql`SET LOCAL enable_mergejoin = ${value}`);
}

/** Creates `ka`: each first line of `k` with its address id, brought by the pass or looked up by e-mail. */
export async function createAddressKeys(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
        CREATE TEMP TABLE ka ON COMMIT DROP AS
        SELECT k.ln, k.key FROM k WHERE k.key IS NOT NULL
        UNION ALL
        SELECT k.ln, a.id FROM k JOIN addresses a ON a.email = k.email WHERE k.key IS NULL`);
}

/**
 * Creates and analyzes `kk` for a dataset with records: the first lines whose row hash differs
 * from their record's (or that have none), with whether the dataset holds a record for the address.
 * The pass brought the stored row hash of most rows (w.stored); only the others are looked up.
 */
export async function createWrittenKeys(tx: DbOrTx, work: string, datasetId: string): Promise<void> {
  await tx.execute(sql`
        CREATE TEMP TABLE kk ON COMMIT DROP AS
        SELECT ka.ln, ka.key, true AS existing
        FROM ka JOIN ${sql.raw(work)} w ON w.ln = ka.ln WHERE w.stored <> w.hash
        UNION ALL
        SELECT ka.ln, ka.key, r.address_id IS NOT NULL AS existing
        FROM ka JOIN ${sql.raw(work)} w ON w.ln = ka.ln
        LEFT JOIN records r ON r.dataset_id = ${datasetId} AND r.address_id = ka.key
        WHERE w.stored IS NULL AND r.row_hash IS DISTINCT FROM w.hash`);
  await tx.execute(sql`ANALYZE kk`);
}

/** Makes `ka` the keys to write (`kk`): in a dataset without records every first line is new. */
export async function renameAddressKeysToWritten(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`ALTER TABLE ka RENAME TO kk`);
}

/**
 * The SQL of a record's raw: the file's values at the dataset's raw positions `rawColumns` (an
 * encrypted column's ciphertext and blind index from the row's patch, `w.patch`); columns of
 * earlier files this one lacks are NULL (trailing ones left out).
 */
export function compileRawArray(
  client: pg.ClientBase,
  headers: string[],
  rawColumns: string[],
  encrypted: Set<string>,
  written: Set<string>,
): SQL {
  const items = rawColumns.map((c) => {
    const i = headers.indexOf(c);
    if (i >= 0 && !encrypted.has(c)) return `s.c${i + 1}`;
    if (written.has(c)) return `w.patch ->> ${client.escapeLiteral(c)}`;
    return 'NULL';
  });
  while (items.length > 0 && items[items.length - 1] === 'NULL') items.pop();
  return sql.raw(`ARRAY[${items.join(', ')}]::text[]`);
}

/** Replaces the records of `kk` the dataset holds (kk.existing) by their rows; returns how many. */
export async function updateChangedRecords(
  tx: DbOrTx,
  t: { work: string; staging: string; datasetId: string; raw: SQL },
): Promise<number> {
  const upd = await tx.execute(sql`
        UPDATE records r SET raw = ${t.raw}, attrs = w.attrs, row_hash = w.hash, raw_hash = w.raw_hash, updated_at = now()
        FROM kk JOIN ${sql.raw(t.work)} w ON w.ln = kk.ln JOIN ${sql.raw(t.staging)} s ON s.ln = kk.ln
        WHERE kk.existing
          AND r.dataset_id = ${t.datasetId} AND r.address_id = kk.key`);
  return upd.rowCount ?? 0;
}

/**
 * Inserts the new records of `kk` (all of them when `allNew`) into table `into`, by address id;
 * returns how many.
 */
export async function insertNewRecords(
  tx: DbOrTx,
  t: { into: string; work: string; staging: string; datasetId: string; raw: SQL; allNew: boolean },
): Promise<number> {
  const ins = await tx.execute(sql`
        INSERT INTO ${sql.identifier(t.into)} (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
        SELECT ${t.datasetId}, kk.key, ${t.raw}, w.attrs, w.hash, w.raw_hash
        FROM kk JOIN ${sql.raw(t.work)} w ON w.ln = kk.ln JOIN ${sql.raw(t.staging)} s ON s.ln = kk.ln
        ${t.allNew ? sql`` : sql`WHERE NOT kk.existing`} ORDER BY kk.key`);
  return ins.rowCount ?? 0;
}

/** The address and dataset of each record written (`kk`), for markSelDirtyRecords. */
export function writtenRecordKeys(datasetId: string): SQL {
  return sql`SELECT key, ${datasetId}::text FROM kk`;
}

/** Deletes the dataset's records whose address the file does not hold (marked for sel_record); returns how many. */
export async function deleteAbsentRecords(tx: DbOrTx, datasetId: string): Promise<number> {
  const del = await tx.execute(
    markingSelDirty(sql`
          DELETE FROM records r WHERE r.dataset_id = ${datasetId}
            AND NOT EXISTS (SELECT 1 FROM ka WHERE ka.key = r.address_id) RETURNING r.address_id, r.dataset_id`),
  );
  return del.rowCount ?? 0;
}

/** Drops the work table and the staging table once the records are written. */
export async function dropImportTables(tx: DbOrTx, work: string, staging: string): Promise<void> {
  await tx.execute(sql`DROP TABLE ${sql.raw(work)}`);
  await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(staging)}`);
}
