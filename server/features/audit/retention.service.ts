import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { PayloadOf } from '../../tasks/payloads';
import type { TaskOf } from '../../tasks/worker';
import { getRetentionDays } from '../settings/settings.queries';
import { insertTask, type TaskRow } from '../tasks/task.queries';
import { recordAudit } from './audit';
import { pruneAuditAndSkippedRows } from './audit.queries';

/** The task type of the daily clean-up past the retention period. */
export const RETENTION_TASK = 'retention';
// The advisory lock (namespace, key) under which processes decide whether today's task is queued.
const RETENTION_LOCK = [4243, 1] as const;

/**
 * The retention task: deletes the audit entries and the imports' skipped rows older than the
 * retention period ('Bewaartermijn (dagen)'), records what it removed (kind 'retention-pruned')
 * in the same transaction, and returns the counts as the task's result.
 */
export async function runRetention(
  ctx: AppContext,
  _task: TaskOf<PayloadOf<'retention'>>,
): Promise<{ deleted: number; auditEntries: number; skippedRows: number }> {
  return ctx.db.transaction(async (tx) => {
    const days = await getRetentionDays(tx);
    const pruned = await pruneAuditAndSkippedRows(tx, days);
    await recordAudit(tx, {
      kind: 'retention-pruned',
      username: null,
      ip: null,
      rows: pruned.auditEntries + pruned.skippedRows,
      details: { retentionDays: days, ...pruned },
    });
    return { deleted: pruned.auditEntries + pruned.skippedRows, ...pruned };
  });
}

/**
 * Queues the retention task unless one was queued in the last 24 hours, under an advisory lock so
 * that of processes asking at once only one queues it. Returns the queued task, or null.
 */
export async function enqueueDailyRetention(db: Db): Promise<TaskRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${RETENTION_LOCK[0]}, ${RETENTION_LOCK[1]})`);
    const { rows } = await tx.execute(sql`SELECT 1 FROM tasks
      WHERE type = ${RETENTION_TASK} AND created_at > now() - interval '24 hours' LIMIT 1`);
    if (rows.length > 0) return null;
    return insertTask(tx, { type: RETENTION_TASK, payload: {} });
  });
}

/** How often a worker process asks whether today's retention task is queued (the first time one such period after its start). */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;

/**
 * The worker's sweep that queues the daily retention task (enqueueDailyRetention) and wakes the
 * worker for it: it asks at most once every `checkEveryMs`, the first time that long after it is
 * made, so a process that starts does not prune in its first moments.
 */
export function dailyRetentionReaper(
  ctx: AppContext,
  checkEveryMs = RETENTION_CHECK_MS,
): () => Promise<void> {
  let nextCheck = Date.now() + checkEveryMs;
  return async () => {
    if (Date.now() < nextCheck) return;
    nextCheck = Date.now() + checkEveryMs;
    if (await enqueueDailyRetention(ctx.db)) ctx.tasks.kick();
  };
}
