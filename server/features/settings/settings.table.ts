import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';

/** The one row of send settings (spec 001 §3 Settings). */
export const settings = pgTable('settings', {
  id: boolean('id').primaryKey().default(true),
  minMailings: integer('min_mailings').notNull().default(1),
  solarId: text('solar_id').notNull().default(''),
  /** How many days audit entries and import skipped-row files are kept (the daily retention task removes older ones). */
  retentionDays: integer('retention_days').notNull().default(730),
});

/** The one global test person, added to every test list. */
export const testPerson = pgTable('test_person', {
  id: boolean('id').primaryKey().default(true),
  firstName: text('first_name').notNull().default(''),
  preposition: text('preposition').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  gender: text('gender').notNull().default('M'),
  email: text('email').notNull().default(''),
});
