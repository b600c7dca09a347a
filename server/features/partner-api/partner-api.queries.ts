import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { MappingEntry } from '../../../common/mappings';
import { clientDb, type Database } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { pgTextArray } from '../../lib/pg-array';
import { ANY_SUPPRESSIONS_STATEMENT, HOLD_OFF_ERASURE_STATEMENT, suppressedSql } from '../avg/suppression';
import { recordsPartition } from '../records/records.queries';
import { markSelDirtyCte } from '../selections/sel-dirty.sql';

// Every statement of the partner API (spec 001 §7). The writes run on the pg client of one
// transaction that holds the dataset row locked, as imports do (DESIGN §6: API writes and imports
// of one dataset serialize).

/** The dataset a key belongs to, as the partner API needs it. */
export interface KeyDataset {
  id: string;
  partnerId: string;
  name: string;
  /** The dataset's e-mail column (its emailColumnName, else 'email'): the column a record's address is. */
  emailColumn: string;
}

/** SHA-256 of a key, as migration 0018's lw_api_key_hash computes it. */
export function keyHash(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest();
}

/**
 * The dataset whose API key is `key`, or undefined. Looked up by the key's SHA-256 (index of
 * migration 0018), then compared in constant time: the time taken never depends on how much of
 * a guess matches a real key.
 */
export async function findDatasetByKey(database: Database, key: string): Promise<KeyDataset | undefined> {
  const hash = keyHash(key);
  const { rows } = await database.pool.query<{
    id: string;
    partner_id: string;
    name: string;
    api_key: string;
    email_column: string | null;
  }>({
    // Prepared once a connection (every partner API call asks).
    name: 'partner-api-key',
    text: `SELECT id, partner_id, name, api_key, config ->> 'emailColumnName' AS email_column
     FROM datasets WHERE lw_api_key_hash(api_key) = $1`,
    values: [hash],
  });
  const row = rows[0];
  if (!row || !crypto.timingSafeEqual(keyHash(row.api_key), hash)) return undefined;
  return {
    id: row.id,
    partnerId: row.partner_id,
    name: row.name,
    emailColumn: row.email_column?.trim() || 'email',
  };
}

/** A dataset locked for a write, with what mapping a record needs. */
export interface LockedDataset {
  mappings: MappingEntry[];
  headers: string[];
  rawColumns: string[];
  /** Whether its records table exists as a partition of records (none before its first write). */
  partition: 'none' | 'attached' | 'detached';
  /** Whether any address was ever erased (the write then drops the records of erased ones). */
  anySuppressions: boolean;
}

/**
 * Begins a transaction, holds off erasure (holdOffErasure: the erasure's lock first, as every way
 * in takes it), locks the dataset row for the rest of it (the lock every import and remap takes:
 * lockDatasetForImport), then reads its mapping, the state of its records table and whether any
 * address was ever erased; undefined when the dataset is gone. One round trip of five statements
 * (a simple query: the id is a literal): the reads' snapshot is taken after the locks came, so it
 * sees what the writer that held the lock committed (its new records table, its columns) and every
 * erasure committed before.
 */
export async function beginDatasetWrite(
  client: pg.ClientBase,
  datasetId: string,
): Promise<LockedDataset | undefined> {
  const id = client.escapeLiteral(datasetId);
  const results = (await client.query(
    `BEGIN;
     ${HOLD_OFF_ERASURE_STATEMENT};
     SELECT id FROM datasets WHERE id = ${id} FOR UPDATE;
     SELECT m.mappings, m.headers, m.raw_columns,
       CASE WHEN p.oid IS NULL THEN 'none'
         WHEN EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = p.oid) THEN 'attached' ELSE 'detached' END AS partition
     FROM (SELECT to_regclass(quote_ident(${client.escapeLiteral(recordsPartition(datasetId))})) AS oid) p
     LEFT JOIN dataset_mappings m ON m.dataset_id = ${id};
     ${ANY_SUPPRESSIONS_STATEMENT}`,
  )) as unknown as pg.QueryResult[];
  if (results[2].rows.length === 0) return undefined;
  const row = results[3].rows[0] as
    | {
        mappings: MappingEntry[] | null;
        headers: string[] | null;
        raw_columns: string[] | null;
        partition: LockedDataset['partition'];
      }
    | undefined;
  if (!row) return undefined;
  return {
    mappings: row.mappings ?? [],
    headers: row.headers ?? [],
    rawColumns: row.raw_columns ?? [],
    partition: row.partition,
    anySuppressions: (results[4].rows[0] as { any: boolean }).any,
  };
}

/** Stores a dataset's headers and raw column positions after a write added fields to them. */
export async function saveWriteColumns(
  client: pg.ClientBase,
  datasetId: string,
  headers: string[],
  rawColumns: string[],
): Promise<void> {
  await client.query(
    `INSERT INTO dataset_mappings (dataset_id, headers, raw_columns) VALUES ($1, $2, $3)
     ON CONFLICT (dataset_id) DO UPDATE SET headers = excluded.headers, raw_columns = excluded.raw_columns`,
    [datasetId, headers, rawColumns],
  );
}

/**
 * The rows whose address was not erased (AVG art. 17): one statement hashes the call's addresses
 * and looks them up in avg_suppressions. The caller holds holdOffErasure (beginDatasetWrite).
 */
export async function dropErasedRows(
  client: pg.PoolClient,
  keys: ColumnKeys,
  rows: RecordRow[],
): Promise<RecordRow[]> {
  if (rows.length === 0) return rows;
  const { rows: hits } = await clientDb(client).execute<{ email: string }>(
    sql`SELECT e AS email FROM unnest(${pgTextArray(rows.map((r) => r.email))}::text[]) AS e
      WHERE ${suppressedSql(keys, sql`e`)}`,
  );
  if (hits.length === 0) return rows;
  const erased = new Set(hits.map((h) => h.email));
  return rows.filter((r) => !erased.has(r.email));
}

/** A record ready to store: its address and its columns as the import writes them. */
export interface RecordRow {
  email: string;
  raw: (string | null)[];
  /** The attrs JSON text (RecordMapper.attrs). */
  attrs: string;
  hash: string;
  rawHash: string;
}

/** The rows as one JSON array for jsonb_to_recordset (the attrs text is JSON already). */
function rowsJson(rows: RecordRow[]): string {
  return `[${rows
    .map(
      (r) =>
        `{"email":${JSON.stringify(r.email)},"raw":${JSON.stringify(r.raw)},"attrs":${r.attrs},"hash":"${r.hash}","raw_hash":"${r.rawHash}"}`,
    )
    .join(',')}]`;
}

const ROWS = `jsonb_to_recordset($2::jsonb) AS x(email text, raw text[], attrs jsonb, hash text, raw_hash text)`;

/**
 * The rows with their address ids, as a WITH list ending in `s` (id, email, raw, attrs, hash,
 * raw_hash; id null where the address is missing):
 * - with `addAddresses`, each address is looked up by its own index probe (a scalar subquery,
 *   which PostgreSQL does not turn into a join: as NOT EXISTS or a join, the planner saw 1,000
 *   rows and hashed the whole addresses table for every batch, a seq scan growing with the table)
 *   and the missing ones are inserted in e-mail order (the order imports insert in, so two writers
 *   wait for each other instead of deadlocking), their ids taken from the insert. An address that
 *   another transaction added after this statement's snapshot is skipped by the insert and stays
 *   null here;
 * - without, the addresses are joined as they are.
 */
function sourceRows(addAddresses: boolean): string {
  if (!addAddresses)
    return `s AS (SELECT a.id, x.email, x.raw, x.attrs, x.hash, x.raw_hash FROM ${ROWS} JOIN addresses a ON a.email = x.email COLLATE "C")`;
  return `x AS MATERIALIZED (SELECT x.*, (SELECT a.id FROM addresses a WHERE a.email = x.email COLLATE "C") AS id FROM ${ROWS}),
     added AS (INSERT INTO addresses (email, domain)
       SELECT email, split_part(email, '@', 2) FROM x WHERE id IS NULL ORDER BY email COLLATE "C"
       ON CONFLICT (email) DO NOTHING RETURNING id, email),
     s AS MATERIALIZED (SELECT coalesce(x.id, added.id) AS id, x.email, x.raw, x.attrs, x.hash, x.raw_hash
       FROM x LEFT JOIN added ON x.id IS NULL AND added.email = x.email COLLATE "C")`;
}

/**
 * Writes records into the dataset's records table, adding their missing addresses, and keeps its
 * record_count:
 * - upsert: inserts new records and replaces stored ones whose row hash differs (unchanged ones
 *   are not written);
 * - insert: inserts only records the dataset does not hold;
 * - update: replaces only records the dataset holds (always written);
 * - fresh: inserts all into the dataset's new, empty table, before its key is built (the rows
 *   have one address each).
 * One statement (addresses and records, and the written records marked for sel_record);
 * the records whose address another transaction added meanwhile (sourceRows) are written by a
 * second, whose snapshot sees it. Returns how many were
 * inserted and how many replaced. The dataset row must be locked.
 */
export async function writeRecordRows(
  client: pg.ClientBase,
  datasetId: string,
  rows: RecordRow[],
  mode: 'upsert' | 'insert' | 'update' | 'fresh',
): Promise<{ inserted: number; modified: number }> {
  const first = await writeRows(client, datasetId, rows, mode, true);
  if (first.missing.length === 0) return first;
  const missing = new Set(first.missing);
  const again = await writeRows(
    client,
    datasetId,
    rows.filter((r) => missing.has(r.email)),
    mode,
    false,
  );
  return { inserted: first.inserted + again.inserted, modified: first.modified + again.modified };
}

/** writeRecordRows's statement; `missing` are the e-mails whose address was not there to write with. */
async function writeRows(
  client: pg.ClientBase,
  datasetId: string,
  rows: RecordRow[],
  mode: 'upsert' | 'insert' | 'update' | 'fresh',
  addAddresses: boolean,
): Promise<{ inserted: number; modified: number; missing: string[] }> {
  const table = `"${recordsPartition(datasetId)}"`;
  const source = 'SELECT * FROM s WHERE id IS NOT NULL';
  let write: string;
  if (mode === 'fresh') {
    write = `INSERT INTO ${table} (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
      SELECT $1, s.id, s.raw, s.attrs, s.hash, s.raw_hash FROM (${source}) s ORDER BY s.id RETURNING true AS ins, address_id, dataset_id`;
  } else if (mode === 'update') {
    write = `UPDATE ${table} r SET raw = s.raw, attrs = s.attrs, row_hash = s.hash, raw_hash = s.raw_hash, updated_at = now()
      FROM (${source}) s WHERE r.address_id = s.id RETURNING false AS ins, r.address_id, r.dataset_id`;
  } else {
    const conflict =
      mode === 'insert'
        ? 'ON CONFLICT (address_id) DO NOTHING'
        : `ON CONFLICT (address_id) DO UPDATE SET raw = excluded.raw, attrs = excluded.attrs, row_hash = excluded.row_hash,
             raw_hash = excluded.raw_hash, updated_at = now()
           WHERE r.row_hash IS DISTINCT FROM excluded.row_hash`;
    // In address order: two writers of one dataset never meet (the row lock), and its primary key grows at its right edge.
    write = `INSERT INTO ${table} AS r (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
      SELECT $1, s.id, s.raw, s.attrs, s.hash, s.raw_hash FROM (${source}) s ORDER BY s.id
      ${conflict} RETURNING (r.xmax = 0) AS ins, r.address_id, r.dataset_id`;
  }
  // The records written (an unchanged one is not) are marked for sel_record.
  const { rows: counts } = await client.query<{ inserted: number; modified: number; missing: string[] }>(
    `WITH ${sourceRows(addAddresses)},
     w AS (${write}),
     ${markSelDirtyCte('m', 'w')},
     n AS (SELECT count(*) FILTER (WHERE ins)::int AS inserted, count(*) FILTER (WHERE NOT ins)::int AS modified FROM w),
     c AS (UPDATE datasets SET record_count = record_count + n.inserted FROM n WHERE id = $1 AND n.inserted > 0)
     SELECT inserted, modified, ARRAY(SELECT email FROM s WHERE id IS NULL) AS missing FROM n`,
    [datasetId, rowsJson(rows)],
  );
  return counts[0];
}

/**
 * Deletes the dataset's record of `email` (marked for sel_record) and keeps its
 * record_count; false when it held none.
 */
export async function deleteRecordRow(
  client: pg.ClientBase,
  datasetId: string,
  email: string,
): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `WITH d AS (DELETE FROM records r USING addresses a
       WHERE r.dataset_id = $1 AND r.address_id = a.id AND a.email = $2 COLLATE "C" RETURNING r.address_id, r.dataset_id),
     ${markSelDirtyCte('m', 'd')},
     c AS (UPDATE datasets SET record_count = greatest(record_count - (SELECT count(*) FROM d), 0)
       WHERE id = $1 AND EXISTS (SELECT 1 FROM d))
     SELECT count(*)::int AS n FROM d`,
    [datasetId, email],
  );
  return rows[0].n > 0;
}

/** The stored record of `email` in the dataset with the dataset's raw column names; undefined when absent. */
export async function getRecordRow(
  database: Database,
  datasetId: string,
  email: string,
): Promise<
  | { email: string; raw: (string | null)[]; rawColumns: string[]; createdAt: Date; updatedAt: Date }
  | undefined
> {
  const { rows } = await database.pool.query<{
    email: string;
    raw: (string | null)[];
    raw_columns: string[] | null;
    created_at: Date;
    updated_at: Date;
  }>(
    `SELECT a.email, r.raw, m.raw_columns, r.created_at, r.updated_at
     FROM addresses a JOIN records r ON r.address_id = a.id AND r.dataset_id = $1
     LEFT JOIN dataset_mappings m ON m.dataset_id = $1
     WHERE a.email = $2 COLLATE "C"`,
    [datasetId, email],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    email: row.email,
    raw: row.raw,
    rawColumns: row.raw_columns ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A CSV task of the partner API by id, when it belongs to the dataset; undefined otherwise. */
export async function getDatasetTask(
  database: Database,
  datasetId: string,
  taskId: string,
): Promise<
  | {
      id: string;
      state: string;
      percentage: number;
      file: string | null;
      createdAt: Date;
      error: string | null;
      result: unknown;
    }
  | undefined
> {
  const { rows } = await database.pool.query(
    `SELECT id, state, percentage, file, created_at, error, result FROM tasks
     WHERE id = $1 AND type = 'import' AND payload ->> 'datasetId' = $2`,
    [taskId, datasetId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    state: row.state,
    percentage: row.percentage,
    file: row.file,
    createdAt: row.created_at,
    error: row.error,
    result: row.result,
  };
}
