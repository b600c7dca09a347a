import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { mailings } from '../mailings/mailing.table';

/**
 * A target-group selection of a mailing (spec 001 §3 Selection); `created_at` is its date. The
 * selection engine runs and saves it; a copy makes one too. `seed` makes its allocation reproducible.
 */
export const selections = pgTable(
  'selections',
  {
    id: text('id').primaryKey(),
    mailingId: text('mailing_id')
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    campaignId: text('campaign_id').notNull(),
    description: text('description').notNull().default(''),
    query: jsonb('query').notNull().default({ and: [] }),
    preDefined: boolean('pre_defined').notNull().default(false),
    useBlacklist: boolean('use_blacklist').notNull().default(true),
    activeDatasetsOnly: boolean('active_datasets_only').notNull().default(true),
    useCampaignLabel: boolean('use_campaign_label').notNull().default(true),
    useDate: boolean('use_date').notNull().default(true),
    pressureAge: date('pressure_age', { mode: 'string' }),
    useDatasetsFrom: jsonb('use_datasets_from').notNull().default([]),
    seed: integer('seed').notNull().default(sql`floor(random() * 2147483647)::int`),
    recordCount: integer('record_count').notNull().default(0),
    /** The builder's last count of this selection and the tree and settings it counted (LastCountSchema); null before one. */
    lastCount: jsonb('last_count'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('selections_mailing_idx').on(t.mailingId)],
);
