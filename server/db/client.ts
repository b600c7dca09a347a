import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

/** The Drizzle database instance over the app's schema. */
export type Db = NodePgDatabase<typeof schema>;

/** The app's database handle: the Drizzle instance and its pg pool. */
export interface Database {
  db: Db;
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

// bigint (int8) and numeric come back as JS numbers; counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** The folder of the committed migrations (meta/_journal.json lists them in order). */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens a pool to `url`; returns the Drizzle handle. */
export function openDatabase(url: string, max = 20): Database {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'lijstwerk' });
  // A client losing its connection must not crash the process: an idle one reports it to the pool,
  // a checked-out one (between the statements of a transaction, say) to its own 'error' listeners,
  // which the pool removes on checkout; this one stays. Its next query fails instead, and the pool
  // drops a client that can no longer query when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema });
  return { db, pool, url, close: () => pool.end() };
}

/** Applies the committed migrations under an advisory lock, so parallel starts do not race. */
export async function migrateDatabase(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727001)');
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
}

/** A database handle or an open transaction: query functions take either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

// One Drizzle handle per pool connection, made when first asked for: making one walks the whole
// schema's relations, which cost a short call (a partner API write) more than some of its queries.
const clientDbs = new WeakMap<pg.PoolClient, Db>();

/** The Drizzle handle on a connection (e.g. one in a transaction), for query functions that take a Db. */
export function clientDb(client: pg.PoolClient): Db {
  let db = clientDbs.get(client);
  if (!db) {
    db = drizzle(client, { schema });
    clientDbs.set(client, db);
  }
  return db;
}

/** How withClientTransaction begins its transaction. */
export interface ClientTransactionOptions {
  /** The isolation level; PostgreSQL's default (READ COMMITTED) when left out. */
  isolation?: 'REPEATABLE READ' | 'SERIALIZABLE';
  /**
   * A session-level advisory lock (its two keys) taken before BEGIN and let go after COMMIT, so the
   * transaction's snapshot (taken by its first statement) sees all that the lock's previous holder
   * committed: work that must run one at a time and read one snapshot (REPEATABLE READ) takes it.
   */
  sessionLock?: readonly [number, number];
}

/**
 * Runs `fn` in a transaction on one pool connection and gives it both the Drizzle handle and the
 * pg client (for COPY streams inside the transaction). Commits when `fn` resolves, else rolls back
 * (closing the connection) and rethrows. With `sessionLock`, waits for that lock first and lets it
 * go after the commit; a failed transaction's connection is closed, which lets it go too (also when
 * the connection was lost). The one way a pg client runs a transaction, except three
 * that need their connection around it: the partner API's writes (partner-api.service.ts
 * inDatasetTransaction) commit inside their write slot and keep a connection whose rollback
 * succeeded, the refresher (sel-record.sql.ts underRefreshLock) takes its session lock before
 * the transaction's snapshot, and a request's statements (request-transaction.ts) are cancelled
 * by their backend's pid before the connection goes back.
 */
export async function withClientTransaction<T>(
  database: Pick<Database, 'pool'>,
  fn: (tx: Db, client: pg.PoolClient) => Promise<T>,
  options: ClientTransactionOptions = {},
): Promise<T> {
  const client = await database.pool.connect();
  const lock = options.sessionLock;
  let broken = false;
  try {
    if (lock) await client.query('SELECT pg_advisory_lock($1, $2)', [lock[0], lock[1]]);
    await client.query(options.isolation ? `BEGIN ISOLATION LEVEL ${options.isolation}` : 'BEGIN');
    const result = await fn(clientDb(client), client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A COPY broken off half-way can leave the connection unusable: after a failure it is closed,
    // not given back to the pool (and its session's lock goes with it).
    broken = true;
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    if (lock && !broken) {
      // After the commit: the next holder's snapshot sees it.
      await client.query('SELECT pg_advisory_unlock($1, $2)', [lock[0], lock[1]]).catch(() => {
        broken = true;
      });
    }
    client.release(broken);
  }
}
