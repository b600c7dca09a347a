import { customType, pgTable, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * The addresses erased under AVG art. 17 (DESIGN §7 Erasure): only a keyed hash of the normalised
 * e-mail (HMAC-SHA256 with the server's suppression key, `suppressionHash` in avg/suppression.ts),
 * so the address itself is gone while every way in can still recognise and skip it.
 */
export const avgSuppressions = pgTable('avg_suppressions', {
  hash: bytea('hash').primaryKey(),
  erasedAt: timestamp('erased_at', { withTimezone: true }).notNull().defaultNow(),
});
