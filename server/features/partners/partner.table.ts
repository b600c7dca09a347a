import { sql } from 'drizzle-orm';
import { index, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Data partners that supply address lists; the id is chosen by the user ([A-Za-z0-9_]+). */
export const partners = pgTable('partners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  debitorNumber: text('debitor_number').notNull().default(''),
  address: text('address').notNull().default(''),
  postalCode: text('postal_code').notNull().default(''),
  city: text('city').notNull().default(''),
  iban: text('iban').notNull().default(''),
  vatNumber: text('vat_number').notNull().default(''),
  invoiceEmail: text('invoice_email').notNull().default(''),
  country: text('country').notNull().default('NL'),
  ledger: text('ledger').notNull().default(''),
  vatCode: text('vat_code').notNull().default(''),
  // spec 000 §3: stored as a fraction (0.21), shown as a percentage (21).
  vatPercentage: numeric('vat_percentage', { precision: 10, scale: 6, mode: 'number' }),
  comments: text('comments').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Contact persons of a partner; a contact with a username may log in to the partner portal. */
export const partnerContacts = pgTable(
  'partner_contacts',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.id, { onDelete: 'cascade', onUpdate: 'cascade' }),
    firstName: text('first_name').notNull().default(''),
    preposition: text('preposition').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    gender: text('gender').notNull().default('M'),
    email: text('email').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    username: text('username'),
    passwordHash: text('password_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('partner_contacts_partner_idx').on(t.partnerId),
    uniqueIndex('partner_contacts_username_key')
      .on(sql`lower(${t.username})`)
      .where(sql`${t.username} IS NOT NULL`),
  ],
);
