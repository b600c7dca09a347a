import { bigint, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per unique e-mail address (lower-cased, trimmed), with everything about the person's
 * behaviour kept once (DESIGN §3).
 */
export const addresses = pgTable(
  'addresses',
  {
    // A cache of ids per session: an import takes a million of them in one statement.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity({ cache: 1000 }),
    // COLLATE "C" (migration 0005): compared for equality only, byte order is twice as fast.
    email: text('email').notNull().unique('addresses_email_key'),
    domain: text('domain').notNull(),
    sentCount: integer('sent_count').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    lastOpenAt: timestamp('last_open_at', { withTimezone: true }),
    lastClickAt: timestamp('last_click_at', { withTimezone: true }),
    hardBouncedAt: timestamp('hard_bounced_at', { withTimezone: true }),
    os: text('os').array().notNull().default([]),
    openInterests: text('open_interests').array().notNull().default([]),
    clickInterests: text('click_interests').array().notNull().default([]),
    // Set when the address was erased (AVG art. 17): the row stays, pseudonymised (its e-mail
    // replaced, its behaviour cleared), so the mailings it was in keep their counts and history.
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  // No index on domain: what reads it (blacklisted domains, the DNS check) joins or groups whole
  // sets, where a hash join beats an index, and each index costs every import ~1.5 µs a new address.
);

/**
 * Membership of an address in a dataset: the partner's original columns (raw, so remap never
 * needs the file again) and the mapped global attributes (attrs; encrypted ones as ciphertext
 * plus an HMAC blind index).
 *
 * Partitioned by dataset (migration 0010, docs/decisions.md, Database and data model; Drizzle
 * cannot declare it): each dataset's records are a table of their own (`recordsPartition`) with one
 * index, its primary key (address_id). A dataset's first import fills its table before indexing and
 * attaching it.
 */
export const records = pgTable(
  'records',
  {
    // No foreign key: its check cost ~7.6 µs for every inserted record (a third of an import's
    // INSERT). A statement trigger on datasets deletes the records of deleted datasets (migration 0007).
    datasetId: text('dataset_id').notNull(),
    addressId: bigint('address_id', { mode: 'number' }).notNull(),
    // The partner's original columns as text[], positioned by the dataset's raw_columns
    // (dataset_mappings): half the bytes of a jsonb object and no keys to build a row (DESIGN
    // change, docs/decisions.md, Database and data model).
    raw: text('raw').array().notNull(),
    attrs: jsonb('attrs').$type<Record<string, string>>().notNull(),
    // md5 of raw and attrs (ciphertext left out): a re-import or remap writes only changed records.
    rowHash: text('row_hash'),
    // Hash of the raw columns alone: a re-import with the mapping last applied skips mapping a
    // row whose raw columns are unchanged (its row_hash is then unchanged too).
    rawHash: text('raw_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // No primary key or index here: each partition has its own primary key (address_id).
);
