import type { FastifyBaseLogger } from 'fastify';
import type { ProgressUnit } from '../../common/tasks';
import type { Db } from '../db/client';
import { type ProgressUpdate, updateTaskProgress } from '../features/tasks/task.queries';

/** How a count is reported: its unit, the part of the percentage it fills, a new state. */
export interface CountOptions {
  /** What is counted; rows unless said otherwise. */
  unit?: ProgressUnit;
  /** The percentage at none done and at all done (default 0 and 100). */
  span?: [number, number];
  state?: string;
}

/**
 * The progress reporters of a running task. Reports are written at most every PROGRESS_WRITE_MS
 * (the latest one a moment later when it came too soon), in order; a new state, the first count
 * and a count that reached its total are written at once.
 */
export interface ProgressReporters {
  /** Reports 0-100 and optionally a new state (parsing, saving, updating, executing). */
  progress(percentage: number, state?: string): Promise<void>;
  /**
   * Reports `done` of `total` (rows unless `options.unit` says otherwise); resolves once written
   * when it is written at once (the first, the last, with a new state), else at once.
   */
  count(done: number, total: number, options?: CountOptions): Promise<void>;
  /** Reports that step `step` of `steps` (from 1) runs: set-based work, whose rows cannot be counted as they go. */
  step(step: number, steps: number, state?: string): Promise<void>;
}

/** The least time between two progress writes of one task: a million-row import writes a few dozen. */
export const PROGRESS_WRITE_MS = 250;

/**
 * The progress reporters of one running task (see TaskContext) and `settle`, which drops a report
 * still waiting for its moment and waits for the writes under way, so none lands after the end.
 */
export function progressReporter(db: Db, taskId: string, log: FastifyBaseLogger) {
  let lastWrite = 0;
  let writing: Promise<void> | null = null;
  let pending: ProgressUpdate | null = null;
  let timer: NodeJS.Timeout | undefined;
  let counted = false;
  let settled = false;

  // One write at a time, in order: what comes meanwhile merges into the next one.
  const write = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (writing) return writing.then(write);
    const update = pending;
    pending = null;
    if (!update || settled) return Promise.resolve();
    lastWrite = Date.now();
    writing = updateTaskProgress(db, taskId, update)
      .catch((err) => log.warn({ err }, 'progress update failed'))
      .finally(() => {
        writing = null;
      });
    return writing;
  };
  // A report merges into the one waiting (a percentage keeps the count and state reported before
  // it). Only a report written at once is waited for: a pass never waits for its periodic writes.
  const report = (update: ProgressUpdate, now: boolean): Promise<void> => {
    if (settled) return Promise.resolve();
    pending = { ...pending, ...update };
    if (now) return write();
    const wait = PROGRESS_WRITE_MS - (Date.now() - lastWrite);
    if (wait <= 0) void write();
    else timer ??= setTimeout(() => void write(), wait);
    return Promise.resolve();
  };

  const reporters: ProgressReporters = {
    progress: (percentage, state) => report({ percentage, ...(state ? { state } : {}) }, Boolean(state)),
    count: (done, total, options = {}) => {
      const [from, to] = options.span ?? [0, 100];
      const part = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
      const first = !counted;
      counted = true;
      return report(
        {
          percentage: from + (to - from) * part,
          count: { done, total, unit: options.unit ?? 'rows' },
          ...(options.state ? { state: options.state } : {}),
        },
        first || done >= total || Boolean(options.state),
      );
    },
    // Step k of n runs: k - 1 of n are done.
    step: (step, steps, state) => {
      counted = true;
      return report(
        {
          percentage: steps > 0 ? (100 * (step - 1)) / steps : 0,
          count: { done: step, total: steps, unit: 'steps' },
          ...(state ? { state } : {}),
        },
        true,
      );
    },
  };
  return {
    reporters,
    async settle() {
      settled = true;
      clearTimeout(timer);
      while (writing) await writing;
    },
  };
}
