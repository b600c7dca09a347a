import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * The version of a mailing's addresses and results: statement triggers raise it with every statement
 * that writes them (migration 0035); a mailing without a row is at version 0.
 */
export const mailingReportVersions = pgTable('mailing_report_versions', {
  mailingId: text('mailing_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(1),
});

/**
 * A mailing's report figures per dataset at one version of its addresses and results: delivered
 * (its addresses), and addresses that opened, clicked, bounced (hard or soft) and hard-bounced.
 * Computed by the reports when missing (report.queries.ts); a row of an older version is never read.
 */
export const mailingReportFacts = pgTable(
  'mailing_report_facts',
  {
    mailingId: text('mailing_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    datasetId: text('dataset_id').notNull(),
    delivered: bigint('delivered', { mode: 'number' }).notNull(),
    opens: bigint('opens', { mode: 'number' }).notNull(),
    clicks: bigint('clicks', { mode: 'number' }).notNull(),
    bounces: bigint('bounces', { mode: 'number' }).notNull(),
    hardBounces: bigint('hard_bounces', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'mailing_report_facts_pkey', columns: [t.mailingId, t.version, t.datasetId] })],
);
