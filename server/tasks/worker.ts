import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { z } from 'zod';
import { TaskMessages } from '../../common/tasks';
import type { Database, Db } from '../db/client';
import { WorkCancelled } from '../db/request-transaction';
import {
  claimTask,
  failOrphanedTasks,
  failTask,
  finishTask,
  insertTask,
  type TaskInput,
  type TaskRow,
  WORKER_LOCK_NAMESPACE,
} from '../features/tasks/task.queries';
import { dropStaging } from '../features/uploads/csv-staging';
import { HttpError } from '../lib/http-errors';
import { retryOnLostConnection } from '../lib/pg-errors';
import type { PayloadOf, TaskType } from './payloads';
import { type ProgressReporters, progressReporter } from './progress-reporter';

/** The message of a task that failed on an error not meant for the user (logged, never shown). */
const SERVER_ERROR_MESSAGE = 'De taak is mislukt door een serverfout';

/**
 * What a running task can use: the database, its log and its progress reporters (written at most
 * every PROGRESS_WRITE_MS, progress-reporter.ts).
 */
export interface TaskContext extends ProgressReporters {
  db: Db;
  database: Database;
  log: FastifyBaseLogger;
}

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
        await retryOnLostConnection(() => dropStaging(ctx.database.pool, table)).catch(() => {});
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

/** How a task of this process ended, as the runner tells its listeners (the metrics). */
export interface TaskEnd {
  type: string;
  state: 'done' | 'failed';
  /** Seconds from its claim (or adoption) to its end. */
  seconds: number;
  /** What the work returned; undefined for a failed task. */
  result: unknown;
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
  private readonly endListeners: ((end: TaskEnd) => void)[] = [];
  private lockClient?: pg.Client;
  private lockLost = false;
  private timer?: NodeJS.Timeout;
  private reapTimer?: NodeJS.Timeout;
  private running = false;
  // Set by stop(): adopted work it cancels, and (once out of time) tasks it aborts, fail as serverStopped.
  private stopping = false;
  private aborting = false;
  /** The pool's open connections by backend process id, to end a task's transaction at a stop. */
  private readonly backends = new Map<number, pg.PoolClient>();
  private polling = false;
  private repoll = false;

  constructor(
    private readonly database: Database,
    private readonly options: TaskRunnerOptions,
  ) {
    const pid = (client: pg.PoolClient) => (client as pg.PoolClient & { processID?: number }).processID;
    database.pool.on('connect', (client) => {
      const id = pid(client);
      if (id) this.backends.set(id, client);
    });
    database.pool.on('remove', (client) => {
      const id = pid(client);
      if (id) this.backends.delete(id);
    });
  }

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

  /** Whether the worker loop runs and still holds its liveness lock (its connection not lost). */
  isAlive(): boolean {
    return this.running && this.lockClient !== undefined && !this.lockLost;
  }

  /** Adds a listener told of every task this process ends, done or failed, after it is marked so. */
  onTaskEnd(listener: (end: TaskEnd) => void): void {
    this.endListeners.push(listener);
  }

  // A listener's failure (it should have none) never touches the task.
  private ended(type: string, state: TaskEnd['state'], startedAt: number, result?: unknown): void {
    const seconds = (performance.now() - startedAt) / 1000;
    for (const listener of this.endListeners) {
      try {
        listener({ type, state, seconds, result });
      } catch (err) {
        this.options.log.warn({ err }, 'a task end listener failed');
      }
    }
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
    const startedAt = performance.now();
    const end = work.done
      .then(
        async (result) => {
          await retryOnLostConnection(() => finishTask(db, row.id, result));
          this.ended(row.type, 'done', startedAt, result);
        },
        async (err) => {
          const isCancelled = cancelled || err instanceof WorkCancelled; // cancelTask, or the work's own cancel
          const known = err instanceof TaskError || err instanceof HttpError;
          if (!known && !isCancelled) log.error({ err }, 'task failed');
          const cancelledAs = this.stopping ? TaskMessages.serverStopped : cancelledMessage; // by stop()
          const message = isCancelled ? cancelledAs : known ? err.message : SERVER_ERROR_MESSAGE;
          await retryOnLostConnection(() => failTask(db, row.id, message));
          this.ended(row.type, 'failed', startedAt);
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
    this.stopping = this.aborting = false;
    const client = new pg.Client({ connectionString: this.database.url });
    this.lockLost = false;
    client.on('error', (err) => {
      this.lockLost = true;
      this.options.log.error({ err }, 'worker lock connection lost');
    });
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1, $2)', [WORKER_LOCK_NAMESPACE, this.workerKey]);
    this.lockClient = client;
    this.running = true;
    await this.reap();
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.reapTimer = setInterval(() => void this.reap(), (this.options.reapEverySeconds ?? 30) * 1000);
    this.kick();
  }

  /** Stops claiming queued tasks (they stay queued for the next start); running ones go on. */
  stopClaiming(): void {
    this.running = false;
    clearInterval(this.timer);
  }

  /**
   * Stops claiming, cancels the adopted work (a request's count) and waits up to `graceMs` (unbounded
   * when undefined), or until `hurry` resolves, for running tasks to end. Tasks still running then are
   * aborted: the process's connections are terminated (their transactions roll back), and each is failed
   * with TaskMessages.serverStopped after its staging tables are dropped. Releases the lock last.
   */
  async stop(graceMs?: number, hurry?: Promise<unknown>): Promise<void> {
    this.stopClaiming();
    this.stopping = true;
    for (const cancel of this.cancellers.values()) cancel();
    clearInterval(this.reapTimer);
    const settled = Promise.allSettled([...this.active]);
    if (graceMs === undefined) await settled;
    else {
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        settled.then(() => false),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(true), graceMs);
          void hurry?.then(() => r(true));
        }),
      ]);
      clearTimeout(timer);
      if (late && this.active.size > 0) await this.abortRunning();
    }
    await this.lockClient?.end().catch(() => {});
    this.lockClient = undefined;
  }

  private async abortRunning(): Promise<void> {
    this.aborting = true;
    this.options.log.warn({ count: this.active.size }, 'stopping: aborting the tasks still running');
    const pids = [...this.backends.keys()];
    // The lock connection is outside the pool: it ends the pool's connections, the tasks' among them.
    if (this.lockClient && pids.length > 0)
      await this.lockClient
        .query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids])
        .catch((err) => this.options.log.error({ err }, 'could not end the connections of running tasks'));
    await Promise.allSettled([...this.active]);
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
    const startedAt = performance.now();
    try {
      const handler = this.handlers.get(task.type)!;
      const result = await handler(task, ctx);
      await reporter.settle();
      await retryOnLostConnection(() => finishTask(db, task.id, result));
      this.ended(task.type, 'done', startedAt, result);
      return;
    } catch (err) {
      await reporter.settle();
      const known = err instanceof TaskError || err instanceof HttpError;
      const message = this.aborting ? TaskMessages.serverStopped : known ? err.message : SERVER_ERROR_MESSAGE;
      if (!known && !this.aborting) log.error({ err }, 'task failed');
      const fail = () => failTask(db, task.id, message, err instanceof TaskError ? err.result : undefined);
      await retryOnLostConnection(fail).catch((e) => log.error({ err: e }, 'could not mark task failed'));
    }
    this.ended(task.type, 'failed', startedAt);
  }
}
