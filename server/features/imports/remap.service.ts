import { sql } from 'drizzle-orm';
import type { ExtraMapping } from '../../../common/mappings';
import type { AppContext } from '../../context';
import { type TaskContext, TaskError } from '../../tasks/worker';
import type { TaskRow } from '../tasks/task.queries';
import { encryptPass } from './encrypt-pass';
import { lockDatasetForImport, refreshRecordCount } from './import.queries';
import { changedCondition, ImportMessages, type ImportResult } from './import.service';
import { compileMappings, lookupTables } from './mapping.sql';
import { getDatasetMapping } from './mapping.queries';

/**
 * The remap task: re-applies the dataset's current mapping to every record from its stored raw
 * columns, in one transaction. Records a filter now excludes are deleted; changed ones saved.
 */
export async function runRemap(ctx: AppContext, task: TaskRow, tctx: TaskContext): Promise<ImportResult> {
  const { datasetId } = task.payload as { datasetId: string };
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
    if (!(await lockDatasetForImport(tx, datasetId))) throw new TaskError(ImportMessages.datasetGone);
    await tctx.progress(5, 'updating');
    const { mappings } = await getDatasetMapping(tx, datasetId);
    const source = (field: string) => sql`r.raw ->> ${field}`;
    const lookups = lookupTables(mappings, source, sql`records r WHERE r.dataset_id = ${datasetId}`);
    for (const statement of lookups.create) await tx.execute(statement);
    const compiled = compileMappings(mappings, source, { sourceMayBeEncrypted: true, precomputed: lookups.precomputed });
    await tx.execute(sql`
      CREATE TEMP TABLE src ON COMMIT DROP AS
      SELECT r.address_id AS key, r.raw, ${compiled.attrs} AS attrs, (${compiled.excluded}) AS excluded
      FROM records r${lookups.joins} WHERE r.dataset_id = ${datasetId}`);
    const extras = mappings.filter((m): m is ExtraMapping => m.type === 'extra' && m.encrypted);
    if (compiled.encrypted.length > 0 || extras.length > 0) {
      await tx.execute(sql`CREATE INDEX ON src (key)`);
      await encryptPass(tx, sql`src`, ctx.columnKeys(), compiled.encrypted, extras);
    }
    await tx.execute(sql`ANALYZE src`);
    const read = Number((await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM src`)).rows[0].n);
    await tctx.progress(40);

    const del = await tx.execute(sql`
      DELETE FROM records r USING src
      WHERE r.dataset_id = ${datasetId} AND r.address_id = src.key AND src.excluded`);
    const deleted = del.rowCount ?? 0;
    await tctx.progress(60);

    const encRaw = compiled.encrypted.map((m) => m.field);
    const encAttrs = [...compiled.encrypted.map((m) => m.mapped), ...extras.map((e) => e.mapped)];
    const upd = await tx.execute(sql`
      UPDATE records r SET raw = src.raw, attrs = src.attrs, updated_at = now()
      FROM src
      WHERE r.dataset_id = ${datasetId} AND r.address_id = src.key AND NOT src.excluded
        AND ${changedCondition(encRaw, encAttrs, 'src')}`);
    const saved = upd.rowCount ?? 0;
    await refreshRecordCount(tx, datasetId);
    await tctx.progress(99);
    return { read, saved, skipped: 0, deleted, unchanged: read - saved - deleted };
  });
}
