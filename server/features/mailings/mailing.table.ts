import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { campaigns } from '../campaigns/campaign.table';

/**
 * A mailing (verzending) of a campaign (spec 001 §3). Its state decides mail pressure (DESIGN §4):
 * draft only counts, final reserves its addresses, offered counts as sent, cancelled frees them.
 */
export const mailings = pgTable(
  'mailings',
  {
    id: text('id').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    state: text('state').notNull().default('draft'),
    plannedSend: timestamp('planned_send', { withTimezone: true }).notNull().defaultNow(),
    budget: text('budget').notNull().default(''),
    addresses: integer('addresses').notNull().default(0),
    interests: text('interests').array().notNull().default([]),
    externalParty: text('external_party').notNull().default('tripolis'),
    externalIds: text('external_ids').array().notNull().default([]),
    recordCount: integer('record_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mailings_campaign_idx').on(t.campaignId),
    index('mailings_state_send_idx').on(t.state, t.plannedSend),
    check('mailings_state_check', sql`${t.state} IN ('draft', 'final', 'offered', 'cancelled')`),
  ],
);

/**
 * An address allocated to a mailing: from which dataset, by which selection, and its engagement
 * category at allocation. Never an address twice in one mailing (the primary key, not a check in code).
 * No foreign keys to mailings and selections: their checks locked the mailing's and the selection's
 * row once for every allocated address (half a second of an allocation of 100,000); statement
 * triggers delete the addresses of deleted mailings and selections instead (migration 0023).
 */
export const mailingAddresses = pgTable(
  'mailing_addresses',
  {
    mailingId: text('mailing_id').notNull(),
    addressId: bigint('address_id', { mode: 'number' }).notNull(),
    datasetId: text('dataset_id').notNull(),
    selectionId: text('selection_id').notNull(),
    category: text('category').notNull(),
  },
  (t) => [
    primaryKey({ name: 'mailing_addresses_pkey', columns: [t.mailingId, t.addressId] }),
    index('mailing_addresses_address_idx').on(t.addressId),
    index('mailing_addresses_selection_idx').on(t.selectionId),
    check(
      'mailing_addresses_category_check',
      sql`${t.category} IN ('new', 'notOpenedOrClicked', 'opens', 'clicks')`,
    ),
  ],
);

/**
 * A result event of a mailing for one address (DESIGN §6), from a results file or a provider.
 * No foreign key to mailings: its check locked the mailing's row once for every inserted result
 * (two thirds of a million-row INSERT); a statement trigger on mailings deletes the results of
 * deleted mailings instead (migration 0021, docs/decisions.md, Database and data model).
 */
export const mailingResults = pgTable(
  'mailing_results',
  {
    mailingId: text('mailing_id').notNull(),
    addressId: bigint('address_id', { mode: 'number' }).notNull(),
    event: text('event').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    os: text('os'),
  },
  (t) => [
    unique('mailing_results_key').on(t.mailingId, t.addressId, t.event, t.at),
    check(
      'mailing_results_event_check',
      sql`${t.event} IN ('open', 'click', 'hardBounce', 'softBounce', 'rejected')`,
    ),
  ],
);
