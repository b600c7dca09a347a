import { sql } from 'drizzle-orm';
import { ImportMessages } from '../../../common/imports';
import type { AppContext } from '../../context';
import { withClientTransaction } from '../../db/client';
import { type TaskContext, TaskError } from '../../tasks/worker';
import { copyPass } from '../records/copy-pass';
import {
  attachPartition,
  createDetachedPartition,
  datasetHasRecords,
  dropDetachedPartition,
  partitionState,
  recordsPartition,
} from '../records/records.queries';
import {
  appendRawColumns,
  encryptedFields,
  hashOrder,
  IMPORT_WORK_COLUMNS,
  storedRawColumns,
} from '../records/row-mappers';
import { markingSelDirty } from '../selections/sel-dirty.sql';
import { markSelDirtyRecords } from '../selections/sel-record.sql';
import type { TaskRow } from '../tasks/task.queries';
import { dropStaging } from '../uploads/csv-staging';
import { canImportDirectly, getFirstImportTables, runFirstImport } from './first-import.service';
import {
  estimatedAddressCount,
  getRecordCount,
  insertNewAddresses,
  lockDatasetForImport,
  refreshRecordCount,
  setRecordCount,
} from './import.queries';
import { type ImportPayload, type ImportResult, workTable } from './import-task';
import {
  getDatasetMapping,
  isMappingApplied,
  markMappingApplied,
  saveDatasetHeaders,
  saveRawColumns,
} from './mapping.queries';
import { listRepeatedRows, saveSkippedRows } from './skipped-rows';

/** Milliseconds since the previous call (the first call counts from creation). */
function stopwatch(): () => number {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const ms = Math.round(now - last);
    last = now;
    return ms;
  };
}

/**
 * The import task (DESIGN §4), in ONE transaction:
 * 1. the staged file streams out of PostgreSQL (on a re-import joined with the dataset's stored
 *    records), through the dataset's mapping in Node (RecordMapper) and back into an unlogged work
 *    table: e-mail (null when invalid or excluded), attrs, the ciphertext patch of encrypted
 *    columns, the raw hash, the row hash, and the stored record's row hash and address id;
 * 2. set-based SQL de-duplicates on e-mail (the first row wins), inserts new addresses, inserts new
 *    records (raw taken from the staged row; a first import into the dataset's own new partition),
 *    updates records whose hash differs and deletes records absent from the file.
 * Unchanged rows cost no write. A failure or a killed process rolls everything back; the staging
 * table is dropped in every case.
 */
export async function runImport(ctx: AppContext, task: TaskRow, tctx: TaskContext): Promise<ImportResult> {
  const p = task.payload as ImportPayload;
  try {
    return await withClientTransaction(ctx.database, async (tx, client) => {
      await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
      if (!(await lockDatasetForImport(tx, p.datasetId))) throw new TaskError(ImportMessages.datasetGone);
      // The file's rows are counted from the start: the mapping pass below moves the count.
      await tctx.count(0, p.rows, { span: [5, 50], state: 'saving' });
      const lap = stopwatch();
      const { mappings, rawColumns: storedColumns } = await getDatasetMapping(tx, p.datasetId);
      const keys = ctx.columnKeys();
      // Records built with the current mapping: a row whose raw columns are unchanged keeps its
      // row hash without being mapped again. The rows then come with their record's hashes, found
      // by the e-mail as SQL normalises it (a row it does not find is simply mapped).
      // A dataset without records (its first import) needs no comparison with stored records, no
      // deletion of absent ones and no recount: each costs seconds at a million rows.
      const hadRecords = await datasetHasRecords(tx, p.datasetId);
      // The dataset's records table (a partition of records) is made by its first import: filled
      // first, indexed and attached at the end. One a dead first import left unattached goes first.
      const partition = hadRecords ? 'attached' : await partitionState(tx, p.datasetId);
      if (partition === 'detached' && !(await dropDetachedPartition(ctx.database.pool, p.datasetId)))
        throw new Error('the records table a failed import left is still in use');
      const fresh = partition !== 'attached';
      // A first import mostly writes its records straight from the mapping pass (first-import.service.ts).
      // The file's columns by name: rows are mapped and raw-hashed in this order, whatever the file's.
      const order = hashOrder(p.headers, p.emailIndex);
      const rawColumns = appendRawColumns(storedColumns, storedRawColumns(order.headers, mappings));
      const rawIsFile =
        rawColumns.length === order.headers.length && rawColumns.every((c, i) => c === order.headers[i]);
      if (fresh && rawIsFile && canImportDirectly(mappings))
        return await runFirstImport(ctx, tctx, tx, p, order, mappings, lap, task.id);
      const known = hadRecords && (await isMappingApplied(tx, p.datasetId));
      const spec = {
        kind: 'import' as const,
        headers: order.headers,
        emailIndex: order.emailIndex,
        mappings,
        stored: hadRecords,
        known,
      };
      const work = workTable(task.id);
      await tx.execute(sql.raw(`CREATE UNLOGGED TABLE ${work} (${IMPORT_WORK_COLUMNS})`));
      const columns = order.columns.join(', ');
      // A re-import's rows come with their record's hashes and address id, from a temporary table
      // of the reading connection: the dataset's records with their e-mail. Among many more
      // addresses (over 4× the dataset's records) they are found by index lookups in id order,
      // never by hashing the whole addresses table (seconds at 20 million addresses); otherwise
      // by one hash join (10 million records: 16 s instead of 50 s of lookups), whatever the
      // planner guesses of a dataset table not analyzed yet. The reader's work_mem is the
      // import's: the file's join with those records hashes millions of e-mails. Rows that bring
      // an address id need no address lookup later.
      const current = `cur_${task.id.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
      const dataset = client.escapeLiteral(p.datasetId);
      // Neither changes before the records are written (the dataset row is locked; new addresses
      // go in after the pass).
      const addressCount = await estimatedAddressCount(tx);
      const recordsBefore = hadRecords ? await getRecordCount(tx, p.datasetId) : 0;
      const lookupRecords = hadRecords && addressCount > 4 * recordsBefore;
      const prepare = hadRecords
        ? [
            `SET work_mem = '256MB'`,
            ...(lookupRecords
              ? ['SET enable_hashjoin = off', 'SET enable_mergejoin = off']
              : ['SET enable_nestloop = off', 'SET enable_mergejoin = off']),
            `CREATE TEMP TABLE ${current} AS SELECT a.email, r.raw_hash, r.row_hash, r.address_id
             FROM records r JOIN addresses a ON a.id = r.address_id WHERE r.dataset_id = ${dataset}`,
            'RESET enable_hashjoin',
            'RESET enable_mergejoin',
            'RESET enable_nestloop',
            `ANALYZE ${current}`,
          ]
        : [];
      const select = hadRecords
        ? `SELECT ${columns}, s.ln, c.raw_hash, c.row_hash, c.address_id, c.email FROM ${p.staging} s
           LEFT JOIN ${current} c ON c.email = lower(btrim(s.c${p.emailIndex + 1})) COLLATE "C"`
        : `SELECT ${columns}, s.ln FROM ${p.staging} s`;
      const pass = await copyPass({
        pool: ctx.database.pool,
        client,
        prepare,
        cleanup: hadRecords ? [`DROP TABLE IF EXISTS ${current}`, 'RESET work_mem'] : [],
        select,
        target: work,
        spec,
        keys,
        rows: p.rows,
        threads: ctx.config.importThreads,
        onRows: (n) => tctx.count(n, p.rows, { span: [5, 50] }),
      });
      tctx.log.debug({ ms: lap() }, 'import: mapped');

      // One row per valid, not excluded address: the first occurrence in the file wins. When the
      // addresses table is much larger than the file, its addresses are looked up in the e-mail
      // index one by one, in index order (k sorted by e-mail when most rows need it), instead of
      // hashing the whole table: at 20 million addresses the two statements below took 18 s and
      // 12 s for a million-row file by hash, 5.3 s and 1.6 s by lookups (docs/decisions.md,
      // Address lookups at scale). On a small table the planner's hash joins are faster, so they stay.
      await tx.execute(sql`ANALYZE ${sql.raw(work)}`);
      // valid: the file's valid rows; lookup: those whose address must be looked up (not brought
      // by their record). Sorting k pays for many lookups only: a re-import's rows mostly bring
      // their address id, and sorting them all took 2 s a million for nothing.
      const counts = await tx.execute<{ valid: number; lookup: number }>(sql`
        SELECT count(*)::int AS valid, count(*) FILTER (WHERE key IS NULL)::int AS lookup
        FROM ${sql.raw(work)} WHERE email IS NOT NULL`);
      const valid = Number(counts.rows[0].valid);
      const lookup = Number(counts.rows[0].lookup);
      const lookups = addressCount > 4 * lookup;
      const sorted = lookups && lookup * 2 > valid;
      // n: the rows of each e-mail, so that the repeats (issue 15 §4) are found among few e-mails.
      const dedup = await tx.execute(sql`
        CREATE TEMP TABLE k ON COMMIT DROP AS
        SELECT min(ln) AS ln, email, min(key) AS key, count(*) AS n FROM ${sql.raw(work)} WHERE email IS NOT NULL GROUP BY email
        ${sorted ? sql`ORDER BY email` : sql``}`);
      await tx.execute(sql`ANALYZE k`);
      const kept = Number(dedup.rowCount ?? 0); // rows of k
      if (valid > kept)
        pass.skipped.keep(
          await listRepeatedRows(
            tx,
            p.staging,
            `c${p.emailIndex + 1}`,
            `SELECT w.ln FROM ${work} w JOIN k ON k.email = w.email WHERE k.n > 1 AND w.ln > k.ln`,
          ),
        );
      await tctx.progress(55);
      tctx.log.debug({ ms: lap() }, 'import: dedup');

      if (lookups) {
        await tx.execute(sql`SET LOCAL enable_hashjoin = off`);
        await tx.execute(sql`SET LOCAL enable_mergejoin = off`);
      }
      await insertNewAddresses(tx);
      await tctx.progress(65);
      tctx.log.debug({ ms: lap() }, 'import: addresses');
      await tx.execute(sql`
        CREATE TEMP TABLE ka ON COMMIT DROP AS
        SELECT k.ln, k.key FROM k WHERE k.key IS NOT NULL
        UNION ALL
        SELECT k.ln, a.id FROM k JOIN addresses a ON a.email = k.email WHERE k.key IS NULL`);
      if (lookups) {
        await tx.execute(sql`SET LOCAL enable_hashjoin = on`);
        await tx.execute(sql`SET LOCAL enable_mergejoin = on`);
      }
      await tx.execute(sql`ANALYZE ka`);

      // The kept rows to write (kk), with their address id and whether the dataset holds a record
      // for it (UPDATE) or not (INSERT); unchanged rows are left out. The mapping pass brought the
      // stored row hash of most rows of a re-import (w.stored); only the others are looked up in
      // the dataset's records (reading all of them took 4 s a million, and writing every kept row
      // into kk 1.5 s). In a dataset without records every kept row is new: ka serves as it is.
      if (hadRecords) {
        await tx.execute(sql`
        CREATE TEMP TABLE kk ON COMMIT DROP AS
        SELECT ka.ln, ka.key, true AS existing
        FROM ka JOIN ${sql.raw(work)} w ON w.ln = ka.ln WHERE w.stored <> w.hash
        UNION ALL
        SELECT ka.ln, ka.key, r.address_id IS NOT NULL AS existing
        FROM ka JOIN ${sql.raw(work)} w ON w.ln = ka.ln
        LEFT JOIN records r ON r.dataset_id = ${p.datasetId} AND r.address_id = ka.key
        WHERE w.stored IS NULL AND r.row_hash IS DISTINCT FROM w.hash`);
        await tx.execute(sql`ANALYZE kk`);
      } else {
        await tx.execute(sql`ALTER TABLE ka RENAME TO kk`);
      }
      tctx.log.debug({ ms: lap() }, 'import: keys');

      // The dataset row is locked, so no other writer adds records to it: new records are a
      // plain INSERT (cheaper than ON CONFLICT), changed ones an UPDATE, identical ones untouched.
      // New records go in by address id: an indexed partition's primary key then grows at its right
      // edge (12 s instead of 17 s for a million records with the former two indexes, sort
      // included). A first import's partition has no index yet, but sorted records also let a
      // re-import read its records with their e-mails 1.2 s faster than unsorted for a million,
      // which is more than the 1.1-1.5 s the sort costs here.
      const stg = sql.raw(p.staging);
      // raw: the file's values at the dataset's raw positions (an encrypted column's ciphertext and
      // blind index from the row's patch); columns of earlier files this one lacks are NULL.
      await saveRawColumns(tx, p.datasetId, rawColumns);
      const encrypted = encryptedFields(mappings);
      const written = new Set(storedRawColumns(p.headers, mappings));
      const items = rawColumns.map((c) => {
        const i = p.headers.indexOf(c);
        if (i >= 0 && !encrypted.has(c)) return `s.c${i + 1}`;
        if (written.has(c)) return `w.patch ->> ${client.escapeLiteral(c)}`;
        return 'NULL';
      });
      while (items.length > 0 && items[items.length - 1] === 'NULL') items.pop();
      const raw = sql.raw(`ARRAY[${items.join(', ')}]::text[]`);
      const upd = hadRecords
        ? await tx.execute(sql`
        UPDATE records r SET raw = ${raw}, attrs = w.attrs, row_hash = w.hash, raw_hash = w.raw_hash, updated_at = now()
        FROM kk JOIN ${sql.raw(work)} w ON w.ln = kk.ln JOIN ${stg} s ON s.ln = kk.ln
        WHERE kk.existing
          AND r.dataset_id = ${p.datasetId} AND r.address_id = kk.key`)
        : { rowCount: 0 };
      await tctx.progress(75);
      tctx.log.debug({ ms: lap() }, 'import: changed records updated');
      const into = sql.identifier(
        fresh ? await createDetachedPartition(client, p.datasetId) : recordsPartition(p.datasetId),
      );
      const ins = await tx.execute(sql`
        INSERT INTO ${into} (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
        SELECT ${p.datasetId}, kk.key, ${raw}, w.attrs, w.hash, w.raw_hash
        FROM kk JOIN ${sql.raw(work)} w ON w.ln = kk.ln JOIN ${stg} s ON s.ln = kk.ln
        ${hadRecords ? sql`WHERE NOT kk.existing` : sql``} ORDER BY kk.key`);
      const inserted = ins.rowCount ?? 0;
      const updated = upd.rowCount ?? 0;
      // The records inserted and replaced (kk: only those written) are marked for sel_record; the
      // deleted ones by the delete.
      if (Number(inserted) + Number(updated) > 0)
        await markSelDirtyRecords(tx, sql`SELECT key, ${p.datasetId}::text FROM kk`);
      await tctx.progress(90);
      tctx.log.debug({ ms: lap() }, 'import: new records inserted');

      // Every writer of records holds the dataset row locked and keeps its record_count, so when
      // the kept rows that found a record are as many as the dataset held, none is absent: the
      // scan of all its records for absent ones (1-2 s a million) is skipped.
      let deleted = 0;
      if (hadRecords && p.deleteOld !== false && kept - Number(inserted) !== recordsBefore) {
        const del = await tx.execute(
          markingSelDirty(sql`
          DELETE FROM records r WHERE r.dataset_id = ${p.datasetId}
            AND NOT EXISTS (SELECT 1 FROM ka WHERE ka.key = r.address_id) RETURNING r.address_id, r.dataset_id`),
        );
        deleted = del.rowCount ?? 0;
      }
      // The dataset now holds exactly the kept rows when absent records were deleted (or it had
      // none): no count over its records is needed.
      if (!hadRecords) await setRecordCount(tx, p.datasetId, Number(inserted));
      else if (p.deleteOld !== false) await setRecordCount(tx, p.datasetId, kept);
      else await refreshRecordCount(tx, p.datasetId);
      await saveDatasetHeaders(tx, p.datasetId, p.headers);
      await markMappingApplied(tx, p.datasetId);
      await tx.execute(sql`DROP TABLE ${sql.raw(work)}`);
      await tx.execute(sql`DROP TABLE IF EXISTS ${stg}`);
      if (fresh) await attachPartition(tx, p.datasetId);
      tctx.log.debug({ ms: lap() }, 'import: deleted and counted');
      await tctx.progress(99);
      const saved = Number(inserted) + Number(updated);
      const skippedBy = await saveSkippedRows(tx, task.id, p.rows - kept, pass.skipped);
      return { read: p.rows, saved, skipped: p.rows - kept, deleted, unchanged: kept - saved, skippedBy };
    });
  } finally {
    for (const table of [p.staging, ...Object.values(getFirstImportTables(p.staging))])
      await dropStaging(ctx.database.pool, table).catch(() => {});
  }
}
