import { date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A customer's campaign: purchased addresses and budget; its mailings hang below it. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    customer: text('customer').notNull().default(''),
    start: date('start', { mode: 'string' }),
    type: text('type'),
    addresses: integer('addresses').notNull().default(0),
    budget: text('budget').notNull().default(''),
    externalParty: text('external_party').notNull().default('tripolis'),
    externalIds: text('external_ids').array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('campaigns_start_idx').on(t.start), index('campaigns_type_idx').on(t.type)],
);
