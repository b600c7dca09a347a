import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { type DbOrTx, withClientTransaction } from '../../db/client';
import { pgErrorCode } from '../../lib/pg-errors';

// Statements on `records` and its partitions. The tasks that rewrite a dataset's records keep
// their ordered series of set-based statements in their services (import, remap, delete from
// file: docs/decisions.md, Import pipeline), the CSV download its cursor in csv-download.ts.

/**
 * The records of each dataset are a partition of `records` of their own (migration 0010,
 * docs/decisions.md, Database and data model), named by this function and by its SQL twin
 * lw_records_partition.
 */
export function recordsPartition(datasetId: string): string {
  return `records_${createHash('md5').update(datasetId).digest('hex')}`;
}

/** Whether a dataset holds any record (an index probe, whatever its size). */
export async function datasetHasRecords(db: DbOrTx, datasetId: string): Promise<boolean> {
  const result = await db.execute<{ found: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM records WHERE dataset_id = ${datasetId}) AS found`,
  );
  return result.rows[0]?.found === true;
}

/**
 * The distinct trimmed values at a raw position of a dataset's records with how many records hold
 * each ('' for none), most frequent first, at most 1000. Position 0 (a column no file of the
 * dataset had; raw[0] is NULL) gives one row of '' for all records.
 */
export async function countRawValues(
  db: DbOrTx,
  datasetId: string,
  position: number,
): Promise<{ value: string; amount: number }[]> {
  const result = await db.execute<{ value: string; amount: number }>(sql`
    SELECT coalesce(btrim(raw[${position}::int]), '') AS value, count(*)::int AS amount
    FROM records WHERE dataset_id = ${datasetId}
    GROUP BY 1 ORDER BY amount DESC, value LIMIT 1000`);
  return result.rows;
}

/**
 * The state of a dataset's partition: none (no import yet), attached (part of `records`), or
 * detached (a first import's table being filled, or left by a first import that died).
 */
export async function partitionState(
  tx: DbOrTx,
  datasetId: string,
): Promise<'none' | 'attached' | 'detached'> {
  const result = await tx.execute<{ state: 'none' | 'attached' | 'detached' }>(sql`
    SELECT CASE WHEN c.oid IS NULL THEN 'none'
      WHEN EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid) THEN 'attached' ELSE 'detached' END AS state
    FROM (SELECT to_regclass(quote_ident(${recordsPartition(datasetId)})) AS oid) c`);
  return result.rows[0]?.state ?? 'none';
}

/**
 * Creates the dataset's partition as a plain table, not yet part of `records`: a first import
 * fills it without index and then calls attachPartition (a million records: 3.6 s instead of 4.4 s
 * into an indexed partition, 7.8 s into the former single table, on the PostgreSQL 15 server).
 * Its CHECK constraint lets the attach skip scanning the rows. On a connection outside the
 * import's transaction the table is committed at once (or, as a first import's writer does, with
 * its rows, frozen by COPY FREEZE): other connections can then change it, and only the attach
 * makes its records part of the dataset.
 */
export async function createDetachedPartition(client: pg.ClientBase, datasetId: string): Promise<string> {
  const name = recordsPartition(datasetId);
  await client.query(`
    CREATE TABLE "${name}" (LIKE records INCLUDING DEFAULTS,
      CONSTRAINT "${name}_dataset" CHECK (dataset_id = ${literal(datasetId)}))`);
  return name;
}

/** A row when the table named $1 exists and is not a partition of records. */
const IS_DETACHED = `SELECT 1 FROM pg_class c WHERE c.oid = to_regclass(quote_ident($1))
  AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)`;

/**
 * Drops the dataset's table if it is (still) detached, waiting at most DROP_LOCK_TIMEOUT, on a
 * connection of its own (committed at once). Callers hold the dataset row locked: the table is
 * then one a dead first import left, or their own that failed. False when it is left for the
 * sweep (dropDeadDetachedPartitions) or the dataset's next import.
 */
export async function dropDetachedPartition(pool: pg.Pool, datasetId: string): Promise<boolean> {
  const name = recordsPartition(datasetId);
  const isDetached = async (c: pg.PoolClient) => (await c.query(IS_DETACHED, [name])).rows.length > 0;
  return (await dropTable(pool, name, isDetached)) !== 'busy';
}

/**
 * Drops table `name` in a transaction of its own when `guard` (run first, in that transaction)
 * allows it, waiting at most DROP_LOCK_TIMEOUT for its lock: 'busy' when the lock did not come,
 * 'skipped' when the guard said no.
 */
async function dropTable(
  pool: pg.Pool,
  name: string,
  guard?: (client: pg.PoolClient) => Promise<boolean>,
): Promise<'dropped' | 'skipped' | 'busy'> {
  try {
    return await withClientTransaction({ pool }, async (_tx, client) => {
      await client.query(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
      const allowed = guard ? await guard(client) : true;
      if (allowed) await client.query(`DROP TABLE IF EXISTS "${name}"`);
      return allowed ? 'dropped' : 'skipped';
    });
  } catch (err) {
    if (pgErrorCode(err) !== LOCK_NOT_AVAILABLE) throw err;
    return 'busy';
  }
}

/**
 * Indexes a partition made by createDetachedPartition (one sorted build) and attaches it to
 * `records`. The attach locks `records` only against other attaches and detaches (SHARE UPDATE
 * EXCLUSIVE) until the transaction ends, so callers do it last.
 */
export async function attachPartition(tx: DbOrTx, datasetId: string): Promise<void> {
  const name = recordsPartition(datasetId);
  await tx.execute(
    sql`ALTER TABLE ${sql.identifier(name)} ADD CONSTRAINT ${sql.identifier(`${name}_pkey`)} PRIMARY KEY (address_id)`,
  );
  await tx.execute(
    sql`ALTER TABLE records ATTACH PARTITION ${sql.identifier(name)} FOR VALUES IN (${sql.raw(literal(datasetId))})`,
  );
}

/** A string as an SQL literal (DDL takes no parameters). */
function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Drops the partitions of deleted datasets (their deletion emptied them at once; see
 * lw_delete_dataset_records). Dropping a partition locks all of `records`, so each drop waits at
 * most DROP_LOCK_TIMEOUT for the transactions using it and is otherwise left for the next sweep:
 * a short wait holds up other users of records only briefly, and gives up before PostgreSQL's
 * deadlock check (deadlock_timeout, 1 s by default) could cancel an import waiting behind it.
 * (DETACH ... CONCURRENTLY would not block readers, but holds its lock while it waits, which an
 * import attaching its partition meanwhile deadlocks with.) Returns the names dropped.
 */
export async function dropOrphanPartitions(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(`
    SELECT c.relname AS name FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      AND c.relname ~ '^records_[0-9a-f]{32}$'
      AND NOT EXISTS (SELECT 1 FROM datasets d WHERE lw_records_partition(d.id) = c.relname)
    ORDER BY 1`);
  const dropped: string[] = [];
  for (const { name } of rows) if ((await dropTable(pool, name)) === 'dropped') dropped.push(name);
  return dropped;
}

/** How long a sweep waits to drop a partition (below PostgreSQL's default deadlock_timeout of 1 s). */
export const DROP_LOCK_TIMEOUT = '200ms';
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Drops the detached record tables of existing datasets: a first import fills its table outside
 * its transaction and attaches it last, so one that died leaves its table behind. Each drop holds
 * the dataset row locked (an import holds it from start to end; SKIP LOCKED leaves the table of a
 * running import alone) and checks again that the table is still detached. The next first import
 * of the dataset drops such a table too. Returns the names dropped.
 */
export async function dropDeadDetachedPartitions(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string; id: string }>(`
    SELECT c.relname AS name, d.id FROM pg_class c JOIN datasets d ON lw_records_partition(d.id) = c.relname
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)
    ORDER BY 1`);
  const dropped: string[] = [];
  for (const { name, id } of rows) {
    const result = await dropTable(pool, name, async (c) => {
      const locked = await c.query('SELECT id FROM datasets WHERE id = $1 FOR UPDATE SKIP LOCKED', [id]);
      return locked.rows.length > 0 && (await c.query(IS_DETACHED, [name])).rows.length > 0;
    });
    if (result === 'dropped') dropped.push(name);
  }
  return dropped;
}

/** The first `limit` records of a dataset by address id, with their e-mail, raw values and attrs (the mapping screen's preview). */
export async function listRecordSample(
  db: DbOrTx,
  datasetId: string,
  limit: number,
): Promise<{ email: string; raw: (string | null)[]; attrs: Record<string, unknown> }[]> {
  const result = await db.execute<{
    email: string;
    raw: (string | null)[] | null;
    attrs: Record<string, unknown>;
  }>(sql`
    SELECT a.email, r.raw, r.attrs FROM records r JOIN addresses a ON a.id = r.address_id
    WHERE r.dataset_id = ${datasetId} ORDER BY r.address_id LIMIT ${limit}`);
  return result.rows.map((r) => ({ email: r.email, raw: r.raw ?? [], attrs: r.attrs ?? {} }));
}
