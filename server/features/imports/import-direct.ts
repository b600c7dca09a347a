import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { MappingEntry } from '../../../common/mappings';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { TaskContext } from '../../tasks/worker';
import { copyPass } from './copy-pass';
import { estimatedAddressCount, insertNewAddresses, setRecordCount } from './import.queries';
import type { ImportPayload, ImportResult } from './import.service';
import { markMappingApplied, saveDatasetHeaders, saveRawColumns } from './mapping.queries';
import { attachPartition, createDetachedPartition, dropDetachedPartition } from './records.queries';
import { storedRawColumns } from './row-mappers';

/**
 * Whether a first import can take the direct path: its mapping stores no column encrypted (the
 * raw ciphertext comes from the work table) and excludes no row (a row a filter drops would leave
 * its address's later rows unconsidered).
 */
export function directPassFits(mappings: MappingEntry[]): boolean {
  return !mappings.some((m) => m.type === 'column' && (m.encrypted || m.exclude !== ''));
}

/**
 * SQL that takes a staged e-mail for valid only where normalizeEmail (record-mapper.ts) takes it
 * for valid and gives lower(btrim()) of it: printable ASCII without spaces inside, in the
 * e-mail pattern (which, within those characters, is EMAIL_RE), at most 254 characters.
 */
export function sqlValidEmail(column: string): string {
  const e = `btrim(${column})`;
  return `(${e} ~ '^[!-?A-~]+@[!-?A-~]+\\.[!-?A-~]+$' AND length(${e}) <= 254)`;
}

/**
 * A dataset's first import the direct way (docs/decisions.md), inside the import's transaction
 * `tx` on `client`, the dataset row locked, its table absent:
 * 1. the first row of each e-mail SQL can take for valid (sqlValidEmail), with its address:
 *    new addresses inserted in file order, so that ids follow the records' order;
 * 2. one pass reads the staged rows on `client` with those addresses, maps them in Node and
 *    writes the first rows as records straight into the dataset's new table (created, filled
 *    and committed on a connection of its own, unattached: no other reader sees it); rows whose
 *    e-mail only Node takes for valid (spaces other than ' ', non-ASCII) go by another
 *    connection into a side table;
 * 3. the side rows take the usual path (their own first rows, addresses); one that comes earlier
 *    in the file than the record of the same address replaces it;
 * 4. the table gets its key and is attached, last.
 * A failure rolls back the transaction (no address, no count) and drops the unattached table;
 * one a killed process leaves is dropped by the next import or the worker's sweep.
 */
export async function importDirect(
  ctx: AppContext,
  tctx: TaskContext,
  tx: Db,
  client: pg.PoolClient,
  p: ImportPayload,
  mappings: MappingEntry[],
  lap: () => number,
): Promise<ImportResult> {
  const pool = ctx.database.pool;
  const staging = p.staging;
  const emailColumn = `s.c${p.emailIndex + 1}`;
  const valid = sqlValidEmail(emailColumn);

  // 1. The first rows and their addresses. Against a much larger addresses table they are looked
  // up one by one in e-mail order (as runImport does); otherwise hashed, and new ones inserted in
  // file order.
  const firsts = await tx.execute(
    sql.raw(`CREATE TEMP TABLE k ON COMMIT DROP AS
      SELECT min(s.ln) AS ln, lower(btrim(${emailColumn}) COLLATE "C") AS email, NULL::bigint AS key
      FROM ${staging} s WHERE ${valid} GROUP BY 2`),
  );
  await tx.execute(sql`ANALYZE k`);
  const lookups = (await estimatedAddressCount(tx)) > 4 * Number(firsts.rowCount ?? 0);
  if (lookups) {
    await tx.execute(sql`SET LOCAL enable_hashjoin = off`);
    await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
  }
  await insertNewAddresses(tx, lookups ? 'email' : 'ln');
  await tx.execute(sql`
    CREATE TEMP TABLE firsts ON COMMIT DROP AS SELECT k.ln, a.id, a.email FROM k JOIN addresses a ON a.email = k.email`);
  if (lookups) {
    await tx.execute(sql`SET LOCAL enable_hashjoin = on`);
    await tx.execute(sql`SET LOCAL enable_mergejoin = on`);
  }
  await tx.execute(sql`ANALYZE firsts`);
  await tx.execute(sql`DROP TABLE k`);
  await tctx.progress(15);
  tctx.log.debug({ ms: lap() }, 'import: first rows and their addresses');

  const side = `${staging}_side`;
  let created = false;
  try {
    // 2. The pass.
    const writer = await pool.connect();
    const sider = await pool.connect();
    let table: string;
    let counts: { written: number; side: number };
    try {
      table = await createDetachedPartition(writer, p.datasetId);
      created = true;
      await sider.query(`CREATE UNLOGGED TABLE ${side}
        (ln bigint, email text COLLATE "C", attrs jsonb, hash text, patch jsonb, raw_hash text, stored text, key bigint)`);
      const columns = p.headers.map((_, i) => `s.c${i + 1}`).join(', ');
      counts = await copyPass({
        pool,
        client: writer,
        reader: client,
        select: `SELECT ${columns}, s.ln, ARRAY[${columns}]::text[], f.id, f.email, ${valid}
          FROM ${staging} s LEFT JOIN firsts f ON f.ln = s.ln`,
        target: `"${table}" (dataset_id, address_id, raw, attrs, row_hash, raw_hash)`,
        side: { client: sider, target: side },
        spec: {
          kind: 'direct',
          headers: p.headers,
          emailIndex: p.emailIndex,
          mappings,
          datasetId: p.datasetId,
        },
        keys: ctx.columnKeys(),
        rows: p.rows,
        threads: ctx.config.importThreads,
        onRows: (n) => void tctx.progress(15 + Math.floor((70 * n) / Math.max(1, p.rows))).catch(() => {}),
      });
    } catch (err) {
      writer.release(true);
      sider.release(true);
      throw err;
    }
    writer.release();
    sider.release();
    tctx.log.debug({ ms: lap(), records: counts.written, side: counts.side }, 'import: mapped and written');

    // 3. The side rows.
    let kept = counts.written;
    if (counts.side > 0) {
      const into = sql.identifier(table);
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
        DELETE FROM ${into} r USING ka JOIN firsts f ON f.id = ka.key
        WHERE r.address_id = ka.key AND ka.ln < f.ln`);
      const items = p.headers.map((_, i) => `s.c${i + 1}`).join(', ');
      const inserted = await tx.execute(sql`
        INSERT INTO ${into} (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
        SELECT ${p.datasetId}, ka.key, ${sql.raw(`ARRAY[${items}]::text[]`)}, w.attrs, w.hash, w.raw_hash
        FROM ka JOIN ${sideTable} w ON w.ln = ka.ln JOIN ${sql.raw(staging)} s ON s.ln = ka.ln
        WHERE NOT EXISTS (SELECT 1 FROM firsts f WHERE f.id = ka.key AND f.ln < ka.ln)
        ORDER BY ka.key`);
      kept += Number(inserted.rowCount ?? 0) - Number(replaced.rowCount ?? 0);
      tctx.log.debug({ ms: lap() }, 'import: side rows');
    }
    await tctx.progress(90);

    // 4. Counts, headers, the table attached.
    await saveRawColumns(tx, p.datasetId, storedRawColumns(p.headers, mappings));
    await setRecordCount(tx, p.datasetId, kept);
    await saveDatasetHeaders(tx, p.datasetId, p.headers);
    await markMappingApplied(tx, p.datasetId);
    await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(side)}`);
    await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(staging)}`);
    await attachPartition(tx, p.datasetId);
    tctx.log.debug({ ms: lap() }, 'import: keyed and attached');
    await tctx.progress(99);
    return { read: p.rows, saved: kept, skipped: p.rows - kept, deleted: 0, unchanged: 0 };
  } catch (err) {
    // The transaction rolls back; the unattached table is dropped while the dataset is still
    // locked (if the transaction holds a lock on it, the next import or the sweep drops it).
    if (created) await dropDetachedPartition(pool, p.datasetId).catch(() => false);
    throw err;
  }
}
