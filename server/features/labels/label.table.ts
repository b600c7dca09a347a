import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Labels ("types") given to datasets and campaigns. */
export const labels = pgTable('labels', {
  name: text('name').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
