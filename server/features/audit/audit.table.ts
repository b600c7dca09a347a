import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The audit log (common/audit.ts): append-only. The database refuses an update, a truncate, and a
 * delete of an entry younger than the retention setting (migration triggers), whoever asks.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    username: text('username'),
    ip: text('ip'),
    kind: text('kind').notNull(),
    subject: text('subject'),
    rows: integer('rows'),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [index('audit_log_at_idx').on(t.at), index('audit_log_kind_at_idx').on(t.kind, t.at)],
);
