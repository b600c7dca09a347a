import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

// The counters of /counts (migration 0029; docs/decisions.md, Counts at scale): the rows of the
// selection engine's narrow tables (selections/sel.table.ts) counted by what a count of /counts
// reads of them, kept equal to those rows by statement triggers on sel_record and sel_multi in the
// transaction that writes them.

/**
 * How many units of the narrow rows share one key (`n`): a unit is a record (`kind` 'record', `ds`
 * its dataset number) or an address with one record or two or three (`kind` 'address', `ds` 0,
 * `partner_blocked` when every one of its records is blocked by its partner-dataset entry), with
 * its address's engagement facts and exclusions; `src` the table the rows are in (a TRUNCATE of
 * one clears its part). Units of the addresses with more than three records (sel_record_multi) are
 * records only: a count groups those rows by address itself. `n` may be 0 for a key whose rows are
 * gone.
 */
export const selCount = pgTable(
  'sel_count',
  {
    src: text('src').notNull(),
    kind: text('kind').notNull(),
    ds: integer('ds').notNull(),
    clicked: boolean('clicked').notNull(),
    opened: boolean('opened').notNull(),
    sentCount: integer('sent_count').notNull(),
    hardBounced: boolean('hard_bounced').notNull(),
    blacklisted: boolean('blacklisted').notNull(),
    partnerBlocked: boolean('partner_blocked').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'sel_count_pkey',
      columns: [
        t.src,
        t.kind,
        t.ds,
        t.clicked,
        t.opened,
        t.sentCount,
        t.hardBounced,
        t.blacklisted,
        t.partnerBlocked,
      ],
    }),
    check('sel_count_src_check', sql`${t.src} IN ('sel_record', 'sel_multi')`),
    check('sel_count_kind_check', sql`${t.kind} IN ('record', 'address')`),
  ],
);
