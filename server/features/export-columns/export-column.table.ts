import { pgTable, text } from 'drizzle-orm/pg-core';

/** Columns of mailing CSV exports: a global attribute name and how to format it. */
export const exportColumns = pgTable('export_columns', {
  id: text('id').primaryKey(),
  type: text('type').notNull().default('string'),
});
