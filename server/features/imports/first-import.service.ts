import type { MappingEntry } from '../../../common/mappings';
import type { AppContext } from '../../context';
import { type Db, withClientTransaction } from '../../db/client';
import type { TaskContext } from '../../tasks/worker';
import { anySuppressions } from '../avg/suppression';
import { copyPass, type PassCounts } from '../records/copy-pass';
import { compileSqlEmailCheck } from '../records/record-mapper';
import { attachPartition, createDetachedPartition, dropDetachedPartition } from '../records/records.queries';
import { type hashOrder, storedRawColumns } from '../records/row-mappers';
import type { SkippedRows } from '../records/skip-log';
import { markSelDirtyRecords } from '../selections/sel-record.sql';
import {
  adoptRacedAddresses,
  createErasedFirsts,
  createFirstsTable,
  createSideAddressKeys,
  createSideFirstRows,
  createSideTable,
  deleteReplacedRecords,
  directSelect,
  dropFirstImportTables,
  erasedFirstsLinesSelect,
  erasedSideLinesSelect,
  insertFirstAddresses,
  insertSideRecords,
  newTableRecordKeys,
  sideRepeatsSelect,
} from './first-import.queries';
import {
  estimatedAddressCount,
  insertNewAddresses,
  removeErasedFirstRows,
  reserveAddressIds,
  setRecordCount,
} from './import.queries';
import type { ImportPayload, ImportResult } from './import-task';
import { markMappingApplied, saveDatasetHeaders, saveRawColumns } from './mapping.queries';
import { listRepeatedRows, noteErasedRows, saveSkippedRows } from './skipped-rows';

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
export function getFirstImportTables(staging: string): { firsts: string; side: string; erased: string } {
  return { firsts: `${staging}_firsts`, side: `${staging}_side`, erased: `${staging}_erased` };
}

/**
 * A dataset's first import the direct way (docs/decisions.md, A first import's direct path), inside
 * the import's transaction `tx` on `client`, the dataset row locked, its table absent:
 * 1. a table of the first row of each e-mail SQL can take for valid (compileSqlEmailCheck) with its
 *    address id: the existing address's, or for a new address the id reserved for its line
 *    (reserveAddressIds: base + ln), so that ids follow the records' order; while some address was
 *    ever erased, the new addresses that were erased go from it into a table of their own, and
 *    every row of theirs is left out of the pass and noted as erased;
 * 2. while the transaction inserts those new addresses with their ids, one pass reads the staged
 *    rows with their first-row ids, maps them in Node and writes the first rows as records straight
 *    into the dataset's new table (created, filled and committed on a connection of its own,
 *    unattached: no reader sees it); rows whose e-mail only Node takes for valid (white space
 *    other than ' ', non-ASCII) go by another connection into a side table;
 * 3. should another import have added one of the new addresses meanwhile, its records and first
 *    rows take that address's id;
 * 4. the side rows take the usual path (their own first rows, erased addresses left out,
 *    addresses); one that comes earlier in the file than the record of the same address replaces it;
 * 5. its records are marked for sel_record (markSelDirtyRecords); the table gets its key and is
 *    attached, last.
 * A failure rolls back the transaction (no address, no count) and drops the unattached table;
 * one a killed process leaves is dropped by the next import or the worker's sweep. The skipped
 * rows (the pass's, and the side's repeats) are stored for task `taskId`.
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
  const { firsts, side, erased } = getFirstImportTables(p.staging);
  // The staged columns in the order of the records' raw (the file's columns sorted by name, hashOrder).
  const columns = order.columns.join(', ');
  const run: FirstImport = {
    ctx,
    tctx,
    tx,
    p,
    order,
    mappings,
    lap,
    taskId,
    columns,
    firsts,
    side,
    erased,
    // The import's transaction holds off erasure (import.service.ts startImport).
    erasing: await anySuppressions(tx),
    erasedFirsts: false,
    created: false,
  };
  // 1. The first rows and their address ids, committed so that the pass's reader sees them.
  await storeFirstRows(run);
  // 2. The new addresses go in while the pass runs (on the transaction's connection).
  const inserting = insertFirstAddresses(tx, firsts);
  inserting.catch(() => {});
  try {
    const { table, counts } = await writeFirstRecords(run);
    tctx.log.debug({ ms: lap(), records: counts.written, side: counts.side }, 'import: mapped and written');
    // 3. Addresses another import added meanwhile.
    if (await inserting) await adoptRacedAddresses(tx, table, firsts);
    tctx.log.debug({ ms: lap() }, 'import: new addresses');
    // 4. The side rows.
    if (run.erasedFirsts)
      await noteErasedRows(
        tx,
        counts.skipped,
        erasedFirstsLinesSelect(p.staging, `c${p.emailIndex + 1}`, erased),
      );
    let kept = counts.written;
    if (counts.side > 0) kept += await writeSideRows(run, table, counts.skipped);
    await tctx.progress(90);
    // 5. Counts, headers, the table attached.
    return await finishFirstImport(run, table, kept, counts.skipped);
  } catch (err) {
    // The transaction rolls back; the unattached table is dropped while the dataset is still
    // locked (if the transaction holds a lock on it, the next import or the sweep drops it).
    if (run.created) await dropDetachedPartition(ctx.database.pool, p.datasetId).catch(() => false);
    throw err;
  }
}

/** What the steps of a first import's direct path share. */
interface FirstImport {
  ctx: AppContext;
  tctx: TaskContext;
  tx: Db;
  p: ImportPayload;
  order: FileOrder;
  mappings: MappingEntry[];
  lap: () => number;
  taskId: string;
  /** The staged columns in the order of the records' raw. */
  columns: string;
  firsts: string;
  side: string;
  erased: string;
  /** Whether any address was ever erased: only then are the file's new addresses checked. */
  erasing: boolean;
  /** Whether the erased table holds any e-mail (the pass then leaves their rows out). */
  erasedFirsts: boolean;
  /** Whether the dataset's new table was created (a failed import drops it). */
  created: boolean;
}

/**
 * Step 1: the first row of each e-mail SQL can take for valid, with its address id, in the firsts
 * table (committed). Against a much larger addresses table the e-mails are looked up one by one in
 * e-mail order (as runImport does); otherwise hashed. A new address takes the id reserved for its
 * line.
 */
async function storeFirstRows(run: FirstImport): Promise<void> {
  const { ctx, tctx, tx, p } = run;
  const emailColumn = `s.c${p.emailIndex + 1}`;
  const valid = compileSqlEmailCheck(emailColumn);
  const lookups = (await estimatedAddressCount(tx)) > 4 * p.rows;
  const base = await reserveAddressIds(ctx.database, p.rows);
  await withClientTransaction(ctx.database, async (firstsTx, client) => {
    await createFirstsTable(client, {
      firsts: run.firsts,
      staging: p.staging,
      emailColumn,
      valid,
      base,
      lookups,
    });
    if (run.erasing) run.erasedFirsts = (await createErasedFirsts(firstsTx, run, ctx.columnKeys())) > 0;
  });
  await tctx.progress(10);
  tctx.log.debug({ ms: run.lap() }, 'import: first rows and their address ids');
}

/**
 * Step 2: one pass maps the staged rows in Node and writes the first rows as records into the
 * dataset's new table, created, filled (frozen) and committed on a connection of its own; the
 * rows only Node takes for valid go by another connection into the side table. Returns the new
 * table and the pass's counts.
 */
async function writeFirstRecords(run: FirstImport): Promise<{ table: string; counts: PassCounts }> {
  const { ctx, tctx, p, order } = run;
  const pool = ctx.database.pool;
  const sider = await pool.connect();
  try {
    // The table is created, filled (frozen) and committed in one transaction of the writer's:
    // should the pass fail or the process die, it never existed.
    const written = await withClientTransaction(ctx.database, async (_tx, writer) => {
      const table = await createDetachedPartition(writer, p.datasetId);
      run.created = true;
      await createSideTable(sider, run.side);
      const counts = await copyPass({
        pool,
        client: writer,
        select: directSelect(
          run.columns,
          p.staging,
          run.firsts,
          run.erasedFirsts ? { table: run.erased, emailColumn: `s.c${p.emailIndex + 1}` } : null,
        ),
        target: `"${table}" (dataset_id, address_id, raw, attrs, row_hash, raw_hash)`,
        freeze: true,
        side: { client: sider, target: run.side },
        spec: {
          kind: 'direct',
          headers: order.headers,
          emailIndex: order.emailIndex,
          mappings: run.mappings,
          datasetId: p.datasetId,
        },
        keys: ctx.columnKeys(),
        rows: p.rows,
        threads: ctx.config.importThreads,
        onRows: (n) => tctx.count(n, p.rows, { span: [10, 85] }),
      });
      return { table, counts };
    });
    sider.release();
    return written;
  } catch (err) {
    sider.release(true);
    throw err;
  }
}

/**
 * Step 4: the side rows take the usual path (their own first rows, addresses); one that comes
 * earlier in the file than the record of the same address replaces it. Notes the side rows not
 * written in `skipped`; returns the records it adds (written less replaced).
 */
async function writeSideRows(run: FirstImport, table: string, skipped: SkippedRows): Promise<number> {
  const { tx, tctx, p, side, firsts } = run;
  await createSideFirstRows(tx, side);
  // A side row's e-mail may be erased too (e.g. 'José@x.nl', or 'A@x.nl' after a tab).
  if (run.erasing && (await removeErasedFirstRows(tx, run.ctx.columnKeys())) > 0)
    await noteErasedRows(tx, skipped, erasedSideLinesSelect(side));
  await insertNewAddresses(tx);
  await createSideAddressKeys(tx);
  // A side row before the first row SQL found for its address (e.g. ' A@x.nl\t' before
  // 'a@x.nl') is the address's first row: its record replaces the one written.
  const replaced = await deleteReplacedRecords(tx, table, firsts);
  const inserted = await insertSideRecords(tx, {
    into: table,
    datasetId: p.datasetId,
    columns: run.columns,
    side,
    staging: p.staging,
    firsts,
  });
  // The side rows not written (a repeat of an earlier row) and the records they replaced.
  skipped.keep(
    await listRepeatedRows(
      tx,
      p.staging,
      `c${p.emailIndex + 1}`,
      sideRepeatsSelect(side, firsts, run.erasing),
    ),
  );
  tctx.log.debug({ ms: run.lap() }, 'import: side rows');
  return inserted - replaced;
}

/**
 * Step 5: the dataset's raw columns, count, headers and applied mapping; the import's tables
 * dropped, every record of the new table marked for sel_record, the table keyed and attached,
 * the skipped rows stored. Returns the import's result.
 */
async function finishFirstImport(
  run: FirstImport,
  table: string,
  kept: number,
  skipped: SkippedRows,
): Promise<ImportResult> {
  const { tx, tctx, p } = run;
  await saveRawColumns(tx, p.datasetId, storedRawColumns(run.order.headers, run.mappings));
  await setRecordCount(tx, p.datasetId, kept);
  await saveDatasetHeaders(tx, p.datasetId, p.headers);
  await markMappingApplied(tx, p.datasetId);
  await dropFirstImportTables(tx, {
    side: run.side,
    firsts: run.firsts,
    erased: run.erased,
    staging: p.staging,
  });
  // Every record of the new table gets its sel_record row (one scan of the table just written).
  await markSelDirtyRecords(tx, newTableRecordKeys(table));
  await attachPartition(tx, p.datasetId);
  tctx.log.debug({ ms: run.lap() }, 'import: keyed and attached');
  const erasing = run.erasing ? run.ctx.columnKeys() : null;
  const skippedBy = await saveSkippedRows(tx, run.taskId, p.rows - kept, skipped, erasing);
  await tctx.progress(99);
  return { read: p.rows, saved: kept, skipped: p.rows - kept, deleted: 0, unchanged: 0, skippedBy };
}
