import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Click-interest types given to mailings (spec 001 §2 Interest types). */
export const clickInterestTypes = pgTable('click_interest_types', {
  name: text('name').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
