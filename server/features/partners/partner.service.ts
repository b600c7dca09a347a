import {
  type ContactCreate,
  ContactMessages,
  type ContactUpdate,
  type PartnerCreate,
  PartnerMessages,
  type PartnerUpdate,
} from '../../../common/partners';
import { PasswordMessages } from '../../../common/password';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import { hashPassword } from '../auth/password';
import {
  type ContactRow,
  type ContactValues,
  getContact,
  insertContact,
  updateContact,
} from './contact.queries';
import { deletePartner, getPartner, insertPartner, type PartnerRow, updatePartner } from './partner.queries';

/** Creates a partner; throws 409 when the id is taken. */
export async function createPartner(db: Db, input: PartnerCreate): Promise<PartnerRow> {
  try {
    return await insertPartner(db, input);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(PartnerMessages.idTaken(input.id));
    throw err;
  }
}

/** Saves a partner's fields; throws 400 when the body changes the id and 404 when absent. */
export async function savePartner(db: Db, id: string, input: PartnerUpdate): Promise<PartnerRow> {
  if (input.id !== undefined && input.id !== '' && input.id !== id)
    throw badRequest(PartnerMessages.idMayNotChange);
  const { id: _ignored, ...values } = input;
  const row = await updatePartner(db, id, values);
  if (!row) throw notFound(PartnerMessages.notFound);
  return row;
}

/**
 * Deletes a partner with its contacts, datasets and their records in one transaction (the
 * foreign keys cascade inside it), each dataset that went a 'dataset-deleted' entry in the audit
 * log as done by `who`, in that transaction; throws 404 when absent.
 */
export async function removePartner(
  db: Db,
  id: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const went = await deletePartner(tx, id);
    if (!went) throw notFound(PartnerMessages.notFound);
    for (const dataset of went)
      await recordAudit(tx, {
        kind: 'dataset-deleted',
        ...who,
        subject: dataset.id,
        details: { partnerId: id, name: dataset.name, partnerDeleted: true },
      });
  });
}

/** Throws 404 unless the partner exists. */
export async function assertPartnerExists(db: Db, id: string): Promise<void> {
  if (!(await getPartner(db, id))) throw notFound(PartnerMessages.notFound);
}

async function contactValues(
  input: ContactCreate | ContactUpdate,
  keepPassword: boolean,
): Promise<ContactValues> {
  const username = input.username === '' ? null : input.username;
  let passwordHash: string | null | undefined;
  if (username === null) passwordHash = null;
  else if (input.password) passwordHash = await hashPassword(input.password);
  else passwordHash = keepPassword ? undefined : null;
  return {
    firstName: input.firstName,
    preposition: input.preposition,
    lastName: input.lastName,
    gender: input.gender,
    email: input.email,
    phoneNumber: input.phoneNumber,
    username,
    passwordHash,
  };
}

/** Creates a contact of a partner (password hashed); throws 404 for the partner, 409 for a taken username. */
export async function createContact(db: Db, partnerId: string, input: ContactCreate): Promise<ContactRow> {
  await assertPartnerExists(db, partnerId);
  try {
    return await insertContact(db, partnerId, await contactValues(input, false));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ContactMessages.usernameTaken);
    throw err;
  }
}

/**
 * Saves a contact; an empty password keeps the stored one. Throws 404, 409, or 400 when the contact
 * gets a username but has no password and none is given (the create rule, spec 000 §5).
 */
export async function saveContact(
  db: Db,
  partnerId: string,
  id: string,
  input: ContactUpdate,
): Promise<ContactRow> {
  const values = await contactValues(input, true);
  try {
    return await db.transaction(async (tx) => {
      const stored = await getContact(tx, partnerId, id, true);
      if (!stored) throw notFound(ContactMessages.notFound);
      if (values.username !== null && values.passwordHash === undefined && stored.passwordHash === null) {
        throw badRequest(PasswordMessages.required, [PasswordMessages.required]);
      }
      const row = await updateContact(tx, partnerId, id, values);
      if (!row) throw notFound(ContactMessages.notFound);
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ContactMessages.usernameTaken);
    throw err;
  }
}
