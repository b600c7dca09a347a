import { findOverlap } from '../../../common/dataset-rates';
import { RATE_TEXTS, RateMessages, type RateType, rateOverlapMessage } from '../../../common/datasets';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { lockDataset } from './dataset.queries';
import { datasetNotFound } from './dataset.service';
import { deleteRate, getRateByRange, insertRate, listRates, type RateRow, updateRate } from './rate.queries';

/** The dataset being changed, addressed as in the path. */
export interface DatasetRef {
  partnerId: string;
  datasetId: string;
}

// Every change runs in a transaction that first locks the dataset row, so two requests cannot
// both pass the overlap check and then both write (spec: one valid entry per date).
async function lockOrThrow(tx: DbOrTx, ref: DatasetRef): Promise<void> {
  if (!(await lockDataset(tx, ref.partnerId, ref.datasetId))) throw await datasetNotFound(tx, ref.partnerId);
}

async function assertNoOverlap(
  tx: DbOrTx,
  type: RateType,
  datasetId: string,
  candidate: { start: string; end: string },
  exceptId?: string,
): Promise<void> {
  const others = (await listRates(tx, type, datasetId)).filter((r) => r.id !== exceptId);
  const clash = findOverlap(others, candidate);
  if (clash) throw conflict(rateOverlapMessage(type, clash));
}

/** Adds an entry to a dataset; throws 404 for an unknown dataset and 409 when its period overlaps another. */
export function createRate(
  db: Db,
  type: RateType,
  ref: DatasetRef,
  entry: { start: string; end: string; value: number },
): Promise<RateRow> {
  return db.transaction(async (tx) => {
    await lockOrThrow(tx, ref);
    await assertNoOverlap(tx, type, ref.datasetId, entry);
    return insertRate(tx, type, ref.datasetId, entry);
  });
}

/**
 * Changes the end and number of the entry with this start and end; the start is fixed
 * (spec 000 §4). Throws 400 for a changed start or an end before the start, 404 when the
 * dataset or entry is absent, 409 on overlap.
 */
export function saveRate(
  db: Db,
  type: RateType,
  ref: DatasetRef & { start: string; end: string },
  input: { start?: string; end: string; value: number },
): Promise<RateRow> {
  if (input.start !== undefined && input.start !== ref.start) throw badRequest(RateMessages.startLocked);
  if (input.end < ref.start) throw badRequest(RateMessages.endBeforeStart);
  return db.transaction(async (tx) => {
    await lockOrThrow(tx, ref);
    const existing = await getRateByRange(tx, type, ref.datasetId, ref.start, ref.end);
    if (!existing) throw notFound(RATE_TEXTS[type].notFound);
    await assertNoOverlap(tx, type, ref.datasetId, { start: ref.start, end: input.end }, existing.id);
    const row = await updateRate(tx, type, existing.id, { end: input.end, value: input.value });
    if (!row) throw notFound(RATE_TEXTS[type].notFound);
    return row;
  });
}

/** Deletes the entry with this start and end; throws 404 when the dataset or entry is absent. */
export function removeRate(
  db: Db,
  type: RateType,
  ref: DatasetRef & { start: string; end: string },
): Promise<void> {
  return db.transaction(async (tx) => {
    await lockOrThrow(tx, ref);
    const existing = await getRateByRange(tx, type, ref.datasetId, ref.start, ref.end);
    if (!existing || !(await deleteRate(tx, type, existing.id))) throw notFound(RATE_TEXTS[type].notFound);
  });
}
