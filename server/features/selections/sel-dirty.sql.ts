import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bigintArray } from '../../lib/pg-array';
import { MULTI_POSITIONS, positionColumn } from './sel.table';

// The writers of records mark each record they insert, change or delete, with its dataset
// (sel-record.sql.ts, markSelDirtyRecords). A delete must mark in its own statement: once it ran,
// the records that named the addresses are gone. (addresses, datasets and the blacklists are
// marked by the statement triggers of migration 0026.)

/**
 * `write` (a DELETE or UPDATE of records ... RETURNING `address_id` and `dataset_id`) with the
 * records it returns added to sel_dirty, as one statement; its rowCount is the rows `write`
 * returned.
 */
export function markingSelDirty(write: SQL): SQL {
  return sql`WITH sel_written AS (${write})
    INSERT INTO sel_dirty (address_id, dataset_id) SELECT address_id, dataset_id FROM sel_written`;
}

/**
 * markingSelDirty's CTE for the partner API's statements, written as text on a pg client: a WITH
 * item named `name` that adds the records of the WITH item `from` (its `address_id` and
 * `dataset_id`) to sel_dirty.
 */
export function markSelDirtyCte(name: string, from: string): string {
  return `${name} AS (INSERT INTO sel_dirty (address_id, dataset_id) SELECT address_id, dataset_id FROM ${from})`;
}

/**
 * Where the records of some marked addresses are, as a statement of rows (part, ids): each
 * dataset's records partition (that is part of records: a dataset deleted since its mark has none)
 * with the ids (a bigint[] as text) of the addresses to read in it. An address's records are in the
 * datasets of its marks and of its present narrow rows: every record written since its rows were
 * made was marked with its dataset, in the writer's transaction. `marks`: a statement of rows
 * (address_id, dataset_id) holding every mark of the addresses `addresses` (a bigint[]), read in the
 * same snapshot as the narrow rows. The refresher reads them so, and the counts of /counts.
 */
export function recordPartitionsSql(marks: SQL, addresses: SQL): SQL {
  const positions = Array.from({ length: MULTI_POSITIONS }, (_, i) => `(m.${positionColumn(i + 1, 'ds')})`);
  return sql`
    WITH marks AS (${marks}),
    pairs AS (
      SELECT address_id, dataset_id FROM marks WHERE dataset_id IS NOT NULL
      UNION
      SELECT s.address_id, d.id FROM sel_record s JOIN datasets d ON d.num = s.ds
      WHERE s.address_id = ANY(${addresses})
      UNION
      SELECT m.address_id, d.id FROM sel_multi m
        CROSS JOIN LATERAL (VALUES ${sql.raw(positions.join(', '))}) p(ds)
        JOIN datasets d ON d.num = p.ds
      WHERE m.address_id = ANY(${addresses}))
    SELECT g.part, g.ids
    FROM (SELECT lw_records_partition(dataset_id) AS part, array_agg(address_id)::text AS ids
      FROM pairs GROUP BY dataset_id) g
    WHERE EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhparent = 'records'::regclass
      AND i.inhrelid = to_regclass(quote_ident(g.part)))`;
}

/** The records partitions to read for some dirty addresses, each with its addresses (a bigint[] as text). */
export type DirtyPartitions = { part: string; ids: string }[];

/**
 * Where the records of the addresses `dirty` are, read in the caller's snapshot (recordPartitionsSql
 * of their marks): the statement that reads them must share that snapshot (REPEATABLE READ), as a
 * record written after it in another dataset would be missed.
 */
export async function dirtyPartitions(db: DbOrTx, dirty: number[]): Promise<DirtyPartitions> {
  if (dirty.length === 0) return [];
  const addresses = bigintArray(dirty);
  const { rows } = await db.execute(
    recordPartitionsSql(
      sql`SELECT address_id, dataset_id FROM sel_dirty WHERE address_id = ANY(${addresses})`,
      addresses,
    ),
  );
  return rows as DirtyPartitions;
}

/**
 * The records of `partitions` as a FROM item with records' columns `columns` (a list of column
 * names): each partition named and read by its key. Through the partitioned parent the planner
 * planned a scan of every partition, expecting a fifth of each one's rows to match (docs/performance.md,
 * The builder; #counts).
 */
export function recordsInPartitionsSql(partitions: DirtyPartitions, columns: string): SQL {
  const list = sql.raw(columns);
  const reads = partitions.map(
    (p) => sql`SELECT ${list} FROM ${sql.identifier(p.part)} WHERE address_id = ANY(${p.ids}::bigint[])`,
  );
  return sql`(${reads.length > 0 ? sql.join(reads, sql` UNION ALL `) : sql`SELECT ${list} FROM records WHERE FALSE`})`;
}
