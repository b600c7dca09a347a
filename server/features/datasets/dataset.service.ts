import crypto from 'node:crypto';
import {
  type Dataset,
  DatasetMessages,
  type DatasetValues,
  datasetNameTakenMessage,
  unknownTypesMessage,
} from '../../../common/datasets';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict, type HttpError, notFound } from '../../lib/http-errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import {
  type DatasetRow,
  deleteDataset,
  getDataset,
  insertDataset,
  missingLabels,
  partnerExists,
  presentDataset,
  setApiKey,
  updateDataset,
} from './dataset.queries';
import { listRates, presentCommission, presentParticipation } from './rate.queries';
import { listTestPersons, presentTestPerson } from './testperson.queries';

/** A new random API key (192 bits, hex): what a partner sends as X-API-Key. */
export function generateApiKey(): string {
  return crypto.randomBytes(24).toString('hex');
}

/** The 404 for a dataset that was not found: names the partner when that is what is missing. */
export async function datasetNotFound(db: DbOrTx, partnerId: string): Promise<HttpError> {
  return notFound(
    (await partnerExists(db, partnerId)) ? DatasetMessages.notFound : DatasetMessages.partnerNotFound,
  );
}

/** Throws 404 unless the partner exists. */
export async function assertPartner(db: DbOrTx, partnerId: string): Promise<void> {
  if (!(await partnerExists(db, partnerId))) throw notFound(DatasetMessages.partnerNotFound);
}

/** A dataset of the partner; throws 404 (partner or dataset) when absent. */
export async function requireDataset(db: DbOrTx, partnerId: string, id: string): Promise<DatasetRow> {
  const row = await getDataset(db, partnerId, id);
  if (!row) throw await datasetNotFound(db, partnerId);
  return row;
}

async function assertLabelsExist(db: DbOrTx, types: string[]): Promise<void> {
  const missing = await missingLabels(db, types);
  if (missing.length > 0) throw badRequest(unknownTypesMessage(missing));
}

/** Who acts, as the audit log names them. */
type AuditWho = Pick<AuditInput, 'username' | 'ip'>;

/** One dataset as the API shows it: with its key, commission, participation and test persons. */
export async function getDatasetDetail(db: Db, partnerId: string, id: string): Promise<Dataset> {
  const row = await requireDataset(db, partnerId, id);
  const [commission, participation, testPersons] = await Promise.all([
    listRates(db, 'commission', id),
    listRates(db, 'participation', id),
    listTestPersons(db, id),
  ]);
  return presentDataset(row, {
    commission: commission.map(presentCommission),
    participation: participation.map(presentParticipation),
    testPersons: testPersons.map(presentTestPerson),
  });
}

/**
 * Creates a dataset with a new API key; throws 404 for an unknown partner, 400 for labels
 * that do not exist and 409 when the partner already has a dataset of that name. The audit log
 * records it as done by `who`.
 */
export async function createDataset(
  db: Db,
  partnerId: string,
  values: DatasetValues,
  who: AuditWho,
): Promise<Dataset> {
  await assertPartner(db, partnerId);
  await assertLabelsExist(db, values.types);
  try {
    const row = await db.transaction(async (tx) => {
      const inserted = await insertDataset(tx, partnerId, values, generateApiKey());
      await recordAudit(tx, {
        kind: 'dataset-created',
        ...who,
        subject: inserted.id,
        details: { partnerId, name: inserted.name },
      });
      return inserted;
    });
    return presentDataset(row, { commission: [], participation: [], testPersons: [] });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(datasetNameTakenMessage(values.name));
    throw err;
  }
}

/** Saves a dataset's fields (not its key or record count); throws 400, 404 or 409 like create. */
export async function saveDataset(
  db: Db,
  partnerId: string,
  id: string,
  values: DatasetValues,
): Promise<Dataset> {
  await assertLabelsExist(db, values.types);
  try {
    const row = await updateDataset(db, partnerId, id, values);
    if (!row) throw await datasetNotFound(db, partnerId);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(datasetNameTakenMessage(values.name));
    throw err;
  }
  return getDatasetDetail(db, partnerId, id);
}

/**
 * Gives a dataset a new API key (the old one stops working), in the audit log as done by `who`
 * (never the key); returns the dataset. Throws 404.
 */
export async function rotateApiKey(db: Db, partnerId: string, id: string, who: AuditWho): Promise<Dataset> {
  const row = await db.transaction(async (tx) => {
    const changed = await setApiKey(tx, partnerId, id, generateApiKey());
    if (changed)
      await recordAudit(tx, { kind: 'api-key-rotated', ...who, subject: id, details: { partnerId } });
    return changed;
  });
  if (!row) throw await datasetNotFound(db, partnerId);
  return getDatasetDetail(db, partnerId, id);
}

/** Deletes a dataset with everything below it, in the audit log as done by `who`; throws 404 when absent. */
export async function removeDataset(db: Db, partnerId: string, id: string, who: AuditWho): Promise<void> {
  const row = await db.transaction(async (tx) => {
    const dataset = await getDataset(tx, partnerId, id);
    if (!dataset || !(await deleteDataset(tx, partnerId, id))) return null;
    await recordAudit(tx, {
      kind: 'dataset-deleted',
      ...who,
      subject: id,
      details: { partnerId, name: dataset.name },
    });
    return dataset;
  });
  if (!row) throw await datasetNotFound(db, partnerId);
}
