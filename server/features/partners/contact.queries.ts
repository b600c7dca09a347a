import { and, eq } from 'drizzle-orm';
import type { Contact } from '../../../common/partners';
import type { Db, DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { partnerContacts } from './partner.table';

/** A row of the partner contacts table as Drizzle selects it. */
export type ContactRow = typeof partnerContacts.$inferSelect;

/** The stored fields of a contact, password already hashed (or null). */
export interface ContactValues {
  firstName: string;
  preposition: string;
  lastName: string;
  gender: string;
  email: string;
  phoneNumber: string;
  username: string | null;
  passwordHash?: string | null;
}

/** Presents a contact as API JSON: never the password, only whether one is set. */
export function presentContact(row: ContactRow): Contact {
  return {
    _id: row.id,
    id: row.id,
    firstName: row.firstName,
    preposition: row.preposition,
    lastName: row.lastName,
    gender: row.gender,
    email: row.email,
    phoneNumber: row.phoneNumber,
    username: row.username ?? '',
    hasPassword: row.passwordHash !== null,
  };
}

/** One contact of a partner (locked for update when `lock`); undefined when absent. */
export async function getContact(
  db: DbOrTx,
  partnerId: string,
  id: string,
  lock = false,
): Promise<ContactRow | undefined> {
  const query = db
    .select()
    .from(partnerContacts)
    .where(and(eq(partnerContacts.partnerId, partnerId), eq(partnerContacts.id, id)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Inserts a contact for a partner; returns the row. Throws on a duplicate username. */
export async function insertContact(db: Db, partnerId: string, values: ContactValues): Promise<ContactRow> {
  const [row] = await db
    .insert(partnerContacts)
    .values({ id: newId(), partnerId, ...values, passwordHash: values.passwordHash ?? null })
    .returning();
  return row;
}

/** Updates a contact; a passwordHash of undefined keeps the stored one. Returns the row or undefined. */
export async function updateContact(
  db: DbOrTx,
  partnerId: string,
  id: string,
  values: ContactValues,
): Promise<ContactRow | undefined> {
  const [row] = await db
    .update(partnerContacts)
    .set(values)
    .where(and(eq(partnerContacts.partnerId, partnerId), eq(partnerContacts.id, id)))
    .returning();
  return row;
}

/** Deletes a contact of a partner; returns whether it existed. */
export async function deleteContact(db: Db, partnerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(partnerContacts)
    .where(and(eq(partnerContacts.partnerId, partnerId), eq(partnerContacts.id, id)))
    .returning({ id: partnerContacts.id });
  return rows.length > 0;
}
