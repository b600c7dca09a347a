import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { TaskMessages } from '../../common/tasks';
import type { Database, Db } from '../db/client';
import {
  claimTask,
  failOrphanedTasks,
  failTask,
  finishTask,
  insertTask,
  type TaskInput,
  type TaskRow,
  updateTaskProgress,
  WORKER_LOCK_NAMESPACE,
} from '../features/tasks/task.queries';
import { HttpError } from '../lib/http-errors';

/** What a running task can use: the database and a progress reporter. */
export interface TaskContext {
  db: Db;
  database: Database;
  /** Reports 0-100 and optionally a new state (parsing, saving, updating, executing); throttled. */
  progress(percentage: number, state?: string): Promise<void>;
  log: FastifyBaseLogger;
}

/** A task type's work; returns the result stored on the task (for imports: read, saved, ...). */
export type TaskHandler = (task: TaskRow, ctx: TaskContext) => Promise<unknown>;

/** Thrown by a handler to fail its task with a message meant for the user. */
export class TaskError extends Error {
  constructor(
    message: string,
    public readonly result?: unknown,
  ) {
    super(message);
  }
}

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

  /** Registers the handler of a task type (features at startup, tests for their own types). */
  register(type: string, handler: TaskHandler): void {
    this.handlers.set(type, handler);
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
  async enqueue(input: TaskInput): Promise<TaskRow> {
    const row = await insertTask(this.database.db, input);
    this.kick();
    return row;
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

  /** Stops claiming, waits for running tasks to end, and releases the liveness lock. */
  async stop(): Promise<void> {
    this.running = false;
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
    let last = 0;
    const ctx: TaskContext = {
      db,
      database: this.database,
      log,
      progress: async (percentage, state) => {
        const now = Date.now();
        if (!state && now - last < 250) return;
        last = now;
        await updateTaskProgress(db, task.id, percentage, state).catch((err) =>
          log.warn({ err }, 'progress update failed'),
        );
      },
    };
    try {
      const handler = this.handlers.get(task.type)!;
      const result = await handler(task, ctx);
      await finishTask(db, task.id, result);
    } catch (err) {
      const message =
        err instanceof TaskError || err instanceof HttpError
          ? err.message
          : 'De taak is mislukt door een serverfout';
      if (!(err instanceof TaskError || err instanceof HttpError)) log.error({ err }, 'task failed');
      await failTask(db, task.id, message, err instanceof TaskError ? err.result : undefined).catch((e) =>
        log.error({ err: e }, 'could not mark task failed'),
      );
    }
  }
}
