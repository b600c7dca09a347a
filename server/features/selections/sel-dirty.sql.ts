import { type SQL, sql } from 'drizzle-orm';

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
