import { ImportMessages } from '../../../common/imports';
import type { SkippedBy } from '../../../common/skipped-rows';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { HttpError } from '../../lib/http-errors';
import type { PayloadOf } from '../../tasks/payloads';
import { recordAudit } from '../audit/audit';
import type { TaskRow } from '../tasks/task.queries';
import { failUpload, findEmailColumn, queueStaged, type StagedUpload } from '../uploads/upload.service';

// What an import, remap or delete-from-file task is made of: its payload (made from a staged
// upload here), its result and its work table. The tasks themselves are import.service.ts,
// first-import.service.ts, remap.service.ts and deleteall.service.ts.

/** What an import (or delete-from-file) task needs: where the staged file is and how to read it. */
export type ImportPayload = PayloadOf<'import'>;

/** The counters of spec 000 §3 Upload result (DESIGN §4 defines them); an import adds the skipped rows per reason. */
export interface ImportResult {
  read: number;
  saved: number;
  skipped: number;
  deleted: number;
  unchanged: number;
  skippedBy?: SkippedBy;
}

/**
 * Records the end of an import, remap or delete-from-file task in the audit log, in the task's
 * transaction `tx` (one entry per task): the task's user and the IP of the request that started it
 * (tasks.ip), the dataset (id as subject, partner and name), the file and the counts; rows is the
 * number of rows read.
 */
export async function recordImportAudit(
  tx: DbOrTx,
  task: Pick<TaskRow, 'username' | 'ip' | 'file' | 'partnerId' | 'datasetId'>,
  kind: 'import' | 'remap' | 'delete-from-file',
  datasetId: string,
  result: Partial<Omit<ImportResult, 'skippedBy'>> & { read: number },
): Promise<void> {
  await recordAudit(tx, {
    kind,
    username: task.username,
    ip: task.ip,
    subject: datasetId,
    rows: result.read,
    details: {
      partnerId: task.partnerId,
      dataset: task.datasetId,
      file: task.file,
      read: result.read,
      saved: result.saved,
      skipped: result.skipped,
      deleted: result.deleted,
      unchanged: result.unchanged,
    },
  });
}

/** The work table of an import or remap: its mapped rows, created inside the task's transaction. */
export function workTable(taskId: string): string {
  return `imp_${taskId.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

/**
 * The payload of an import or delete-from-file task for a staged upload, with its e-mail column
 * (`emailColumn`, else 'email'); throws HttpError 400 when the file has no such column.
 */
export function importPayload(
  staged: StagedUpload,
  datasetId: string,
  emailColumn: string | undefined,
  extra: Partial<ImportPayload> = {},
): ImportPayload {
  const emailIndex = findEmailColumn(staged.headers, emailColumn);
  if (emailIndex < 0) throw new HttpError(400, ImportMessages.noEmailColumn(emailColumn?.trim() || 'email'));
  return {
    datasetId,
    staging: staged.table,
    headers: staged.headers,
    emailIndex,
    rows: staged.rows,
    deleteOld: true,
    ...extra,
  };
}

/**
 * Checks the e-mail column of a staged upload (`emailColumn`, else 'email') and queues its task
 * with the payload the worker needs; returns the queued task. Throws HttpError 400 (task failed).
 */
export async function queueUpload(
  ctx: AppContext,
  staged: StagedUpload,
  datasetId: string,
  emailColumn: string | undefined,
  extra: Partial<ImportPayload> = {},
): Promise<TaskRow> {
  let payload: ImportPayload;
  try {
    payload = importPayload(staged, datasetId, emailColumn, extra);
  } catch (err) {
    throw await failUpload(ctx, staged.task.id, staged.table, err);
  }
  return queueStaged(ctx, staged, payload);
}
