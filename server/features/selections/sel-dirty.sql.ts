import { type SQL, sql } from 'drizzle-orm';

// The writers of records mark the addresses whose sel_record rows they may change
// (sel-record.sql.ts, markSelDirty). A delete must mark in its own statement: once it ran, the
// records that named the addresses are gone. (addresses, datasets and the blacklists are marked by
// the statement triggers of migration 0026.)

/**
 * `write` (a DELETE or UPDATE ... RETURNING the address ids as `address_id`) with the addresses it
 * returns added to sel_dirty, as one statement; its rowCount is the rows `write` returned.
 */
export function markingSelDirty(write: SQL): SQL {
  return sql`WITH sel_written AS (${write}) INSERT INTO sel_dirty (address_id) SELECT address_id FROM sel_written`;
}

/**
 * markingSelDirty's CTE for the partner API's statements, written as text on a pg client: a WITH
 * item named `name` that adds the `address_id`s of the WITH item `from` to sel_dirty.
 */
export function markSelDirtyCte(name: string, from: string): string {
  return `${name} AS (INSERT INTO sel_dirty (address_id) SELECT address_id FROM ${from})`;
}
