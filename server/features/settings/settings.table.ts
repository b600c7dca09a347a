import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';

/** The one row of send settings (spec 001 §3 Settings). */
export const settings = pgTable('settings', {
  id: boolean('id').primaryKey().default(true),
  minMailings: integer('min_mailings').notNull().default(1),
  solarId: text('solar_id').notNull().default(''),
  /** How many days audit entries and import skipped-row files are kept (the daily retention task removes older ones). */
  retentionDays: integer('retention_days').notNull().default(730),
  /** The broker's company details a statement carries as its issuer ('Gegevens afnemer'); '' for none. */
  issuerName: text('issuer_name').notNull().default(''),
  issuerAddress: text('issuer_address').notNull().default(''),
  issuerPostalCode: text('issuer_postal_code').notNull().default(''),
  issuerCity: text('issuer_city').notNull().default(''),
  /** A country code of the country list, or ''. */
  issuerCountry: text('issuer_country').notNull().default(''),
  /** Normalised: no spaces or dots, capitals ('NL123456789B01'). */
  issuerVatNumber: text('issuer_vat_number').notNull().default(''),
  /** The Chamber of Commerce (KvK) number: 8 digits, or ''. */
  issuerCocNumber: text('issuer_coc_number').notNull().default(''),
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
