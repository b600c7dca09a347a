import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tasks } from '../tasks/task.table';

/**
 * The results of a DNS check task (spec 001 §3 DNS result), one row per domain, written as the
 * lookups finish so the check's memory stays flat; the last check's rows survive a reload.
 */
export const dnsCheckResults = pgTable(
  'dns_check_results',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    addressCount: integer('address_count').notNull(),
    // OK, NODATA, NXDOMAIN, INVALID or ERROR (common/dns-check.ts).
    check: text('check').notNull(),
    error: text('error'),
  },
  (t) => [primaryKey({ name: 'dns_check_results_pkey', columns: [t.taskId, t.domain] })],
);
