import { sql } from 'drizzle-orm';
import { ImportMessages } from '../../../common/imports';
import type { AppContext } from '../../context';
import { type TaskContext, TaskError, type TaskOf } from '../../tasks/worker';
import { holdOffErasure } from '../avg/suppression';
import { markingSelDirty } from '../selections/sel-dirty.sql';
import { lockDatasetForImport, refreshRecordCount } from './import.queries';
import { type ImportPayload, recordImportAudit } from './import-task';

/**
 * The delete-from-file task (spec 001 §2 /deleteall): removes from the dataset the records of the
 * addresses listed in the staged file's e-mail column, in one transaction; returns read and deleted.
 */
export async function runDeleteAll(
  ctx: AppContext,
  task: TaskOf<ImportPayload>,
  tctx: TaskContext,
): Promise<{ read: number; deleted: number }> {
  const p = task.payload;
  return ctx.db.transaction(async (tx) => {
    // Deletes only, but it holds off erasure before it locks the dataset, as remap does: an erasure
    // deletes this dataset's records and fixes its count, and the same lock order keeps the two
    // from waiting on each other halfway.
    await holdOffErasure(tx);
    if (!(await lockDatasetForImport(tx, p.datasetId))) throw new TaskError(ImportMessages.datasetGone);
    // One set-based DELETE: the file's rows count as done when it has run.
    await tctx.count(0, p.rows, { span: [10, 90], state: 'updating' });
    const email = sql.raw(`s.c${p.emailIndex + 1}`);
    // The deleted records are marked for sel_record in the delete's statement.
    const del = await tx.execute(
      markingSelDirty(sql`
      DELETE FROM records r USING addresses a
      WHERE r.dataset_id = ${p.datasetId} AND r.address_id = a.id
        AND a.email IN (SELECT lower(btrim(${email})) COLLATE "C" FROM ${sql.raw(p.staging)} s)
      RETURNING r.address_id, r.dataset_id`),
    );
    await tctx.count(p.rows, p.rows, { span: [10, 90] });
    await refreshRecordCount(tx, p.datasetId);
    await tx.execute(sql`DROP TABLE IF EXISTS ${sql.raw(p.staging)}`);
    const result = { read: p.rows, deleted: del.rowCount ?? 0 };
    await recordImportAudit(tx, task, 'delete-from-file', p.datasetId, result);
    return result;
  });
}
