import { customType, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// E-mail addresses are compared with addresses.email (COLLATE "C", migration 0005): the same
// collation keeps the joins of "blacklisted" (blacklist.sql.ts) plain byte comparisons.
const textC = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/** The e-mail blacklist (DESIGN §6): addresses normalized like addresses.email, excluded everywhere. */
export const blacklistEmails = pgTable('blacklist_emails', {
  email: textC('email').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The domain blacklist (DESIGN §6): lower-case domains without a leading '@' or 'www.', excluded everywhere. */
export const blacklistDomains = pgTable('blacklist_domains', {
  domain: text('domain').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The partner-dataset blacklist (DESIGN §6): an address excluded from one dataset only, the
 * dataset of that partner with that name.
 */
export const partnerBlacklist = pgTable(
  'partner_blacklist',
  {
    partnerId: text('partner_id').notNull(),
    datasetName: text('dataset_name').notNull(),
    email: textC('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'partner_blacklist_pkey', columns: [t.partnerId, t.datasetName, t.email] })],
);
