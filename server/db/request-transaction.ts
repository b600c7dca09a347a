import type { FastifyReply } from 'fastify';
import pg from 'pg';
import { StatementTimeoutMessage } from '../../common/api-error';
import { HttpError } from '../lib/http-errors';
import { pgErrorCode } from '../lib/pg-errors';
import { clientDb, type Database, type Db } from './client';

// No statement outlives its request (docs/decisions.md, Statements of a request): the database work
// a request waits for runs on a connection of its own, each statement under a timeout, and is
// cancelled when the client goes away before its answer.

/** What runRequestTransaction needs of the app: the database and the timeout (AppContext has both). */
export interface RequestTransactionContext {
  database: Pick<Database, 'pool' | 'url'>;
  config: { statementTimeoutMs: number };
}

/** How runRequestTransaction begins its transaction and what its timeout answers. */
export interface RequestTransactionOptions {
  /** The isolation level; PostgreSQL's default (READ COMMITTED) when left out. */
  isolation?: 'REPEATABLE READ' | 'SERIALIZABLE';
  /** A read-only transaction (a count). */
  readOnly?: boolean;
  /** Overrides config.statementTimeoutMs for this route (ms). */
  timeoutMs?: number;
  /** The Dutch message of the 503 a timeout answers; StatementTimeoutMessage when left out. */
  timeoutMessage?: string;
}

/** The status of an answer to a client that went away (nginx's 'client closed request'); nobody reads it. */
export const CLIENT_GONE_STATUS = 499;

/** SQLSTATE query_canceled: a statement timeout, or a cancel. */
const QUERY_CANCELED = '57014';

/** How often a cancel is sent again while the work still runs after its client left (a next statement). */
const CANCEL_AGAIN_MS = 50;

/**
 * Runs `work` for the request of `reply` in one transaction on a pool connection of its own, with
 * every statement limited to config.statementTimeoutMs (`SET LOCAL statement_timeout`). When the
 * client goes away before the answer (the response closes unfinished: the request's own 'close'
 * fires once a body is read, so the response's is listened to), the work is cancelled
 * (startTransactionWork). Returns what `work` returns, after the commit; throws an HttpError 503
 * with `timeoutMessage` when a statement ran past the timeout, 499 when the client left, else what
 * `work` threw. A route wraps its database work in it:
 *
 *   async (request, reply) => runRequestTransaction(ctx, reply, (tx) => countSomething(tx, ...),
 *     { isolation: 'REPEATABLE READ', readOnly: true, timeoutMessage: Messages.timeout })
 */
export async function runRequestTransaction<T>(
  ctx: RequestTransactionContext,
  reply: FastifyReply,
  work: (tx: Db, client: pg.PoolClient) => Promise<T>,
  options: RequestTransactionOptions = {},
): Promise<T> {
  const running = startTransactionWork(ctx, work, options);
  const detach = cancelWhenClientLeaves(reply, running);
  try {
    return await running.done;
  } catch (err) {
    throw err instanceof WorkCancelled ? clientGone() : err;
  } finally {
    detach();
  }
}

/**
 * Cancels `running` when the client of `reply` goes away before its answer; returns the function
 * that stops listening (a route that hands the work on, to a task, calls it first).
 */
export function cancelWhenClientLeaves(
  reply: FastifyReply,
  running: Pick<TransactionWork<unknown>, 'cancel'>,
) {
  const response = reply.raw;
  // An answer handed to the socket (ended) is not a client that left, though a response that is
  // not a socket's (an injected request) may not report it finished.
  const onClose = () => {
    if (!response.writableFinished && !response.writableEnded) running.cancel();
  };
  response.on('close', onClose);
  return () => response.off('close', onClose);
}

/** Database work under way (startTransactionWork): its outcome, and the way to stop it. */
export interface TransactionWork<T> {
  /** What the work returned, after the commit; rejects as startTransactionWork says. */
  done: Promise<T>;
  /** Cancels the work: its running statement and any it starts after; `done` rejects with WorkCancelled. */
  cancel(): void;
}

/** The rejection of work that was cancelled (TransactionWork.cancel). */
export class WorkCancelled extends Error {
  constructor() {
    super('Het verzoek is afgebroken');
  }
}

/**
 * Starts `work` in one transaction on a pool connection of its own, with every statement limited
 * to config.statementTimeoutMs. `cancel` stops it: the running statement is cancelled
 * (pg_cancel_backend from a connection of its own, again until the work returns, so a statement
 * started after it is cancelled too), the transaction rolled back and the connection given back
 * only after that. `done` resolves with what `work` returns, after the commit; rejects with an
 * HttpError 503 with `timeoutMessage` when a statement ran past the timeout, WorkCancelled after
 * `cancel`, else with what `work` threw.
 */
export function startTransactionWork<T>(
  ctx: RequestTransactionContext,
  work: (tx: Db, client: pg.PoolClient) => Promise<T>,
  options: RequestTransactionOptions = {},
): TransactionWork<T> {
  let cancelled = false;
  let running = false;
  let pid = 0;
  let cancelling: Promise<void> | undefined;
  // Until the work returns (`running` false).
  const cancelUntilDone = async () => {
    while (running) {
      await cancelBackend(ctx.database.url, pid);
      await new Promise((resolve) => setTimeout(resolve, CANCEL_AGAIN_MS));
    }
  };
  const cancel = () => {
    cancelled = true;
    if (running && !cancelling) cancelling = cancelUntilDone();
  };
  const run = async (): Promise<T> => {
    let client: pg.PoolClient | undefined;
    let broken = false;
    try {
      client = await ctx.database.pool.connect();
      if (cancelled) throw new WorkCancelled();
      const begin = `BEGIN${options.isolation ? ` ISOLATION LEVEL ${options.isolation}` : ''}${options.readOnly ? ' READ ONLY' : ''}`;
      await client.query(begin);
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pg_backend_pid() AS pid, set_config('statement_timeout', $1, true)`,
        [String(options.timeoutMs ?? ctx.config.statementTimeoutMs)],
      );
      pid = rows[0].pid;
      running = true;
      let result: T;
      try {
        if (cancelled) throw new WorkCancelled();
        result = await work(clientDb(client), client);
      } finally {
        running = false;
        // No cancel may reach the connection after this: it goes back to the pool.
        await cancelling;
      }
      if (cancelled) throw new WorkCancelled();
      await client.query('COMMIT');
      return result;
    } catch (err) {
      if (client) {
        // A ROLLBACK that fails (or is cancelled) leaves the connection closed, not pooled.
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
      }
      if (cancelled) throw new WorkCancelled();
      if (pgErrorCode(err) === QUERY_CANCELED)
        throw new HttpError(503, options.timeoutMessage ?? StatementTimeoutMessage);
      throw err;
    } finally {
      client?.release(broken);
    }
  };
  return { done: run(), cancel };
}

/** The error of work whose client went away (CLIENT_GONE_STATUS; the answer is never read). */
const clientGone = () => new HttpError(CLIENT_GONE_STATUS, 'Het verzoek is afgebroken');

/** Cancels the statement the backend `pid` runs, from a connection of its own (the pool may be full). */
async function cancelBackend(url: string, pid: number): Promise<void> {
  const canceller = new pg.Client({ connectionString: url, application_name: 'lijstwerk cancel' });
  try {
    await canceller.connect();
    await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch {
    // The backend is gone or the server unreachable: nothing left to cancel.
  } finally {
    await canceller.end().catch(() => {});
  }
}
