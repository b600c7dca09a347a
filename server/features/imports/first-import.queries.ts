import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db, DbOrTx } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { isAddressRace } from '../../lib/pg-errors';
import { suppressedSql } from '../avg/suppression';
import { IMPORT_WORK_COLUMNS } from '../records/row-mappers';

// Every statement of a first import's direct path (first-import.service.ts), in the order it runs
// them. Its tables are named after the staging table (getFirstImportTables): `firsts`, the first
// row of each e-mail SQL takes for valid with its address id, and `side`, the rows only Node
// takes for valid; `erased`, the e-mails of new addresses that were erased (made only while some
// suppression exists); the temporary tables k and ka hold the side rows' first lines and address
// ids, and ke the side rows' erased e-mails.

/**
 * Creates and analyzes `firsts` on `client` (in a transaction of its own): the first line of each
 * e-mail `valid` takes, with the existing address's id or, for a new address, base + its line.
 * Against a much larger addresses table (`lookups`) the e-mails are looked up one by one in
 * e-mail order; otherwise hashed.
 */
export async function createFirstsTable(
  client: pg.ClientBase,
  t: { firsts: string; staging: string; emailColumn: string; valid: string; base: number; lookups: boolean },
): Promise<void> {
  await client.query(`SET LOCAL work_mem = '256MB'`);
  if (t.lookups) await client.query('SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off');
  await client.query(`CREATE UNLOGGED TABLE ${t.firsts} AS
      SELECT g.ln, g.email, coalesce(a.id, ${t.base} + g.ln) AS id, a.id IS NULL AS new FROM (
        SELECT min(s.ln) AS ln, lower(btrim(${t.emailColumn}) COLLATE "C") AS email
        FROM ${t.staging} s WHERE ${t.valid} GROUP BY 2 ${t.lookups ? 'ORDER BY 2' : ''}
      ) g LEFT JOIN addresses a ON a.email = g.email`);
  await client.query(`ANALYZE ${t.firsts}`);
}

/**
 * Creates `erased` (in the transaction that made `firsts`): the e-mails of firsts' new addresses
 * that were erased, hashed only for new addresses (an erased e-mail is never stored); takes them
 * out of firsts. Returns how many.
 */
export async function createErasedFirsts(
  tx: DbOrTx,
  t: { firsts: string; erased: string },
  keys: ColumnKeys,
): Promise<number> {
  const created = await tx.execute(sql`
    CREATE UNLOGGED TABLE ${sql.raw(t.erased)} AS
    SELECT f.email FROM ${sql.raw(t.firsts)} f WHERE f.new AND ${suppressedSql(keys, sql`f.email`)}`);
  const erased = Number(created.rowCount ?? 0);
  if (erased > 0) {
    // Analyzed, or the pass's anti-join may take it for empty and scan it once per staged row.
    await tx.execute(sql`ANALYZE ${sql.raw(t.erased)}`);
    await tx.execute(
      sql`DELETE FROM ${sql.raw(t.firsts)} f USING ${sql.raw(t.erased)} e WHERE f.email = e.email`,
    );
  }
  return erased;
}

/**
 * The SELECT of the staged lines whose e-mail (as firsts normalises it) is in `erased`, for
 * noteErasedRows; one join, no second read of the staged rows.
 */
export function erasedFirstsLinesSelect(staging: string, emailColumn: string, erased: string): string {
  return `SELECT s.ln FROM ${staging} s
    JOIN ${erased} e ON e.email = lower(btrim(s.${emailColumn}) COLLATE "C")`;
}

/** The SELECT of the side lines of the erased e-mails of `ke`, for noteErasedRows. */
export function erasedSideLinesSelect(side: string): string {
  return `SELECT w.ln FROM ${side} w JOIN ke ON ke.email = w.email`;
}

/**
 * Inserts the new addresses of a first import's firsts table with their ids, inside a savepoint, in
 * e-mail order like every insert of addresses (so two imports never wait for each other's rows in
 * opposite orders): should another import have added one of them meanwhile (or a deadlock chose
 * this insert), they go in again with ON CONFLICT DO NOTHING, and the answer is true (that
 * address then has the other import's id).
 */
export async function insertFirstAddresses(tx: Db, firsts: string): Promise<boolean> {
  const insert = (onConflict: string) =>
    tx.execute(
      sql.raw(`INSERT INTO addresses (id, email, domain) OVERRIDING SYSTEM VALUE
        SELECT f.id, f.email, split_part(f.email, '@', 2) FROM ${firsts} f WHERE f.new ORDER BY f.email ${onConflict}`),
    );
  await tx.execute(sql`SAVEPOINT first_addresses`);
  try {
    await insert('');
    await tx.execute(sql`RELEASE SAVEPOINT first_addresses`);
    return false;
  } catch (err) {
    if (!isAddressRace(err)) throw err;
    await tx.execute(sql`ROLLBACK TO SAVEPOINT first_addresses`);
    await insert('ON CONFLICT (email) DO NOTHING');
    return true;
  }
}

/** Creates the side table on `client`: the work-table lines of the rows only Node takes for valid. */
export async function createSideTable(client: pg.ClientBase, side: string): Promise<void> {
  await client.query(`CREATE UNLOGGED TABLE ${side} (${IMPORT_WORK_COLUMNS})`);
}

/**
 * The SELECT the direct pass reads: the staged rows' `columns` and line, with their first row's
 * address id; with `erased`, the rows of an erased e-mail left out.
 */
export function directSelect(
  columns: string,
  staging: string,
  firsts: string,
  erased: { table: string; emailColumn: string } | null,
): string {
  const select = `SELECT ${columns}, s.ln, f.id FROM ${staging} s LEFT JOIN ${firsts} f ON f.ln = s.ln`;
  if (!erased) return select;
  return `${select} WHERE NOT EXISTS (SELECT 1 FROM ${erased.table} e
    WHERE e.email = lower(btrim(${erased.emailColumn}) COLLATE "C"))`;
}

/** Gives the records and first rows of addresses another import added meanwhile that address's id. */
export async function adoptRacedAddresses(tx: DbOrTx, into: string, firsts: string): Promise<void> {
  await tx.execute(sql`
        UPDATE ${sql.identifier(into)} r SET address_id = a.id FROM ${sql.raw(firsts)} f JOIN addresses a ON a.email = f.email
        WHERE f.new AND r.address_id = f.id AND a.id <> f.id`);
  await tx.execute(sql`
        UPDATE ${sql.raw(firsts)} f SET id = a.id FROM addresses a WHERE f.new AND a.email = f.email AND a.id <> f.id`);
}

/** Analyzes the side table and creates and analyzes `k`: the first line of each of its e-mails. */
export async function createSideFirstRows(tx: DbOrTx, side: string): Promise<void> {
  await tx.execute(sql`ANALYZE ${sql.raw(side)}`);
  await tx.execute(sql`
        CREATE TEMP TABLE k ON COMMIT DROP AS
        SELECT min(ln) AS ln, email, NULL::bigint AS key FROM ${sql.raw(side)} GROUP BY email`);
  await tx.execute(sql`ANALYZE k`);
}

/** Creates `ka`: each side first line of `k` with its address id. */
export async function createSideAddressKeys(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
        CREATE TEMP TABLE ka ON COMMIT DROP AS SELECT k.ln, a.id AS key FROM k JOIN addresses a ON a.email = k.email`);
}

/**
 * Deletes the records written for a first row that a side row comes before (e.g. ' A@x.nl\t'
 * before 'a@x.nl'): that side row is the address's first row. Returns how many.
 */
export async function deleteReplacedRecords(tx: DbOrTx, into: string, firsts: string): Promise<number> {
  const replaced = await tx.execute(sql`
        DELETE FROM ${sql.identifier(into)} r USING ka JOIN ${sql.raw(firsts)} f ON f.id = ka.key
        WHERE r.address_id = ka.key AND ka.ln < f.ln`);
  return Number(replaced.rowCount ?? 0);
}

/**
 * Inserts the records of the side first lines that no earlier first row of their address
 * precedes, by address id; returns how many.
 */
export async function insertSideRecords(
  tx: DbOrTx,
  t: { into: string; datasetId: string; columns: string; side: string; staging: string; firsts: string },
): Promise<number> {
  const inserted = await tx.execute(sql`
        INSERT INTO ${sql.identifier(t.into)} (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
        SELECT ${t.datasetId}, ka.key, ${sql.raw(`ARRAY[${t.columns}]::text[]`)}, w.attrs, w.hash, w.raw_hash
        FROM ka JOIN ${sql.raw(t.side)} w ON w.ln = ka.ln JOIN ${sql.raw(t.staging)} s ON s.ln = ka.ln
        WHERE NOT EXISTS (SELECT 1 FROM ${sql.raw(t.firsts)} f WHERE f.id = ka.key AND f.ln < ka.ln)
        ORDER BY ka.key`);
  return Number(inserted.rowCount ?? 0);
}

/**
 * The SELECT of the side lines not written (a repeat of an earlier row; with `erased`, not those of
 * an erased e-mail of ke) and of the first rows whose records they replaced (for listRepeatedRows).
 */
export function sideRepeatsSelect(side: string, firsts: string, erased: boolean): string {
  return `SELECT w.ln FROM ${side} w WHERE NOT EXISTS (
             SELECT 1 FROM ka WHERE ka.ln = w.ln
               AND NOT EXISTS (SELECT 1 FROM ${firsts} f WHERE f.id = ka.key AND f.ln < ka.ln))
             ${erased ? 'AND NOT EXISTS (SELECT 1 FROM ke WHERE ke.email = w.email)' : ''}
           UNION ALL SELECT f.ln FROM ka JOIN ${firsts} f ON f.id = ka.key WHERE ka.ln < f.ln`;
}

/** Drops a first import's side, firsts, erased and staging tables once its records are written. */
export async function dropFirstImportTables(
  tx: DbOrTx,
  t: { side: string; firsts: string; erased: string; staging: string },
): Promise<void> {
  await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(t.side)}, ${sql.raw(t.firsts)}, ${sql.raw(t.erased)}`);
  await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(t.staging)}`);
}

/** The address and dataset of every record of the new table, for markSelDirtyRecords. */
export function newTableRecordKeys(into: string): SQL {
  return sql`SELECT address_id, dataset_id FROM ${sql.identifier(into)}`;
}
