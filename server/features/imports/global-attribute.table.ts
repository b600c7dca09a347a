import { pgTable, text } from 'drizzle-orm/pg-core';

/** The shared set of attribute names that file columns map onto (GET /api/global-mappings). */
export const globalAttributes = pgTable('global_attributes', {
  name: text('name').primaryKey(),
});
