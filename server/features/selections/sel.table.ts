import { getTableColumns, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  type PgColumnBuilderBase,
  pgTable,
  smallint,
  text,
} from 'drizzle-orm/pg-core';

// The selection engine's narrow tables (migrations 0025, 0027; docs/decisions.md, Narrow tables and
// the refresher): what a count reads of a record, every join done at write time. Their rows are
// derived by sel-record.sql.ts; this file is their layout's one definition, as the migrations
// created it.

/** How many attributes can have a slot in sel_record (t<k>, n<k>, d<k>: migration 0025). */
export const SLOT_COUNT = 16;

/**
 * How many records an address with several has at most for its one row in sel_multi (migration
 * 0027): its records side by side, in positions 1..MULTI_POSITIONS. An address with more keeps a
 * row per record in sel_record_multi.
 */
export const MULTI_POSITIONS = 3;

/** The hash partitions by address of sel_record_multi (migration 0025): sel_record_multi_0 .. _3. */
export const MULTI_PARTS = 4;

/** The name of part `i` (0-based) of sel_record_multi. */
export const multiPart = (i: number) => `sel_record_multi_${i}`;

/** The column of a sel_multi row holding the record column `name` of its record in position `k`. */
export const positionColumn = (k: number, name: string) => `p${k}_${name}`;

/** 1..n. */
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Slot k's three columns as `column` names them: its folded text, number and date. */
function slotColumns(k: number, column: (name: string) => string): [string, PgColumnBuilderBase][] {
  return [
    [column(`t${k}`), text(column(`t${k}`))],
    [column(`n${k}`), numeric(column(`n${k}`))],
    [column(`d${k}`), date(column(`d${k}`), { mode: 'string' })],
  ];
}

/**
 * The attribute held in each slot: given once, when the refresher first meets the attribute,
 * while a slot is free; an attribute without a slot is counted from the normalized tables.
 */
export const selSlot = pgTable(
  'sel_slot',
  {
    attr: text('attr').primaryKey(),
    slot: smallint('slot').notNull().unique('sel_slot_slot_key'),
  },
  (t) => [check('sel_slot_slot_check', sql`${t.slot} BETWEEN 1 AND ${sql.raw(String(SLOT_COUNT))}`)],
);

/**
 * A row per record of the addresses with one record or more than MULTI_POSITIONS (the others
 * are in sel_multi): the record's dataset number and slots, its address's fields, engagement facts
 * and exclusions. Partitioned by `multi` (Drizzle cannot declare it): sel_record_single holds the
 * rows counted as they stand, sel_record_multi those grouped by address, itself in MULTI_PARTS
 * hash partitions by address (multiPart) whose GROUP BYs run in parallel.
 */
export const selRecord = pgTable(
  'sel_record',
  {
    addressId: bigint('address_id', { mode: 'number' }).notNull(),
    ds: integer('ds').notNull(),
    multi: boolean('multi').notNull(),
    clicked: boolean('clicked').notNull(),
    opened: boolean('opened').notNull(),
    sentCount: integer('sent_count').notNull(),
    hardBounced: boolean('hard_bounced').notNull(),
    blacklisted: boolean('blacklisted').notNull(),
    partnerBlocked: boolean('partner_blocked').notNull(),
    email: text('email').notNull(),
    domain: text('domain').notNull(),
    // Empty arrays are NULL.
    os: text('os').array(),
    openInterests: text('open_interests').array(),
    clickInterests: text('click_interests').array(),
    ...Object.fromEntries(upTo(SLOT_COUNT).flatMap((k) => slotColumns(k, (name) => name))),
  },
  (t) => [index('sel_record_address').on(t.addressId)],
);

/** The columns of a sel_multi row for the record in position k (NOT NULL for the two every row has). */
function positionColumns(k: number): [string, PgColumnBuilderBase][] {
  const ds = integer(positionColumn(k, 'ds'));
  const blocked = boolean(positionColumn(k, 'partner_blocked'));
  return [
    [positionColumn(k, 'ds'), k <= 2 ? ds.notNull() : ds],
    [positionColumn(k, 'partner_blocked'), k <= 2 ? blocked.notNull() : blocked],
  ];
}

/**
 * One row per address with 2..MULTI_POSITIONS records: the address's columns of sel_record once,
 * each record's (p<k>_ prefixed: positionColumn) in dataset number order, p3 NULL for two records.
 * The fixed-width columns first, then the text, then the slots slot by slot (the positions of slot
 * 1, of slot 2, ...): a count deforms each row up to the last column it reads.
 */
export const selMulti = pgTable('sel_multi', {
  addressId: bigint('address_id', { mode: 'number' }).primaryKey(),
  clicked: boolean('clicked').notNull(),
  opened: boolean('opened').notNull(),
  sentCount: integer('sent_count').notNull(),
  hardBounced: boolean('hard_bounced').notNull(),
  blacklisted: boolean('blacklisted').notNull(),
  ...Object.fromEntries(upTo(MULTI_POSITIONS).flatMap(positionColumns)),
  email: text('email').notNull(),
  domain: text('domain').notNull(),
  os: text('os').array(),
  openInterests: text('open_interests').array(),
  clickInterests: text('click_interests').array(),
  ...Object.fromEntries(
    upTo(SLOT_COUNT).flatMap((slot) =>
      upTo(MULTI_POSITIONS).flatMap((k) => slotColumns(slot, (name) => positionColumn(k, name))),
    ),
  ),
});

/**
 * Addresses whose sel_record rows may be stale: every writer of what the rows derive from adds
 * the addresses it touched in its own transaction (duplicates allowed: no key to wait on), a
 * writer of records with the record's dataset; the refresher takes them out in the transaction
 * that rewrites their rows.
 */
export const selDirty = pgTable('sel_dirty', {
  addressId: bigint('address_id', { mode: 'number' }).notNull(),
  datasetId: text('dataset_id'),
});

/** The SQL names of a table's columns, in table order. */
const columnNames = (table: typeof selRecord | typeof selMulti) =>
  Object.values(getTableColumns(table)).map((c) => c.name);

/** The columns of sel_record, in table order. */
export const SEL_RECORD_COLUMNS: readonly string[] = columnNames(selRecord);

/** The address's columns of a sel_multi row (sel_record's, once), in table order. */
export const ADDRESS_COLUMNS: readonly string[] = columnNames(selMulti).filter((c) => !/^p\d+_/.test(c));

/** A record's columns (sel_record's), on a sel_multi row once per position with the prefix p<k>_. */
export const RECORD_COLUMNS: readonly string[] = SEL_RECORD_COLUMNS.filter(
  (c) => c !== 'multi' && !ADDRESS_COLUMNS.includes(c),
);
