import type pg from 'pg';
import { ImportMessages } from '../../../common/imports';
import type { MappingEntry } from '../../../common/mappings';
import type { AppContext } from '../../context';
import { type Db, withClientTransaction } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { type TaskContext, TaskError, type TaskOf } from '../../tasks/worker';
import { clearErasedMentionCells } from '../avg/mention-guard';
import { anySuppressions, holdOffErasure } from '../avg/suppression';
import { copyPass, type PassCounts } from '../records/copy-pass';
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
import type { SkippedRows } from '../records/skip-log';
import { markSelDirtyRecords } from '../selections/sel-record.sql';
import { canImportDirectly, runFirstImport } from './first-import.service';
import {
  estimatedAddressCount,
  getRecordCount,
  insertNewAddresses,
  lockDatasetForImport,
  refreshRecordCount,
  removeErasedFirstRows,
  setRecordCount,
} from './import.queries';
import {
  analyzeTable,
  compileRawArray,
  countValidRows,
  createAddressKeys,
  createFirstRows,
  createWorkTable,
  createWrittenKeys,
  currentRecordsCleanup,
  currentRecordsStatements,
  deleteAbsentRecords,
  dropImportTables,
  erasedLinesSelect,
  importSelect,
  insertNewRecords,
  renameAddressKeysToWritten,
  repeatedLinesSelect,
  setHashJoins,
  setImportWorkMem,
  updateChangedRecords,
  writtenRecordKeys,
} from './import-run.queries';
import { type ImportPayload, type ImportResult, recordImportAudit, workTable } from './import-task';
import {
  getDatasetMapping,
  isMappingApplied,
  markMappingApplied,
  saveDatasetHeaders,
  saveRawColumns,
} from './mapping.queries';
import { listRepeatedRows, noteErasedRows, saveSkippedRows } from './skipped-rows';

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
 * 2. set-based SQL de-duplicates on e-mail (the first row wins), leaves out every row of an erased
 *    address (AVG art. 17; the transaction holds off erasure from its start), inserts new
 *    addresses, inserts new records (raw taken from the staged row; a first import into the
 *    dataset's own new partition), updates records whose hash differs and deletes records absent
 *    from the file.
 * Unchanged rows cost no write. A failure or a killed process rolls everything back; the worker
 * drops the staging table (and a first import's side tables) in every case.
 */
export async function runImport(
  ctx: AppContext,
  task: TaskOf<ImportPayload>,
  tctx: TaskContext,
): Promise<ImportResult> {
  const p = task.payload;
  return withClientTransaction(ctx.database, async (tx, client) => {
    const run = await startImport(ctx, tctx, tx, client, p, task.id);
    // A first import mostly writes its records straight from the mapping pass (first-import.service.ts).
    const result = run.direct
      ? await runFirstImport(ctx, tctx, tx, p, run.order, run.mappings, run.lap, task.id)
      : await importRows(run, task.id);
    await recordImportAudit(tx, task, 'import', p.datasetId, result);
    return result;
  });
}

// Steps 1-2 of an import into a dataset with records (the general path); returns its result.
async function importRows(run: ImportRun, taskId: string): Promise<ImportResult> {
  const { tx, p } = run;
  const { pass, addressCount, recordsBefore } = await mapRows(run);
  const { kept, lookups } = await keepFirstRows(run, pass.skipped, addressCount);
  await keyAddresses(run, lookups);
  const { inserted, updated } = await writeRecords(run);
  const deleted = await finishImport(run, { kept, inserted, recordsBefore });
  const saved = inserted + updated;
  const skippedBy = await saveSkippedRows(
    tx,
    taskId,
    p.rows - kept,
    pass.skipped,
    run.erasing ? run.keys : null,
  );
  return { read: p.rows, saved, skipped: p.rows - kept, deleted, unchanged: kept - saved, skippedBy };
}

/** What the steps of one import on the general path share: its task, its connection, its file and dataset. */
interface ImportRun {
  ctx: AppContext;
  tctx: TaskContext;
  tx: Db;
  client: pg.PoolClient;
  p: ImportPayload;
  taskId: string;
  lap: () => number;
  keys: ColumnKeys;
  mappings: MappingEntry[];
  order: ReturnType<typeof hashOrder>;
  /** The dataset's raw positions after this file. */
  rawColumns: string[];
  hadRecords: boolean;
  /** Whether the import makes the dataset's records table (its first import). */
  fresh: boolean;
  /** Whether any address was ever erased: only then are the file's new addresses checked. */
  erasing: boolean;
  work: string;
}

/**
 * Locks the dataset and reads what the import plans by: its mapping, whether it holds records and
 * its records table's state (a table a dead first import left unattached is dropped); `direct`
 * when a first import can take the direct path (first-import.service.ts).
 */
async function startImport(
  ctx: AppContext,
  tctx: TaskContext,
  tx: Db,
  client: pg.PoolClient,
  p: ImportPayload,
  taskId: string,
): Promise<ImportRun & { direct: boolean }> {
  // First: no erasure runs while the import reads and writes addresses, and every erasure
  // committed before is seen (avg/suppression.ts).
  await holdOffErasure(tx);
  await setImportWorkMem(tx);
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
  // The file's columns by name: rows are mapped and raw-hashed in this order, whatever the file's.
  const order = hashOrder(p.headers, p.emailIndex);
  const rawColumns = appendRawColumns(storedColumns, storedRawColumns(order.headers, mappings));
  const rawIsFile =
    rawColumns.length === order.headers.length && rawColumns.every((c, i) => c === order.headers[i]);
  const direct = fresh && rawIsFile && canImportDirectly(mappings);
  const work = workTable(taskId);
  const erasing = await anySuppressions(tx);
  // An erased address in another record's encrypted e-mail column stays out (avg/mention-guard.ts).
  if (erasing)
    await clearErasedMentionCells(ctx.database.db, keys, await ctx.caseCollation(), {
      table: p.staging,
      headers: p.headers,
      emailIndex: p.emailIndex,
      mappings,
    });
  return {
    ctx,
    tctx,
    tx,
    client,
    p,
    taskId,
    lap,
    keys,
    mappings,
    order,
    rawColumns,
    hadRecords,
    fresh,
    erasing,
    work,
    direct,
  };
}

/**
 * Maps the staged rows in Node into the work table (a re-import's rows with their record's hashes
 * and address id); returns the pass's counts and the address and record counts the later steps
 * plan by.
 */
async function mapRows(
  run: ImportRun,
): Promise<{ pass: PassCounts; addressCount: number; recordsBefore: number }> {
  const { ctx, tctx, tx, client, p, order, hadRecords } = run;
  const known = hadRecords && (await isMappingApplied(tx, p.datasetId));
  const spec = {
    kind: 'import' as const,
    headers: order.headers,
    emailIndex: order.emailIndex,
    mappings: run.mappings,
    stored: hadRecords,
    known,
  };
  await createWorkTable(tx, run.work, IMPORT_WORK_COLUMNS);
  // A re-import's rows come with their record's hashes and address id, from a temporary table
  // of the reading connection: the dataset's records with their e-mail. Among many more
  // addresses (over 4× the dataset's records) they are found by index lookups in id order,
  // never by hashing the whole addresses table (seconds at 20 million addresses); otherwise
  // by one hash join (10 million records: 16 s instead of 50 s of lookups), whatever the
  // planner guesses of a dataset table not analyzed yet. The reader's work_mem is the
  // import's: the file's join with those records hashes millions of e-mails. Rows that bring
  // an address id need no address lookup later.
  const current = `cur_${run.taskId.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
  // Neither changes before the records are written (the dataset row is locked; new addresses
  // go in after the pass).
  const addressCount = await estimatedAddressCount(tx);
  const recordsBefore = hadRecords ? await getRecordCount(tx, p.datasetId) : 0;
  const lookupRecords = hadRecords && addressCount > 4 * recordsBefore;
  const pass = await copyPass({
    pool: ctx.database.pool,
    client,
    prepare: hadRecords
      ? currentRecordsStatements(current, client.escapeLiteral(p.datasetId), lookupRecords)
      : [],
    cleanup: hadRecords ? currentRecordsCleanup(current) : [],
    select: importSelect(order.columns.join(', '), p.staging, p.emailIndex, hadRecords ? current : null),
    target: run.work,
    spec,
    keys: run.keys,
    rows: p.rows,
    threads: ctx.config.importThreads,
    onRows: (n) => tctx.count(n, p.rows, { span: [5, 50] }),
  });
  tctx.log.debug({ ms: run.lap() }, 'import: mapped');
  return { pass, addressCount, recordsBefore };
}

/**
 * Keeps one row per valid, not excluded, not erased address (the first occurrence in the file wins;
 * the repeats and every row of an erased address go to `skipped`); returns the rows kept and whether addresses are looked up by index.
 */
async function keepFirstRows(
  run: ImportRun,
  skipped: SkippedRows,
  addressCount: number,
): Promise<{ kept: number; lookups: boolean }> {
  const { tx, tctx, p, work } = run;
  // When the addresses table is much larger than the file, its addresses are looked up in the
  // e-mail index one by one, in index order (k sorted by e-mail when most rows need it), instead
  // of hashing the whole table: at 20 million addresses the two statements of keyAddresses took
  // 18 s and 12 s for a million-row file by hash, 5.3 s and 1.6 s by lookups
  // (docs/decisions.md, Address lookups at scale). On a small table the planner's hash joins are
  // faster, so they stay.
  await analyzeTable(tx, work);
  // valid: the file's valid rows; lookup: those whose address must be looked up (not brought
  // by their record). Sorting k pays for many lookups only: a re-import's rows mostly bring
  // their address id, and sorting them all took 2 s a million for nothing.
  const { valid, lookup } = await countValidRows(tx, work);
  const lookups = addressCount > 4 * lookup;
  const sorted = lookups && lookup * 2 > valid;
  // n: the rows of each e-mail, so that the repeats are found among few e-mails.
  let kept = await createFirstRows(tx, work, sorted);
  // Every row of an erased address is left out, the first included (AVG art. 17).
  if (run.erasing) {
    const erased = await removeErasedFirstRows(tx, run.keys);
    if (erased > 0) {
      await noteErasedRows(tx, skipped, erasedLinesSelect(work));
      kept -= erased;
    }
  }
  if (valid > kept)
    skipped.keep(await listRepeatedRows(tx, p.staging, `c${p.emailIndex + 1}`, repeatedLinesSelect(work)));
  await tctx.progress(55);
  tctx.log.debug({ ms: run.lap() }, 'import: dedup');
  return { kept, lookups };
}

/**
 * Inserts the new addresses and gives each kept row its address id (ka), then picks the rows to
 * write (kk): with their address id and whether the dataset holds a record for it (UPDATE) or not
 * (INSERT); unchanged rows are left out.
 */
async function keyAddresses(run: ImportRun, lookups: boolean): Promise<void> {
  const { tx, tctx } = run;
  if (lookups) await setHashJoins(tx, false);
  await insertNewAddresses(tx);
  await tctx.progress(65);
  tctx.log.debug({ ms: run.lap() }, 'import: addresses');
  await createAddressKeys(tx);
  if (lookups) await setHashJoins(tx, true);
  await analyzeTable(tx, 'ka');
  // The mapping pass brought the stored row hash of most rows of a re-import (w.stored); only the
  // others are looked up in the dataset's records (reading all of them took 4 s a million, and
  // writing every kept row into kk 1.5 s). In a dataset without records every kept row is new:
  // ka serves as it is.
  if (run.hadRecords) await createWrittenKeys(tx, run.work, run.p.datasetId);
  else await renameAddressKeysToWritten(tx);
  tctx.log.debug({ ms: run.lap() }, 'import: keys');
}

/**
 * Writes the rows of kk: changed records updated, new ones inserted (into the dataset's new table
 * on its first import), both marked for sel_record; returns how many of each.
 */
async function writeRecords(run: ImportRun): Promise<{ inserted: number; updated: number }> {
  const { tx, tctx, client, p, work, hadRecords, mappings } = run;
  // The dataset row is locked, so no other writer adds records to it: new records are a
  // plain INSERT (cheaper than ON CONFLICT), changed ones an UPDATE, identical ones untouched.
  // New records go in by address id: an indexed partition's primary key then grows at its right
  // edge (12 s instead of 17 s for a million records with the former two indexes, sort
  // included). A first import's partition has no index yet, but sorted records also let a
  // re-import read its records with their e-mails 1.2 s faster than unsorted for a million,
  // which is more than the 1.1-1.5 s the sort costs here.
  await saveRawColumns(tx, p.datasetId, run.rawColumns);
  const written = new Set(storedRawColumns(p.headers, mappings));
  const raw = compileRawArray(client, p.headers, run.rawColumns, encryptedFields(mappings), written);
  const rows = { work, staging: p.staging, datasetId: p.datasetId, raw };
  const updated = hadRecords ? await updateChangedRecords(tx, rows) : 0;
  await tctx.progress(75);
  tctx.log.debug({ ms: run.lap() }, 'import: changed records updated');
  const into = run.fresh ? await createDetachedPartition(client, p.datasetId) : recordsPartition(p.datasetId);
  const inserted = await insertNewRecords(tx, { ...rows, into, allNew: !hadRecords });
  // The records inserted and replaced (kk: only those written) are marked for sel_record; the
  // deleted ones by the delete.
  if (inserted + updated > 0) await markSelDirtyRecords(tx, writtenRecordKeys(p.datasetId));
  await tctx.progress(90);
  tctx.log.debug({ ms: run.lap() }, 'import: new records inserted');
  return { inserted, updated };
}

/**
 * Deletes the records absent from the file (unless the upload keeps them), sets the dataset's
 * count, headers and applied mapping, drops the work and staging tables and attaches a first
 * import's table; returns the records deleted.
 */
async function finishImport(
  run: ImportRun,
  counts: { kept: number; inserted: number; recordsBefore: number },
): Promise<number> {
  const { tx, tctx, p, hadRecords } = run;
  // Every writer of records holds the dataset row locked and keeps its record_count, so when
  // the kept rows that found a record are as many as the dataset held, none is absent: the
  // scan of all its records for absent ones (1-2 s a million) is skipped.
  let deleted = 0;
  if (hadRecords && p.deleteOld !== false && counts.kept - counts.inserted !== counts.recordsBefore)
    deleted = await deleteAbsentRecords(tx, p.datasetId);
  // The dataset now holds exactly the kept rows when absent records were deleted (or it had
  // none): no count over its records is needed.
  if (!hadRecords) await setRecordCount(tx, p.datasetId, counts.inserted);
  else if (p.deleteOld !== false) await setRecordCount(tx, p.datasetId, counts.kept);
  else await refreshRecordCount(tx, p.datasetId);
  await saveDatasetHeaders(tx, p.datasetId, p.headers);
  await markMappingApplied(tx, p.datasetId);
  await dropImportTables(tx, run.work, p.staging);
  if (run.fresh) await attachPartition(tx, p.datasetId);
  tctx.log.debug({ ms: run.lap() }, 'import: deleted and counted');
  await tctx.progress(99);
  return deleted;
}
