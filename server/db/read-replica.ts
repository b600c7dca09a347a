import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import pg from 'pg';
import { Counter, Gauge, type Metric } from 'prom-client';
import { HttpError } from '../lib/http-errors';
import { pgErrorCode } from '../lib/pg-errors';
import type { Database, Db } from './client';
import {
  type RequestTransactionContext,
  type RequestTransactionOptions,
  runRequestTransaction,
  startTransactionWork,
  type TransactionWork,
} from './request-transaction';

// Reads that may go to a streaming replica (DESIGN §7; docs/decisions.md, Read replica): the counts
// of /counts and of the builder, previews and CSV downloads. A read goes there only once the replica
// has replayed everything the primary had written when the read began (pg_current_wal_lsn), so it
// sees the user's own last write whichever process or task made it; else it goes to the primary.

/** Why a read went where it went: the label of lijstwerk_read_replica_reads_total. */
export type ReadRoute = 'replica' | 'lagging' | 'unreachable' | 'not-standby' | 'failed';

/** How the replica is waited for. */
export interface ReadReplicaOptions {
  /** How long a read waits for the replica to replay the primary's position before it reads the primary (ms). */
  waitMs: number;
  /** How often the replica's replay position is asked while waiting (ms). */
  pollMs?: number;
  /** How long an unreachable replica is left alone before it is tried again (ms). */
  retryAfterMs?: number;
  log: FastifyBaseLogger;
}

/** How long a scrape waits for the lag before it leaves it out (ms). */
const SCRAPE_WAIT_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The replica of the app's reads: `target()` answers the database a read should use, the replica
 * when it has replayed the primary's position of that moment within `waitMs`, else the primary.
 * Its metrics (reads by route, the lag) are registered in the app's registry (createMetrics).
 */
export class ReadReplica {
  /** Reads by where they went and why (ReadRoute). */
  readonly reads: Counter<'route'>;
  /** The metrics to register in the app's registry. */
  readonly metrics: Metric[];
  private readonly pollMs: number;
  private readonly retryAfterMs: number;
  private downUntil = 0;
  // The replay position is asked on connections of their own, each connect and question given up
  // after waitMs (a replica that does not answer), apart from the reads that may hold its pool.
  private readonly probes: pg.Pool;

  constructor(
    readonly primary: Database,
    readonly replica: Database,
    private readonly options: ReadReplicaOptions,
  ) {
    this.pollMs = options.pollMs ?? 10;
    this.retryAfterMs = options.retryAfterMs ?? 5000;
    this.probes = new pg.Pool({
      connectionString: replica.url,
      max: 4,
      connectionTimeoutMillis: options.waitMs,
      query_timeout: options.waitMs,
      application_name: 'lijstwerk replica probe',
    });
    // An idle probe connection losing its server must not crash the process.
    this.probes.on('error', () => {});
    this.reads = new Counter({
      name: 'lijstwerk_read_replica_reads_total',
      help: 'Reads that could go to the read replica, by where they went: replica, or the primary because the replica was lagging, unreachable or not a standby, or failed the read (read again on the primary)',
      labelNames: ['route'] as const,
      registers: [],
    });
    const lag = new Gauge({
      name: 'lijstwerk_read_replica_lag_bytes',
      help: "WAL bytes the read replica has still to replay of the primary's position, read at scrape time",
      registers: [],
      collect: async () => {
        lag.reset();
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), SCRAPE_WAIT_MS);
        });
        const behind = await Promise.race([this.lagBytes().catch(() => undefined), late]);
        clearTimeout(timer);
        if (behind !== undefined) lag.set(behind);
      },
    });
    this.metrics = [this.reads, lag];
  }

  /** The WAL bytes the replica has yet to replay of the primary's present position; undefined when not a standby. */
  async lagBytes(): Promise<number | undefined> {
    const lsn = await this.primaryLsn();
    const { rows } = await this.probes.query<{ behind: string | null }>(
      'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::text AS behind',
      [lsn],
    );
    return rows[0].behind === null ? undefined : Math.max(0, Number(rows[0].behind));
  }

  private async primaryLsn(): Promise<string> {
    const { rows } = await this.primary.pool.query<{ lsn: string }>(
      'SELECT pg_current_wal_lsn()::text AS lsn',
    );
    return rows[0].lsn;
  }

  /**
   * The database of a read: the replica once it has replayed the primary's position of now (asked
   * every pollMs up to waitMs), else the primary, with the reason counted and logged. A replica that
   * cannot be reached is left alone for retryAfterMs. Does not throw: a primary that cannot be asked
   * is read by the caller, which then fails as it would without a replica.
   */
  async target(): Promise<Database> {
    if (Date.now() < this.downUntil) return this.fallBack('unreachable');
    let lsn: string;
    try {
      lsn = await this.primaryLsn();
    } catch {
      return this.primary;
    }
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      let replayed: boolean | null | 'late';
      try {
        replayed = await this.askReplayed(lsn, deadline);
      } catch (err) {
        this.markUnreachable(err);
        return this.fallBack('unreachable');
      }
      if (replayed === 'late') {
        this.options.log.info(
          { lsn, waitMs: this.options.waitMs },
          'read replica lagging: reading the primary',
        );
        return this.fallBack('lagging');
      }
      if (replayed === null) {
        this.options.log.warn('read replica is not a standby: reading the primary');
        return this.fallBack('not-standby');
      }
      if (replayed) {
        this.reads.inc({ route: 'replica' });
        return this.replica;
      }
      if (Date.now() >= deadline) {
        this.options.log.info(
          { lsn, waitMs: this.options.waitMs },
          'read replica lagging: reading the primary',
        );
        return this.fallBack('lagging');
      }
      await sleep(this.pollMs);
    }
  }

  /**
   * Whether the replica has replayed `lsn`, null when it is no standby, 'late' when it has not
   * answered by `deadline`: a probe's own timeouts (connect, query) are each the whole wait, so one
   * that stalls near its end would hold the read up to two waits more. A late probe that then fails
   * still leaves the replica alone for retryAfterMs. Throws when the probe fails in time.
   */
  private async askReplayed(lsn: string, deadline: number): Promise<boolean | null | 'late'> {
    const asked = this.probes
      .query<{ replayed: boolean | null }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed', [lsn])
      .then(({ rows }) => rows[0].replayed);
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    const overdue = new Promise<'late'>((resolve) => {
      timer = setTimeout(
        () => {
          late = true;
          resolve('late');
        },
        Math.max(0, deadline - Date.now()),
      );
    });
    asked.catch((err) => {
      if (late) this.markUnreachable(err);
    });
    try {
      return await Promise.race([asked, overdue]);
    } finally {
      clearTimeout(timer);
    }
  }

  private markUnreachable(err: unknown): void {
    this.downUntil = Date.now() + this.retryAfterMs;
    this.options.log.warn({ err }, 'read replica unreachable: reading the primary');
  }

  /**
   * Records a read that failed on the replica and is read from the primary instead: counted as
   * 'failed', logged, and the replica left alone for retryAfterMs.
   */
  failed(err: unknown): void {
    this.downUntil = Date.now() + this.retryAfterMs;
    this.options.log.warn({ err }, 'read on the read replica failed: reading the primary');
    this.reads.inc({ route: 'failed' });
  }

  /** Closes the connections that ask the replay position (the replica's pool is its owner's to close). */
  close(): Promise<void> {
    return this.probes.end();
  }

  private fallBack(route: Exclude<ReadRoute, 'replica'>): Database {
    this.reads.inc({ route });
    return this.primary;
  }
}

/** What readDatabase needs of the app: its database and, when configured, the replica (AppContext has both). */
export interface ReadContext {
  database: Database;
  readReplica?: ReadReplica;
}

/**
 * The database a read of counts, previews or downloads uses (ReadReplica.target): the primary when
 * the app has no replica.
 */
export function readDatabase(ctx: ReadContext): Promise<Database> {
  return ctx.readReplica ? ctx.readReplica.target() : Promise.resolve(ctx.database);
}

// SQLSTATEs of a read that failed for the replica's sake: its connection (class 08), its shutdown
// or start (57P01-57P03), a conflict with its replay (40001, 40P01), a write it refuses (25006).
const REPLICA_FAILURES = /^(08...|57P0[123]|40001|40P01|25006)$/;
// The driver's errors of a connection refused, lost or not made in time.
const CONNECTION_FAILURE = /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Connection terminated|timeout exceeded/i;

/**
 * Whether a read failed for the replica's sake (REPLICA_FAILURES, CONNECTION_FAILURE) rather than
 * its own (a timeout or a client that left are HttpErrors, a wrong input fails on the primary too).
 */
export function isReplicaFailure(err: unknown): boolean {
  if (err instanceof HttpError) return false;
  const code = pgErrorCode(err);
  if (code) return REPLICA_FAILURES.test(code);
  let e = err;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    const { code: sys, message } = e as { code?: unknown; message?: unknown };
    if (CONNECTION_FAILURE.test(`${String(sys ?? '')} ${String(message ?? '')}`)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs `work` as runRequestTransaction does, on the database of readDatabase. Work that fails on
 * the replica for the replica's sake (isReplicaFailure) runs again on the primary: a replica
 * stopped or restarted since it was asked, or a statement cancelled by its recovery (a conflict
 * with replay). Only for reads, which may run twice.
 */
export async function runReadTransaction<T>(
  ctx: ReadContext & RequestTransactionContext,
  reply: FastifyReply,
  work: (tx: Db, client: pg.PoolClient) => Promise<T>,
  options: RequestTransactionOptions = {},
): Promise<T> {
  const database = await readDatabase(ctx);
  if (database === ctx.database) return runRequestTransaction(ctx, reply, work, options);
  try {
    return await runRequestTransaction({ database, config: ctx.config }, reply, work, options);
  } catch (err) {
    if (!isReplicaFailure(err)) throw err;
    ctx.readReplica?.failed(err);
    return runRequestTransaction(ctx, reply, work, options);
  }
}

/**
 * Runs `work` (a read outside a request: a count task) on the Drizzle handle of readDatabase, and
 * again on the primary's when it fails for the replica's sake (runReadTransaction).
 */
export async function withReadDb<T>(ctx: ReadContext, work: (db: Db) => Promise<T>): Promise<T> {
  const database = await readDatabase(ctx);
  if (database === ctx.database) return work(database.db);
  try {
    return await work(database.db);
  } catch (err) {
    if (!isReplicaFailure(err)) throw err;
    ctx.readReplica?.failed(err);
    return work(ctx.database.db);
  }
}

/**
 * Starts `work` as startTransactionWork does, on the database of readDatabase; work that fails on
 * the replica for the replica's sake starts again on the primary (runReadTransaction), unless it
 * was cancelled. `cancel` cancels whichever run is current.
 */
export async function startReadWork<T>(
  ctx: ReadContext & RequestTransactionContext,
  work: (tx: Db, client: pg.PoolClient) => Promise<T>,
  options: RequestTransactionOptions = {},
): Promise<TransactionWork<T>> {
  const database = await readDatabase(ctx);
  let current = startTransactionWork({ database, config: ctx.config }, work, options);
  if (database === ctx.database) return current;
  let cancelled = false;
  const done = current.done.catch((err) => {
    if (cancelled || !isReplicaFailure(err)) throw err;
    ctx.readReplica?.failed(err);
    current = startTransactionWork(ctx, work, options);
    return current.done;
  });
  return {
    done,
    cancel() {
      cancelled = true;
      current.cancel();
    },
  };
}
