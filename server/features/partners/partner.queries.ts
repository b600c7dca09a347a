import { asc, eq, sql } from 'drizzle-orm';
import { type Partner, type PartnerCreate, vatToStored } from '../../../common/partners';
import type { Db } from '../../db/client';
import { type ContactRow, presentContact } from './contact.queries';
import { partnerContacts, partners } from './partner.table';

/** A row of the partners table as Drizzle selects it. */
export type PartnerRow = typeof partners.$inferSelect;
type PartnerValues = Omit<PartnerCreate, 'id'>;

/** Presents a partner row (with its dataset count and contacts) as API JSON. */
export function presentPartner(row: PartnerRow, datasetCount: number, contacts: ContactRow[] = []): Partner {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    debitorNumber: row.debitorNumber,
    address: row.address,
    postalCode: row.postalCode,
    city: row.city,
    iban: row.iban,
    vatNumber: row.vatNumber,
    invoiceEmail: row.invoiceEmail,
    country: row.country,
    ledger: row.ledger,
    vatCode: row.vatCode,
    vatPercentage: row.vatPercentage,
    comments: row.comments,
    datasetCount,
    contactPersons: contacts.map(presentContact),
  };
}

function storedValues(values: PartnerValues) {
  return { ...values, vatPercentage: vatToStored(values.vatPercentage) };
}

// Qualified by hand: inside a subquery Drizzle would render both columns unqualified.
const datasetCount = sql<number>`(SELECT count(*)::int FROM datasets d WHERE d.partner_id = "partners"."id")`;

/** All partners sorted by name, each with its number of datasets. */
export function listPartners(db: Db): Promise<{ partner: PartnerRow; datasetCount: number }[]> {
  return db
    .select({ partner: partners, datasetCount })
    .from(partners)
    .orderBy(asc(sql`lower(${partners.name})`), asc(partners.id));
}

/** One partner with its dataset count; undefined when absent. */
export async function getPartner(
  db: Db,
  id: string,
): Promise<{ partner: PartnerRow; datasetCount: number } | undefined> {
  const [row] = await db
    .select({ partner: partners, datasetCount })
    .from(partners)
    .where(eq(partners.id, id))
    .limit(1);
  return row;
}

/** The contacts of a partner, sorted by name. */
export function listPartnerContacts(db: Db, partnerId: string): Promise<ContactRow[]> {
  return db
    .select()
    .from(partnerContacts)
    .where(eq(partnerContacts.partnerId, partnerId))
    .orderBy(asc(partnerContacts.lastName), asc(partnerContacts.firstName), asc(partnerContacts.id));
}

/** Inserts a partner (vatPercentage stored as a fraction); returns the row. Throws on a duplicate id. */
export async function insertPartner(db: Db, input: PartnerCreate): Promise<PartnerRow> {
  const [row] = await db
    .insert(partners)
    .values({ id: input.id, ...storedValues(input) })
    .returning();
  return row;
}

/** Updates a partner's fields; returns the row or undefined when absent. */
export async function updatePartner(
  db: Db,
  id: string,
  values: PartnerValues,
): Promise<PartnerRow | undefined> {
  const [row] = await db
    .update(partners)
    .set({ ...storedValues(values), updatedAt: new Date() })
    .where(eq(partners.id, id))
    .returning();
  return row;
}

/**
 * Deletes a partner; its contacts, datasets and their records go with it (foreign keys cascade).
 * Returns the datasets that went with it (id and name), or null when the partner was absent.
 */
export async function deletePartner(db: Db, id: string): Promise<{ id: string; name: string }[] | null> {
  const went = await db.execute<{ id: string; name: string }>(
    sql`SELECT id, name FROM datasets WHERE partner_id = ${id} ORDER BY id FOR UPDATE`,
  );
  const rows = await db.delete(partners).where(eq(partners.id, id)).returning({ id: partners.id });
  return rows.length > 0 ? went.rows.map((r) => ({ id: String(r.id), name: r.name })) : null;
}
