import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { z } from 'zod';
import { type ProgressUnit, TaskMessages } from '../../common/tasks';
import type { Database, Db } from '../db/client';
import { WorkCancelled } from '../db/request-transaction';
import {
  claimTask,
  failOrphanedTasks,
  failTask,
  finishTask,
  insertTask,
  type ProgressUpdate,
  type TaskInput,
  type TaskRow,
  updateTaskProgress,
  WORKER_LOCK_NAMESPACE,
} from '../features/tasks/task.queries';
import { dropStaging } from '../features/uploads/csv-staging';
import { HttpError } from '../lib/http-errors';
import type { PayloadOf, TaskType } from './payloads';

/** The message of a task that failed on an error not meant for the user (logged, never shown). */
const SERVER_ERROR_MESSAGE = 'De taak is mislukt door een serverfout';

/** How a count is reported: its unit, the part of the percentage it fills, a new state. */
export interface CountOptions {
  /** What is counted; rows unless said otherwise. */
  unit?: ProgressUnit;
  /** The percentage at none done and at all done (default 0 and 100). */
  span?: [number, number];
  state?: string;
}

/**
 * What a running task can use: the database and its progress reporters. Reports are written at
 * most every PROGRESS_WRITE_MS (the latest one a moment later when it came too soon), in order;
 * a new state, the first count and a count that reached its total are written at once.
 */
export interface TaskContext {
  db: Db;
  database: Database;
  /** Reports 0-100 and optionally a new state (parsing, saving, updating, executing). */
  progress(percentage: number, state?: string): Promise<void>;
  /**
   * Reports `done` of `total` (rows unless `options.unit` says otherwise); resolves once written
   * when it is written at once (the first, the last, with a new state), else at once.
   */
  count(done: number, total: number, options?: CountOptions): Promise<void>;
  /** Reports that step `step` of `steps` (from 1) runs: set-based work, whose rows cannot be counted as they go. */
  step(step: number, steps: number, state?: string): Promise<void>;
  log: FastifyBaseLogger;
}

/** The least time between two progress writes of one task: a million-row import writes a few dozen. */
export const PROGRESS_WRITE_MS = 250;

/** A task type's work; returns the result stored on the task (for imports: read, saved, ...). */
export type TaskHandler = (task: TaskRow, ctx: TaskContext) => Promise<unknown>;

/** A task whose stored payload has been parsed by its type's schema. */
export type TaskOf<P> = Omit<TaskRow, 'payload'> & { payload: P };

/** A task type of the application: its payload's schema, its work and the staging tables it owns. */
export interface TaskDefinition<P> {
  /** The schema the stored payload must match; a task whose payload does not is failed unrun. */
  payload: z.ZodType<P>;
  /** The work on the parsed payload; returns the result stored on the task. */
  run: (task: TaskOf<P>, ctx: TaskContext) => Promise<unknown>;
  /**
   * The staging tables the task owns: dropped when the work ends, done or failed, before the task
   * is marked so; a drop that fails does not fail the task.
   */
  staging?: (payload: P) => string[];
}

/** A task type outside the application's registry: those tests and the e2e server register for themselves. */
export type OwnTaskType = `test.${string}` | `e2e.${string}`;

/** What a caller gives to queue a task of type T: for a registered type, the payload its schema types. */
export type EnqueueInput<T extends TaskType | OwnTaskType> = Omit<TaskInput, 'type' | 'payload'> & {
  type: T;
} & (T extends TaskType ? { payload: PayloadOf<T> } : { payload?: Record<string, unknown> });

/**
 * The handler of a task definition: parses the stored payload (a payload that does not match fails
 * the task with TaskMessages.badPayload), runs the work, and then drops the staging tables it owns.
 */
function definitionHandler<P>(definition: TaskDefinition<P>): TaskHandler {
  return async (task, ctx) => {
    const parsed = definition.payload.safeParse(task.payload);
    if (!parsed.success) {
      ctx.log.error({ issues: parsed.error.issues }, 'task payload does not match its schema');
      throw new TaskError(TaskMessages.badPayload(parsed.error.issues.map((i) => i.path.join('.'))));
    }
    try {
      return await definition.run({ ...task, payload: parsed.data }, ctx);
    } finally {
      for (const table of definition.staging?.(parsed.data) ?? [])
        await dropStaging(ctx.database.pool, table).catch(() => {});
    }
  };
}

/** Thrown by a handler to fail its task with a message meant for the user. */
export class TaskError extends Error {
  constructor(
    message: string,
    public readonly result?: unknown,
  ) {
    super(message);
  }
}

/** How a runner works: how many tasks at once, how often it looks for queued ones, its log and reap interval. */
export interface TaskRunnerOptions {
  concurrency: number;
  pollMs: number;
  log: FastifyBaseLogger;
  /** Seconds between sweeps for tasks of dead workers. */
  reapEverySeconds?: number;
}

/**
 * Runs tasks from the `tasks` table inside this process: claims with SKIP LOCKED, runs up to
 * `concurrency` at once, and proves it is alive to other processes with an advisory lock.
 */
export class TaskRunner {
  readonly workerKey = crypto.randomInt(1, 2 ** 31 - 1);
  private readonly handlers = new Map<string, TaskHandler>();
  private readonly reapers: (() => Promise<void>)[] = [];
  private readonly active = new Set<Promise<void>>();
  private readonly cancellers = new Map<string, () => void>();
  private lockClient?: pg.Client;
  private timer?: NodeJS.Timeout;
  private reapTimer?: NodeJS.Timeout;
  private running = false;
  private polling = false;
  private repoll = false;

  constructor(
    private readonly database: Database,
    private readonly options: TaskRunnerOptions,
  ) {}

  /** Registers a task type of the application with its definition (at startup; tests to watch one). */
  register<T extends TaskType>(type: T, definition: TaskDefinition<PayloadOf<T>>): void;
  /** Registers a type of a test's own: a handler (its payload unchecked) or a definition. */
  register<P>(type: OwnTaskType, handler: TaskHandler | TaskDefinition<P>): void;
  register<P>(type: string, handler: TaskHandler | TaskDefinition<P>): void {
    this.handlers.set(type, typeof handler === 'function' ? handler : definitionHandler(handler));
  }

  /** Adds cleanup that runs after each sweep for orphaned tasks (e.g. their staging tables). */
  onReap(reaper: () => Promise<void>): void {
    this.reapers.push(reaper);
  }

  /** Whether the worker loop runs in this process. */
  isRunning(): boolean {
    return this.running;
  }

  /** Queues a task and wakes the worker; returns the queued row. */
  async enqueue<T extends TaskType | OwnTaskType>(input: EnqueueInput<T>): Promise<TaskRow> {
    const row = await insertTask(this.database.db, input);
    this.kick();
    return row;
  }

  /**
   * Records work already under way in this process as a running task ('executing', held by this
   * worker's key, so a process that dies leaves it to be failed as orphaned) and ends the task
   * with its outcome: done with what `done` resolves to; failed with the message of an HttpError or
   * TaskError, with `cancelledMessage` after `cancelTask`, else with a server error. A request that
   * cannot answer in time hands its work on this way (the live count). Returns the task's row.
   */
  async adopt<T extends TaskType | OwnTaskType>(
    input: EnqueueInput<T>,
    work: { done: Promise<unknown>; cancel: () => void },
    cancelledMessage: string,
  ): Promise<TaskRow> {
    const row = await insertTask(this.database.db, {
      ...input,
      state: 'executing',
      workerKey: this.workerKey,
    });
    let cancelled = false;
    this.cancellers.set(row.id, () => {
      cancelled = true;
      work.cancel();
    });
    const log = this.options.log.child({ taskId: row.id, taskType: row.type });
    const db = this.database.db;
    const end = work.done
      .then(
        (result) => finishTask(db, row.id, result),
        (err) => {
          const isCancelled = cancelled || err instanceof WorkCancelled; // cancelTask, or the work's own cancel
          const known = err instanceof TaskError || err instanceof HttpError;
          if (!known && !isCancelled) log.error({ err }, 'task failed');
          const message = isCancelled ? cancelledMessage : known ? err.message : SERVER_ERROR_MESSAGE;
          return failTask(db, row.id, message);
        },
      )
      .catch((err) => log.error({ err }, 'could not end an adopted task'))
      .finally(() => {
        this.cancellers.delete(row.id);
        this.active.delete(end);
      });
    this.active.add(end);
    return row;
  }

  /** Cancels a task this process adopted (adopt) and still runs; false when it holds no such task. */
  cancelTask(id: string): boolean {
    const cancel = this.cancellers.get(id);
    if (!cancel) return false;
    cancel();
    return true;
  }

  /** Takes the liveness lock, fails tasks orphaned by dead workers, and starts claiming. */
  async start(): Promise<void> {
    if (this.running) return;
    const client = new pg.Client({ connectionString: this.database.url });
    client.on('error', (err) => this.options.log.error({ err }, 'worker lock connection lost'));
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, $2)', [WORKER_LOCK_NAMESPACE, this.workerKey]);
    this.lockClient = client;
    this.running = true;
    await this.reap();
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.reapTimer = setInterval(() => void this.reap(), (this.options.reapEverySeconds ?? 30) * 1000);
    this.kick();
  }

  /** Stops claiming, cancels the adopted work (a request's count), waits for running tasks to end, and releases the liveness lock. */
  async stop(): Promise<void> {
    this.running = false;
    for (const cancel of this.cancellers.values()) cancel();
    clearInterval(this.timer);
    clearInterval(this.reapTimer);
    await Promise.allSettled([...this.active]);
    await this.lockClient?.end().catch(() => {});
    this.lockClient = undefined;
  }

  /** Resolves when no task of this process runs any more (tests use it). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  private async reap(): Promise<void> {
    try {
      const n = await failOrphanedTasks(this.database.db, TaskMessages.orphaned);
      if (n > 0) this.options.log.warn({ count: n }, 'marked tasks of a stopped process as failed');
      for (const reaper of this.reapers) await reaper();
    } catch (err) {
      this.options.log.error({ err }, 'reaping orphaned tasks failed');
    }
  }

  /** Claims as many tasks as there are free slots. */
  kick(): void {
    if (!this.running) return;
    if (this.polling) {
      this.repoll = true;
      return;
    }
    this.polling = true;
    void this.fill().finally(() => {
      this.polling = false;
      if (this.repoll) {
        this.repoll = false;
        this.kick();
      }
    });
  }

  private async fill(): Promise<void> {
    while (this.running && this.active.size < this.options.concurrency) {
      let task: TaskRow | undefined;
      try {
        task = await claimTask(this.database.db, [...this.handlers.keys()], this.workerKey);
      } catch (err) {
        this.options.log.error({ err }, 'claiming a task failed');
        return;
      }
      if (!task) return;
      const run = this.execute(task).finally(() => {
        this.active.delete(run);
        this.kick();
      });
      this.active.add(run);
    }
  }

  private async execute(task: TaskRow): Promise<void> {
    const db = this.database.db;
    const log = this.options.log.child({ taskId: task.id, taskType: task.type });
    const reporter = progressReporter(db, task.id, log);
    const ctx: TaskContext = { db, database: this.database, log, ...reporter.reporters };
    try {
      const handler = this.handlers.get(task.type)!;
      const result = await handler(task, ctx);
      await reporter.settle();
      await finishTask(db, task.id, result);
    } catch (err) {
      await reporter.settle();
      const message =
        err instanceof TaskError || err instanceof HttpError ? err.message : SERVER_ERROR_MESSAGE;
      if (!(err instanceof TaskError || err instanceof HttpError)) log.error({ err }, 'task failed');
      await failTask(db, task.id, message, err instanceof TaskError ? err.result : undefined).catch((e) =>
        log.error({ err: e }, 'could not mark task failed'),
      );
    }
  }
}

/**
 * The progress reporters of one running task (see TaskContext) and `settle`, which drops a report
 * still waiting for its moment and waits for the writes under way, so none lands after the end.
 */
function progressReporter(db: Db, taskId: string, log: FastifyBaseLogger) {
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

  const reporters: Pick<TaskContext, 'progress' | 'count' | 'step'> = {
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
