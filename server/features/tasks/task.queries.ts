import { and, desc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { ProgressUnit, Task, TaskProgress } from '../../../common/tasks';
import { FINISHED_TASK_STATES, PROGRESS_UNITS, RUNNING_TASK_STATES } from '../../../common/tasks';
import type { Db } from '../../db/client';
import { newId } from '../../lib/ids';
import { tasks } from './task.table';

const RUNNING = [...RUNNING_TASK_STATES];

/** A task as stored: its row of the tasks table, its payload not yet parsed. */
export type TaskRow = typeof tasks.$inferSelect;

/** What a caller gives to start a task. */
export interface TaskInput {
  type: string;
  payload?: Record<string, unknown>;
  file?: string | null;
  partnerId?: string | null;
  datasetId?: string | null;
  username?: string | null;
  /** The IP of the request that started it (for its audit entry); null for the system's own. */
  ip?: string | null;
  /**
   * 'parsing' (with the receiving process's workerKey) for an upload still arriving, 'executing'
   * for work a process already does (TaskRunner.adopt): neither is ever claimed.
   */
  state?: 'queued' | 'parsing' | 'executing';
  workerKey?: number;
}

/** Advisory-lock namespace in which each live worker holds its key. */
export const WORKER_LOCK_NAMESPACE = 4242;

// A unit this code no longer writes reads as rows rather than failing the task list.
const unitOf = (unit: string | null): ProgressUnit =>
  (PROGRESS_UNITS as readonly string[]).includes(unit ?? '') ? (unit as ProgressUnit) : 'rows';

/** Presents a task row as API JSON (spec 001 §3 Task); `message` repeats the error for spec 000 readers. */
export function presentTask(row: TaskRow): Task {
  return {
    _id: row.id,
    type: row.type,
    state: row.state,
    percentage: row.percentage,
    progress:
      row.progressTotal === null
        ? null
        : { done: row.progressDone ?? 0, total: row.progressTotal, unit: unitOf(row.progressUnit) },
    date: row.createdAt.toISOString(),
    file: row.file,
    error: row.error,
    message: row.error,
    partner: row.partnerId,
    dataset: row.datasetId,
    username: row.username,
    result: row.result ?? null,
  };
}

/** Inserts a queued task; returns the row. */
export async function insertTask(db: Db, input: TaskInput): Promise<TaskRow> {
  const [row] = await db
    .insert(tasks)
    .values({
      id: newId(),
      type: input.type,
      payload: input.payload ?? {},
      file: input.file ?? null,
      partnerId: input.partnerId ?? null,
      datasetId: input.datasetId ?? null,
      username: input.username ?? null,
      ip: input.ip ?? null,
      state: input.state ?? 'queued',
      workerKey: input.workerKey ?? null,
    })
    .returning();
  return row;
}

/**
 * The most recent `limit` tasks and every task not yet ended (queued or running, however old),
 * newest first: a task at work never drops off the task list behind newer ones.
 */
export function listTasks(db: Db, limit = 200): Promise<TaskRow[]> {
  const recent = db
    .select({ id: tasks.id })
    .from(tasks)
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(limit);
  return db
    .select()
    .from(tasks)
    .where(or(inArray(tasks.id, recent), notInArray(tasks.state, [...FINISHED_TASK_STATES])))
    .orderBy(desc(tasks.createdAt), desc(tasks.id));
}

/** One task by id; undefined when absent. */
export async function getTask(db: Db, id: string): Promise<TaskRow | undefined> {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row;
}

/**
 * Claims the oldest queued task of one of `types` for this worker with FOR UPDATE SKIP LOCKED,
 * so several workers never take the same task; returns it or undefined.
 */
export async function claimTask(db: Db, types: string[], workerKey: number): Promise<TaskRow | undefined> {
  if (types.length === 0) return undefined;
  const result = await db.execute<{ id: string }>(sql`
    UPDATE tasks SET state = 'executing', started_at = now(), worker_key = ${workerKey}
    WHERE id = (
      SELECT id FROM tasks
      WHERE state = 'queued' AND type IN ${types}
      ORDER BY created_at, id
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id`);
  const id = result.rows[0]?.id;
  return id ? getTask(db, id) : undefined;
}

/** What a progress write sets: the percentage (0-100), optionally a new running state and a count. */
export interface ProgressUpdate {
  percentage: number;
  state?: string;
  count?: TaskProgress;
}

/**
 * Records a running task's progress; a task that has finished meanwhile is left as it is (a late
 * write must never turn a done task back to 99%).
 */
export async function updateTaskProgress(db: Db, id: string, update: ProgressUpdate): Promise<void> {
  const { percentage, state, count } = update;
  await db
    .update(tasks)
    .set({
      percentage: Math.max(0, Math.min(100, Math.round(percentage))),
      ...(state ? { state } : {}),
      ...(count
        ? {
            progressDone: Math.max(0, Math.min(count.done, count.total)),
            progressTotal: Math.max(0, count.total),
            progressUnit: count.unit,
          }
        : {}),
    })
    .where(and(eq(tasks.id, id), notInArray(tasks.state, [...FINISHED_TASK_STATES])));
}

/** Marks a task done with its result; a counted task ends with all of its total done. */
export async function finishTask(db: Db, id: string, result: unknown): Promise<void> {
  await db
    .update(tasks)
    .set({
      state: 'done',
      percentage: 100,
      progressDone: sql`coalesce(${tasks.progressTotal}, ${tasks.progressDone})`,
      result: result ?? null,
      finishedAt: new Date(),
    })
    .where(eq(tasks.id, id));
}

/** Marks a task failed with a message (and a partial result when there is one). */
export async function failTask(db: Db, id: string, error: string, result?: unknown): Promise<void> {
  await db
    .update(tasks)
    .set({ state: 'failed', error, finishedAt: new Date(), ...(result !== undefined ? { result } : {}) })
    .where(eq(tasks.id, id));
}

/**
 * Fails every running task whose worker no longer holds its advisory lock (the process died;
 * its transaction was rolled back by PostgreSQL); returns how many.
 */
export async function failOrphanedTasks(db: Db, message: string): Promise<number> {
  const result = await db.execute(sql`
    UPDATE tasks SET state = 'failed', error = ${message}, finished_at = now()
    WHERE state IN ${RUNNING}
      AND NOT EXISTS (
        SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = ${WORKER_LOCK_NAMESPACE}::oid AND l.objsubid = 2
          AND l.objid::bigint = tasks.worker_key)`);
  return result.rowCount ?? 0;
}

/** Whether any task is running anywhere (for the connector status). */
export async function hasRunningTasks(db: Db): Promise<boolean> {
  const result = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM tasks WHERE state IN ${RUNNING}) AS busy`);
  return Boolean(result.rows[0]?.busy);
}
