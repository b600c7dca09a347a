import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Database, type DbOrTx, withClientTransaction } from '../../db/client';
import type { ColumnKeys } from '../../lib/crypto';
import { isAddressRace } from '../../lib/pg-errors';
import { suppressedSql } from '../avg/suppression';
import { datasets } from '../datasets/dataset.table';
import { tasks } from '../tasks/task.table';

/** A dataset by partner and name (the upload route addresses it by name); undefined when absent. */
export async function getDatasetByName(db: DbOrTx, partnerId: string, name: string) {
  const [row] = await db
    .select()
    .from(datasets)
    .where(and(eq(datasets.partnerId, partnerId), eq(datasets.name, name)))
    .limit(1);
  return row;
}

/** Locks a dataset row for the rest of the transaction (one import or remap at a time); false when gone. */
export async function lockDatasetForImport(tx: DbOrTx, datasetId: string): Promise<boolean> {
  const result = await tx.execute(sql`SELECT id FROM datasets WHERE id = ${datasetId} FOR UPDATE`);
  return result.rows.length > 0;
}

/** A dataset's stored record count (0 when it is gone). */
export async function getRecordCount(db: DbOrTx, datasetId: string): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`SELECT record_count AS n FROM datasets WHERE id = ${datasetId}`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** The planner's estimate of the number of addresses (no count of a table of millions). */
export async function estimatedAddressCount(tx: DbOrTx): Promise<number> {
  const result = await tx.execute<{ n: number }>(
    sql`SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'addresses'::regclass`,
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** Sets a dataset's record count when the caller knows it from its own counters (the dataset row locked). */
export async function setRecordCount(tx: DbOrTx, datasetId: string, count: number): Promise<void> {
  await tx.execute(
    sql`UPDATE datasets SET record_count = ${count}, updated_at = now() WHERE id = ${datasetId}`,
  );
}

/** Recounts a dataset's records into datasets.record_count; returns the count. */
export async function refreshRecordCount(tx: DbOrTx, datasetId: string): Promise<number> {
  const result = await tx.execute<{ n: number }>(sql`
    UPDATE datasets SET record_count = (SELECT count(*) FROM records WHERE dataset_id = ${datasetId}), updated_at = now()
    WHERE id = ${datasetId} RETURNING record_count AS n`);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Staging tables (and a first import's tables named after them, getFirstImportTables) whose task is no
 * longer receiving or running (left by a killed process).
 */
export async function listOrphanStagingTables(db: DbOrTx): Promise<string[]> {
  const result = await db.execute<{ tablename: string }>(sql`
    SELECT t.tablename FROM pg_tables t
    WHERE t.schemaname = current_schema() AND t.tablename LIKE 'stg\\_%'
      AND NOT EXISTS (
        SELECT 1 FROM ${tasks} k
        WHERE (t.tablename = 'stg_' || k.id OR t.tablename LIKE 'stg\\_' || k.id || '\\_%')
          AND k.state NOT IN ('done', 'failed'))`);
  return result.rows.map((r) => r.tablename);
}

/**
 * Inserts the addresses of the temporary table `k` (email, key) that do not exist yet, in e-mail
 * order (rows that brought their record's address id, `key`, exist). An anti-join finds them
 * (on a re-import nearly all exist, and ON CONFLICT would try each); they go in by a plain
 * INSERT, cheaper than ON CONFLICT, inside a savepoint: should another import add one of them
 * meanwhile (or a deadlock with one choose this insert), the insert is repeated with ON CONFLICT
 * DO NOTHING.
 */
export async function insertNewAddresses(tx: DbOrTx): Promise<void> {
  const insert = (onConflict: SQL) => sql`
    INSERT INTO addresses (email, domain)
    SELECT k.email, split_part(k.email, '@', 2) FROM k
    WHERE k.key IS NULL AND NOT EXISTS (SELECT 1 FROM addresses a WHERE a.email = k.email)
    ORDER BY k.email ${onConflict}`;
  await tx.execute(sql`SAVEPOINT new_addresses`);
  try {
    await tx.execute(insert(sql``));
    await tx.execute(sql`RELEASE SAVEPOINT new_addresses`);
  } catch (err) {
    if (!isAddressRace(err)) throw err;
    await tx.execute(sql`ROLLBACK TO SAVEPOINT new_addresses`);
    await tx.execute(insert(sql`ON CONFLICT (email) DO NOTHING`));
  }
}

/**
 * Takes the erased addresses out of the temporary table `k` (email, key) into the temporary table
 * `ke` (email): only e-mails of new addresses (no key) are hashed, since an erased e-mail is never
 * stored (docs/decisions.md, AVG erasure). Returns how many e-mails were erased. Call it only
 * while some suppression exists (anySuppressions) and the transaction holds off erasure.
 */
export async function removeErasedFirstRows(tx: DbOrTx, keys: ColumnKeys): Promise<number> {
  await tx.execute(sql`
    CREATE TEMP TABLE ke ON COMMIT DROP AS
    SELECT k.email FROM k WHERE k.key IS NULL AND ${suppressedSql(keys, sql`k.email`)}`);
  await tx.execute(sql`ANALYZE ke`);
  const removed = await tx.execute(sql`DELETE FROM k USING ke WHERE k.email = ke.email`);
  return Number(removed.rowCount ?? 0);
}

/**
 * Reserves `count` consecutive address ids, base + 1 to base + count, and returns base: a first
 * import gives the new address of the row at line ln the id base + ln, in one set-based statement
 * (nextval a row is neither parallel nor free). In a transaction of its own, an ALTER SEQUENCE
 * that changes nothing takes the lock that holds off every nextval of the sequence until the
 * commit; meanwhile the block is cut off above the last value handed out (to any session's cache
 * too, so no cached value falls inside it).
 */
export async function reserveAddressIds(database: Database, count: number): Promise<number> {
  return withClientTransaction(database, async (_tx, client) => {
    const { rows } = await client.query<{ seq: string }>(
      `SELECT pg_get_serial_sequence('addresses', 'id') AS seq`,
    );
    const seq = rows[0].seq;
    await client.query(`ALTER SEQUENCE ${seq} INCREMENT BY 1`);
    const last = await client.query<{ last: string }>(`SELECT last_value::text AS last FROM ${seq}`);
    const base = Number(last.rows[0].last);
    await client.query('SELECT setval($1::regclass, $2::bigint)', [seq, base + Math.max(1, count)]);
    return base;
  });
}
