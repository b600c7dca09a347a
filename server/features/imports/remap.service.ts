import { sql } from 'drizzle-orm';
import { ImportMessages } from '../../../common/imports';
import type { AppContext } from '../../context';
import { withClientTransaction } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';
import type { PayloadOf } from '../../tasks/payloads';
import { type TaskContext, TaskError, type TaskOf } from '../../tasks/worker';
import { clearErasedMentionsInWork } from '../avg/mention-guard';
import { anySuppressions, holdOffErasure } from '../avg/suppression';
import { copyPass } from '../records/copy-pass';
import { appendRawColumns, remapFields, storedRawColumns } from '../records/row-mappers';
import { markSelDirtyRecords } from '../selections/sel-record.sql';
import { getRecordCount, lockDatasetForImport, setRecordCount } from './import.queries';
import { type ImportResult, recordImportAudit, workTable } from './import-task';
import { getDatasetMapping, markMappingApplied, saveRawColumns } from './mapping.queries';

/**
 * The remap task: re-applies the dataset's current mapping to every record from its stored raw
 * columns, in one transaction. The records stream through the mapping in Node into a work table
 * (only those whose row hash changed, or that a filter now excludes); the changed ones are saved,
 * the excluded ones deleted.
 */
export async function runRemap(
  ctx: AppContext,
  task: TaskOf<PayloadOf<'remap'>>,
  tctx: TaskContext,
): Promise<ImportResult> {
  const { datasetId } = task.payload;
  return withClientTransaction(ctx.database, async (tx, client) => {
    // A remap only rewrites and deletes the records of addresses stored already, so it never meets
    // an erased one; it holds off erasure all the same, before it locks the dataset: an erasure
    // deletes this dataset's records and fixes its count, and taking both locks in the same order
    // as the imports means neither waits for the other halfway (no deadlock).
    await holdOffErasure(tx);
    await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
    if (!(await lockDatasetForImport(tx, datasetId))) throw new TaskError(ImportMessages.datasetGone);
    await tctx.progress(5, 'updating');
    const { mappings, headers, rawColumns: storedColumns } = await getDatasetMapping(tx, datasetId);
    // The last file's columns by name, in the order an import raw-hashes them (hashOrder).
    const spec = { kind: 'remap' as const, headers: [...headers].sort(), mappings };
    const fields = remapFields(spec);
    // A column that became encrypted gets its blind index column.
    const rawColumns = appendRawColumns(
      storedColumns,
      storedRawColumns(fields, mappings).filter((c) => !fields.includes(c)),
    );
    await saveRawColumns(tx, datasetId, rawColumns);
    const position = (f: string) => rawColumns.indexOf(f) + 1;
    const keys = ctx.columnKeys();
    const total = await getRecordCount(tx, datasetId);
    await tctx.count(0, total, { span: [5, 65] });
    const work = workTable(task.id);
    await tx.execute(
      sql`CREATE UNLOGGED TABLE ${sql.raw(work)} (key bigint, patch text, attrs text, hash text, excluded boolean, raw_hash text)`,
    );
    const values = fields.map((f) => (position(f) > 0 ? `raw[${position(f)}]` : 'NULL::text')).join(', ');
    const { rows: read } = await copyPass({
      pool: ctx.database.pool,
      client,
      // The raw values of the mapped fields by position (NULL for a field no file had), then the
      // key and the stored row hash (unchanged records are left out of the work table).
      select: `SELECT ${values}, address_id, row_hash FROM records WHERE dataset_id = ${client.escapeLiteral(datasetId)}`,
      target: work,
      spec,
      keys,
      rows: total,
      threads: ctx.config.importThreads,
      onRows: (n) => tctx.count(n, total, { span: [5, 65] }),
    });
    // An erased address kept in plain text is not encrypted into an e-mail column (avg/mention-guard.ts).
    if (await anySuppressions(tx))
      await clearErasedMentionsInWork(tx, keys, await ctx.caseCollation(), {
        datasetId,
        work,
        mappings,
        rawColumns,
      });
    await tx.execute(sql`ANALYZE ${sql.raw(work)}`);
    await tctx.progress(70);
    // The work table holds only the records about to be replaced or deleted: they are marked for
    // sel_record.
    await markSelDirtyRecords(tx, sql`SELECT key, ${datasetId}::text FROM ${sql.raw(work)}`);

    // Only records whose raw columns or attributes changed are written.
    const upd = await tx.execute(sql`
      UPDATE records r SET raw = CASE WHEN w.patch IS NULL THEN r.raw ELSE ARRAY(
          SELECT coalesce(w.patch::jsonb ->> c.name, r.raw[c.pos]) FROM unnest(${pgTextArray(rawColumns)}::text[]) WITH ORDINALITY c(name, pos)
          ORDER BY c.pos) END, attrs = w.attrs::jsonb, row_hash = w.hash,
        raw_hash = w.raw_hash, updated_at = now()
      FROM ${sql.raw(work)} w
      WHERE r.dataset_id = ${datasetId} AND r.address_id = w.key AND NOT w.excluded
        AND r.row_hash IS DISTINCT FROM w.hash`);
    const saved = upd.rowCount ?? 0;
    await tctx.progress(85);
    const del = await tx.execute(sql`
      DELETE FROM records r USING ${sql.raw(work)} w
      WHERE r.dataset_id = ${datasetId} AND r.address_id = w.key AND w.excluded`);
    const deleted = del.rowCount ?? 0;
    // The pass read every record of the locked dataset: what is left is read minus deleted.
    await setRecordCount(tx, datasetId, read - deleted);
    await markMappingApplied(tx, datasetId);
    await tx.execute(sql`DROP TABLE ${sql.raw(work)}`);
    await tctx.progress(99);
    const result = { read, saved, skipped: 0, deleted, unchanged: read - saved - deleted };
    await recordImportAudit(tx, task, 'remap', datasetId, result);
    return result;
  });
}
