import { sql } from 'drizzle-orm';
import type { MappingEntry } from '../../../common/mappings';
import type { AppContext } from '../../context';
import { type Db, withClientTransaction } from '../../db/client';
import { isAddressRace } from '../../lib/pg-errors';
import type { TaskContext } from '../../tasks/worker';
import { copyPass, type PassCounts } from '../records/copy-pass';
import { compileSqlEmailCheck } from '../records/record-mapper';
import { attachPartition, createDetachedPartition, dropDetachedPartition } from '../records/records.queries';
import { type hashOrder, IMPORT_WORK_COLUMNS, storedRawColumns } from '../records/row-mappers';
import { markSelDirtyRecords } from '../selections/sel-record.sql';
import {
  estimatedAddressCount,
  insertNewAddresses,
  reserveAddressIds,
  setRecordCount,
} from './import.queries';
import type { ImportPayload, ImportResult } from './import-task';
import { markMappingApplied, saveDatasetHeaders, saveRawColumns } from './mapping.queries';
import { listRepeatedRows, saveSkippedRows } from './skipped-rows';

type FileOrder = ReturnType<typeof hashOrder>;

/**
 * Whether a first import can take the direct path: its mapping stores no column encrypted (the
 * raw ciphertext comes from the work table) and excludes no row (a row a filter drops would leave
 * its address's later rows unconsidered).
 */
export function canImportDirectly(mappings: MappingEntry[]): boolean {
  return !mappings.some((m) => m.type === 'column' && (m.encrypted || m.exclude !== ''));
}

/** The tables of an import besides its staging table, named after it (dropped with it). */
export function getFirstImportTables(staging: string): { firsts: string; side: string } {
  return { firsts: `${staging}_firsts`, side: `${staging}_side` };
}

/**
 * A dataset's first import the direct way (docs/decisions.md, A first import's direct path), inside
 * the import's transaction `tx` on `client`, the dataset row locked, its table absent:
 * 1. a table of the first row of each e-mail SQL can take for valid (compileSqlEmailCheck) with its
 *    address id: the existing address's, or for a new address the id reserved for its line
 *    (reserveAddressIds: base + ln), so that ids follow the records' order;
 * 2. while the transaction inserts those new addresses with their ids, one pass reads the staged
 *    rows with their first-row ids, maps them in Node and writes the first rows as records straight
 *    into the dataset's new table (created, filled and committed on a connection of its own,
 *    unattached: no reader sees it); rows whose e-mail only Node takes for valid (white space
 *    other than ' ', non-ASCII) go by another connection into a side table;
 * 3. should another import have added one of the new addresses meanwhile, its records and first
 *    rows take that address's id;
 * 4. the side rows take the usual path (their own first rows, addresses); one that comes earlier
 *    in the file than the record of the same address replaces it;
 * 5. its records are marked for sel_record (markSelDirtyRecords); the table gets its key and is
 *    attached, last.
 * A failure rolls back the transaction (no address, no count) and drops the unattached table;
 * one a killed process leaves is dropped by the next import or the worker's sweep. The skipped
 * rows (the pass's, and the side's repeats) are stored for task `taskId` (issue 15 §4).
 */
export async function runFirstImport(
  ctx: AppContext,
  tctx: TaskContext,
  tx: Db,
  p: ImportPayload,
  order: FileOrder,
  mappings: MappingEntry[],
  lap: () => number,
  taskId: string,
): Promise<ImportResult> {
  const pool = ctx.database.pool;
  const staging = p.staging;
  const { firsts, side } = getFirstImportTables(staging);
  const emailColumn = `s.c${p.emailIndex + 1}`;
  const valid = compileSqlEmailCheck(emailColumn);
  // The staged columns in the order of the records' raw (the file's columns sorted by name, hashOrder).
  const columns = order.columns.join(', ');

  // 1. The first rows and their address ids, committed so that the pass's reader sees them.
  // Against a much larger addresses table the e-mails are looked up one by one in e-mail order
  // (as runImport does); otherwise hashed. A new address takes the id reserved for its line.
  const lookups = (await estimatedAddressCount(tx)) > 4 * p.rows;
  const base = await reserveAddressIds(ctx.database, p.rows);
  await withClientTransaction(ctx.database, async (_firstsTx, c) => {
    await c.query(`SET LOCAL work_mem = '256MB'`);
    if (lookups) await c.query('SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off');
    await c.query(`CREATE UNLOGGED TABLE ${firsts} AS
      SELECT g.ln, g.email, coalesce(a.id, ${base} + g.ln) AS id, a.id IS NULL AS new FROM (
        SELECT min(s.ln) AS ln, lower(btrim(${emailColumn}) COLLATE "C") AS email
        FROM ${staging} s WHERE ${valid} GROUP BY 2 ${lookups ? 'ORDER BY 2' : ''}
      ) g LEFT JOIN addresses a ON a.email = g.email`);
    await c.query(`ANALYZE ${firsts}`);
  });
  await tctx.progress(10);
  tctx.log.debug({ ms: lap() }, 'import: first rows and their address ids');

  // 2. The new addresses go in while the pass runs (on the transaction's connection).
  const inserting = insertFirstAddresses(tx, firsts);
  inserting.catch(() => {});
  let created = false;
  try {
    const writer = await pool.connect();
    const sider = await pool.connect();
    let table: string;
    let counts: PassCounts;
    try {
      // The table is created, filled (frozen) and committed in one transaction of the writer's:
      // should the pass fail or the process die, it never existed.
      await writer.query('BEGIN');
      table = await createDetachedPartition(writer, p.datasetId);
      created = true;
      await sider.query(`CREATE UNLOGGED TABLE ${side} (${IMPORT_WORK_COLUMNS})`);
      counts = await copyPass({
        pool,
        client: writer,
        select: `SELECT ${columns}, s.ln, f.id FROM ${staging} s LEFT JOIN ${firsts} f ON f.ln = s.ln`,
        target: `"${table}" (dataset_id, address_id, raw, attrs, row_hash, raw_hash)`,
        freeze: true,
        side: { client: sider, target: side },
        spec: {
          kind: 'direct',
          headers: order.headers,
          emailIndex: order.emailIndex,
          mappings,
          datasetId: p.datasetId,
        },
        keys: ctx.columnKeys(),
        rows: p.rows,
        threads: ctx.config.importThreads,
        onRows: (n) => tctx.count(n, p.rows, { span: [10, 85] }),
      });
      await writer.query('COMMIT');
    } catch (err) {
      writer.release(true);
      sider.release(true);
      throw err;
    }
    writer.release();
    sider.release();
    const into = sql.identifier(table);
    const firstsTable = sql.raw(firsts);
    tctx.log.debug({ ms: lap(), records: counts.written, side: counts.side }, 'import: mapped and written');
    // 3. Addresses another import added meanwhile.
    if (await inserting) {
      await tx.execute(sql`
        UPDATE ${into} r SET address_id = a.id FROM ${firstsTable} f JOIN addresses a ON a.email = f.email
        WHERE f.new AND r.address_id = f.id AND a.id <> f.id`);
      await tx.execute(sql`
        UPDATE ${firstsTable} f SET id = a.id FROM addresses a WHERE f.new AND a.email = f.email AND a.id <> f.id`);
    }
    tctx.log.debug({ ms: lap() }, 'import: new addresses');

    // 4. The side rows.
    let kept = counts.written;
    if (counts.side > 0) {
      const sideTable = sql.raw(side);
      await tx.execute(sql`ANALYZE ${sideTable}`);
      await tx.execute(sql`
        CREATE TEMP TABLE k ON COMMIT DROP AS
        SELECT min(ln) AS ln, email, NULL::bigint AS key FROM ${sideTable} GROUP BY email`);
      await tx.execute(sql`ANALYZE k`);
      await insertNewAddresses(tx);
      await tx.execute(sql`
        CREATE TEMP TABLE ka ON COMMIT DROP AS SELECT k.ln, a.id AS key FROM k JOIN addresses a ON a.email = k.email`);
      // A side row before the first row SQL found for its address (e.g. ' A@x.nl\t' before
      // 'a@x.nl') is the address's first row: its record replaces the one written.
      const replaced = await tx.execute(sql`
        DELETE FROM ${into} r USING ka JOIN ${firstsTable} f ON f.id = ka.key
        WHERE r.address_id = ka.key AND ka.ln < f.ln`);
      const inserted = await tx.execute(sql`
        INSERT INTO ${into} (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
        SELECT ${p.datasetId}, ka.key, ${sql.raw(`ARRAY[${columns}]::text[]`)}, w.attrs, w.hash, w.raw_hash
        FROM ka JOIN ${sideTable} w ON w.ln = ka.ln JOIN ${sql.raw(staging)} s ON s.ln = ka.ln
        WHERE NOT EXISTS (SELECT 1 FROM ${firstsTable} f WHERE f.id = ka.key AND f.ln < ka.ln)
        ORDER BY ka.key`);
      kept += Number(inserted.rowCount ?? 0) - Number(replaced.rowCount ?? 0);
      // The side rows not written (a repeat of an earlier row) and the records they replaced.
      counts.skipped.keep(
        await listRepeatedRows(
          tx,
          staging,
          `c${p.emailIndex + 1}`,
          `SELECT w.ln FROM ${side} w WHERE NOT EXISTS (
             SELECT 1 FROM ka WHERE ka.ln = w.ln
               AND NOT EXISTS (SELECT 1 FROM ${firsts} f WHERE f.id = ka.key AND f.ln < ka.ln))
           UNION ALL SELECT f.ln FROM ka JOIN ${firsts} f ON f.id = ka.key WHERE ka.ln < f.ln`,
        ),
      );
      tctx.log.debug({ ms: lap() }, 'import: side rows');
    }
    await tctx.progress(90);

    // 5. Counts, headers, the table attached.
    await saveRawColumns(tx, p.datasetId, storedRawColumns(order.headers, mappings));
    await setRecordCount(tx, p.datasetId, kept);
    await saveDatasetHeaders(tx, p.datasetId, p.headers);
    await markMappingApplied(tx, p.datasetId);
    await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(side)}, ${firstsTable}`);
    await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(staging)}`);
    // Every record of the new table gets its sel_record row (one scan of the table just written).
    await markSelDirtyRecords(tx, sql`SELECT address_id, dataset_id FROM ${into}`);
    await attachPartition(tx, p.datasetId);
    tctx.log.debug({ ms: lap() }, 'import: keyed and attached');
    const skippedBy = await saveSkippedRows(tx, taskId, p.rows - kept, counts.skipped);
    await tctx.progress(99);
    return { read: p.rows, saved: kept, skipped: p.rows - kept, deleted: 0, unchanged: 0, skippedBy };
  } catch (err) {
    // The transaction rolls back; the unattached table is dropped while the dataset is still
    // locked (if the transaction holds a lock on it, the next import or the sweep drops it).
    if (created) await dropDetachedPartition(pool, p.datasetId).catch(() => false);
    throw err;
  }
}

/**
 * Inserts the new addresses of a first import's firsts table with their ids, inside a savepoint, in
 * e-mail order like every insert of addresses (so two imports never wait for each other's rows in
 * opposite orders): should another import have added one of them meanwhile (or a deadlock chose
 * this insert), they go in again with ON CONFLICT DO NOTHING, and the answer is true (that
 * address then has the other import's id).
 */
async function insertFirstAddresses(tx: Db, firsts: string): Promise<boolean> {
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
