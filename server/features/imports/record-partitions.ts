import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx } from '../../db/client';

/**
 * The records of each dataset are a partition of `records` of their own (migration 0010,
 * docs/decisions.md), named by this function and by its SQL twin lw_records_partition.
 */
export function recordsPartition(datasetId: string): string {
  return `records_${createHash('md5').update(datasetId).digest('hex')}`;
}

/** Whether the dataset's partition exists (a dataset gets one with its first import). */
export async function partitionExists(tx: DbOrTx, datasetId: string): Promise<boolean> {
  const result = await tx.execute<{ found: boolean }>(
    sql`SELECT to_regclass(quote_ident(${recordsPartition(datasetId)})) IS NOT NULL AS found`,
  );
  return result.rows[0]?.found === true;
}

/**
 * Creates the dataset's partition as a plain table, not yet part of `records`: a first import
 * fills it without index and then calls attachPartition (a million records: 3.6 s instead of 4.4 s
 * into an indexed partition, 7.8 s into the former single table, on the PostgreSQL 15 server).
 * Its CHECK constraint lets the attach skip scanning the rows.
 */
export async function createDetachedPartition(tx: DbOrTx, datasetId: string): Promise<string> {
  const name = recordsPartition(datasetId);
  await tx.execute(sql`
    CREATE TABLE ${sql.identifier(name)} (LIKE records INCLUDING DEFAULTS,
      CONSTRAINT ${sql.identifier(`${name}_dataset`)} CHECK (dataset_id = ${sql.raw(literal(datasetId))}))`);
  return name;
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
 * Detaches and drops the partitions of deleted datasets (their deletion emptied them at once; see
 * lw_delete_dataset_records). DETACH ... CONCURRENTLY runs outside a transaction and never blocks
 * readers of `records`; one left half-way by a crash is finished with FINALIZE. Returns the names.
 */
export async function dropOrphanPartitions(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string; attached: boolean; pending: boolean }>(`
    SELECT c.relname AS name, i.inhrelid IS NOT NULL AS attached, coalesce(i.inhdetachpending, false) AS pending
    FROM pg_class c
    LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'records'::regclass
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      AND c.relname ~ '^records_[0-9a-f]{32}$'
      AND NOT EXISTS (SELECT 1 FROM datasets d WHERE lw_records_partition(d.id) = c.relname)`);
  for (const { name, attached, pending } of rows) {
    const table = `"${name}"`;
    if (attached)
      await pool.query(
        `ALTER TABLE records DETACH PARTITION ${table} ${pending ? 'FINALIZE' : 'CONCURRENTLY'}`,
      );
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
  }
  return rows.map((r) => r.name);
}
