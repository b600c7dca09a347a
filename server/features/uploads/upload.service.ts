import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-errors';
import type { PayloadOf, TaskType } from '../../tasks/payloads';
import { failTask, insertTask, type TaskRow, updateTaskProgress } from '../tasks/task.queries';
import { dropStaging, stageCsv } from './csv-staging';

// Receiving an upload for any task (import, delete from file, blacklist, results, line file,
// enrichment): the task, the staging table, the e-mail column lookup and the queued payload. Each
// feature makes its own payload (an import's: imports/import-task.ts).

/** Finds the e-mail column (case-insensitive): the dataset's emailColumnName, else 'email'; -1 when absent. */
export function findEmailColumn(headers: string[], configured?: string): number {
  const wanted = (configured?.trim() || 'email').toLowerCase();
  return headers.findIndex((h) => h.trim().toLowerCase() === wanted);
}

/** An upload whose bytes are in a staging table, waiting for its fields to be checked. */
export interface StagedUpload {
  task: TaskRow;
  table: string;
  headers: string[];
  rows: number;
}

/**
 * Receives an upload for a dataset: creates its task (state 'parsing', visible on /tasks while the
 * bytes arrive) and streams the file into a staging table. Throws HttpError 400 with the Dutch
 * reason; the task is then failed and nothing is left behind.
 */
export async function stageUpload(
  ctx: AppContext,
  input: {
    type: TaskType;
    partnerId: string | null;
    datasetName: string | null;
    file: Readable;
    fileName: string;
    expectedBytes: number;
    username: string;
    /** The IP of the request that sends it, kept on the task for its audit entry. */
    ip?: string | null;
    /** How this upload words a file its CSV rules refuse (400); default as is. */
    badFile?: (err: HttpError) => HttpError;
  },
): Promise<StagedUpload> {
  const task = await insertTask(ctx.db, {
    type: input.type,
    partnerId: input.partnerId,
    datasetId: input.datasetName,
    file: input.fileName,
    username: input.username,
    ip: input.ip ?? null,
    // The receiving process owns the task while the bytes arrive (a crash makes it an orphan);
    // inserted as 'parsing', so no worker can claim it before its payload is there.
    state: 'parsing',
    workerKey: ctx.tasks.workerKey,
  });
  const table = `stg_${task.id}`;
  let lastPct = -1;
  try {
    const staged = await stageCsv(ctx.database.pool, input.file, table, (bytes) => {
      const pct = input.expectedBytes > 0 ? Math.min(99, Math.floor((bytes / input.expectedBytes) * 100)) : 0;
      if (pct !== lastPct) {
        lastPct = pct;
        void updateTaskProgress(ctx.db, task.id, { percentage: pct }).catch(() => {});
      }
    });
    return { task, table, headers: staged.headers, rows: staged.rows };
  } catch (err) {
    // A file the CSV rules refuse (not the client's broken or silent request: those stay as they are).
    const refused = err instanceof HttpError && err.statusCode === 400 && !input.file.errored;
    throw await failUpload(ctx, task.id, table, refused && input.badFile ? input.badFile(err) : err);
  }
}

/** Drops an upload's staging table, fails its task and returns the error to throw. */
export async function failUpload(
  ctx: AppContext,
  taskId: string,
  table: string,
  err: unknown,
): Promise<HttpError> {
  const message = err instanceof HttpError ? err.message : 'Het bestand kon niet worden verwerkt';
  if (!(err instanceof HttpError)) ctx.log.error({ err, taskId }, 'upload failed');
  // The table first: a task seen failed has left nothing behind.
  await dropStaging(ctx.database.pool, table).catch(() => {});
  await failTask(ctx.db, taskId, message).catch(() => {});
  return err instanceof HttpError ? err : new HttpError(500, message);
}

/** Queues a staged upload's task with its payload for a worker; returns the queued task. */
export async function queueStaged(
  ctx: AppContext,
  staged: StagedUpload,
  payload: PayloadOf<TaskType>,
): Promise<TaskRow> {
  await ctx.db.execute(sql`
    UPDATE tasks SET state = 'queued', percentage = 0, worker_key = NULL, payload = ${JSON.stringify(payload)}::jsonb
    WHERE id = ${staged.task.id}`);
  ctx.tasks.kick();
  return { ...staged.task, state: 'queued', percentage: 0, payload };
}
