import { sql } from 'drizzle-orm';
import type { ExtraMapping } from '../../../common/mappings';
import type { AppContext } from '../../context';
import { type TaskContext, TaskError } from '../../tasks/worker';
import type { TaskRow } from '../tasks/task.queries';
import { encryptPass } from './encrypt-pass';
import { lockDatasetForImport, refreshRecordCount } from './import.queries';
import { changedCondition, ImportMessages, type ImportResult } from './import.service';
import { getDatasetMapping, markMappingApplied } from './mapping.queries';
import { compileMappings, lookupTables } from './mapping.sql';

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
    const extras = mappings.filter((m): m is ExtraMapping => m.type === 'extra' && m.encrypted);
    const hasEncrypted = mappings.some((m) => m.encrypted);
    const source = (field: string) => sql`x.raw ->> ${field}`;
    const lookups = lookupTables(mappings, source, sql`records x WHERE x.dataset_id = ${datasetId}`);
    for (const statement of lookups.create) await tx.execute(statement);
    const compiled = compileMappings(mappings, source, {
      sourceMayBeEncrypted: true,
      precomputed: lookups.precomputed,
    });
    const encRaw = compiled.encrypted.map((m) => m.field);
    const encAttrs = [...compiled.encrypted.map((m) => m.mapped), ...extras.map((e) => e.mapped)];
    const rows = sql`SELECT x.address_id AS key, x.raw, ${compiled.attrs} AS attrs, (${compiled.excluded}) AS excluded
      FROM records x${lookups.joins} WHERE x.dataset_id = ${datasetId}`;
    let updateSource = sql`(${rows})`;
    if (hasEncrypted) {
      // Encrypted values are transformed in Node, so the rows go through a temp table first.
      await tx.execute(sql`CREATE TEMP TABLE src ON COMMIT DROP AS ${rows}`);
      await tx.execute(sql`CREATE INDEX ON src (key)`);
      await encryptPass(tx, sql`src`, ctx.columnKeys(), compiled.encrypted, extras);
      updateSource = sql`src`;
    }
    const read = Number(
      (
        await tx.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM records WHERE dataset_id = ${datasetId}`,
        )
      ).rows[0].n,
    );
    await tctx.progress(30);

    // Each record's new attributes are computed once, in the UPDATE's source; a record a filter
    // now excludes is deleted instead.
    const upd = await tx.execute(sql`
      UPDATE records r SET raw = n.raw, attrs = n.attrs, updated_at = now()
      FROM ${updateSource} n
      WHERE r.dataset_id = ${datasetId} AND r.address_id = n.key AND NOT n.excluded
        AND ${changedCondition(encRaw, encAttrs, 'n')}`);
    const saved = upd.rowCount ?? 0;
    await tctx.progress(70);
    let deleted = 0;
    if (compiled.hasExclusions) {
      const filter = compileMappings(mappings, (field) => sql`r.raw ->> ${field}`, {
        sourceMayBeEncrypted: true,
      });
      const del = await tx.execute(
        sql`DELETE FROM records r WHERE r.dataset_id = ${datasetId} AND (${filter.excluded})`,
      );
      deleted = del.rowCount ?? 0;
    }
    await refreshRecordCount(tx, datasetId);
    await markMappingApplied(tx, datasetId);
    await tctx.progress(99);
    return { read, saved, skipped: 0, deleted, unchanged: read - saved - deleted };
  });
}
