import { and, asc, desc, eq } from 'drizzle-orm';
import type { Commission, Participation, RateType } from '../../../common/datasets';
import type { DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { datasetCommissions, datasetParticipations } from './dataset.table';

// Commission and participation share one shape (start, end and a number); the number is
// `amount` for commission and `factor` for participation. Statements work on either table
// through this one description.

/** A stored entry of either type, its number as `value`. */
export interface RateRow {
  id: string;
  datasetId: string;
  start: string;
  end: string;
  value: number;
}

function columns(type: RateType) {
  const t = type === 'commission' ? datasetCommissions : datasetParticipations;
  const value = type === 'commission' ? datasetCommissions.amount : datasetParticipations.factor;
  return { t, value };
}

/** Presents a commission row as {_id, start, end, amount}. */
export function presentCommission(row: RateRow): Commission {
  return { _id: row.id, start: row.start, end: row.end, amount: row.value };
}

/** Presents a participation row as {_id, start, end, factor}. */
export function presentParticipation(row: RateRow): Participation {
  return { _id: row.id, start: row.start, end: row.end, factor: row.value };
}

/** The entries of one type of a dataset, newest first (by start, then end). */
export async function listRates(db: DbOrTx, type: RateType, datasetId: string): Promise<RateRow[]> {
  const { t, value } = columns(type);
  return db
    .select({ id: t.id, datasetId: t.datasetId, start: t.start, end: t.end, value })
    .from(t)
    .where(eq(t.datasetId, datasetId))
    .orderBy(desc(t.start), desc(t.end), asc(t.id));
}

/** The entry of a dataset with exactly this start and end; undefined when absent. */
export async function getRateByRange(
  db: DbOrTx,
  type: RateType,
  datasetId: string,
  start: string,
  end: string,
): Promise<RateRow | undefined> {
  const { t, value } = columns(type);
  const [row] = await db
    .select({ id: t.id, datasetId: t.datasetId, start: t.start, end: t.end, value })
    .from(t)
    .where(and(eq(t.datasetId, datasetId), eq(t.start, start), eq(t.end, end)))
    .limit(1);
  return row;
}

/** Inserts an entry; returns it. */
export async function insertRate(
  db: DbOrTx,
  type: RateType,
  datasetId: string,
  entry: { start: string; end: string; value: number },
): Promise<RateRow> {
  const id = newId();
  const { start, end, value } = entry;
  if (type === 'commission') {
    await db.insert(datasetCommissions).values({ id, datasetId, start, end, amount: value });
  } else {
    await db.insert(datasetParticipations).values({ id, datasetId, start, end, factor: value });
  }
  // numeric(…, 4) rounds; read back what was stored.
  const [row] = await listRatesById(db, type, id);
  return row;
}

/** Sets the end and the number of an entry by id; returns it or undefined when absent. */
export async function updateRate(
  db: DbOrTx,
  type: RateType,
  id: string,
  values: { end: string; value: number },
): Promise<RateRow | undefined> {
  if (type === 'commission') {
    await db
      .update(datasetCommissions)
      .set({ end: values.end, amount: values.value })
      .where(eq(datasetCommissions.id, id));
  } else {
    await db
      .update(datasetParticipations)
      .set({ end: values.end, factor: values.value })
      .where(eq(datasetParticipations.id, id));
  }
  const [row] = await listRatesById(db, type, id);
  return row;
}

/** Deletes an entry by id; returns whether it existed. */
export async function deleteRate(db: DbOrTx, type: RateType, id: string): Promise<boolean> {
  const { t } = columns(type);
  const rows = await db.delete(t).where(eq(t.id, id)).returning({ id: t.id });
  return rows.length > 0;
}

function listRatesById(db: DbOrTx, type: RateType, id: string): Promise<RateRow[]> {
  const { t, value } = columns(type);
  return db
    .select({ id: t.id, datasetId: t.datasetId, start: t.start, end: t.end, value })
    .from(t)
    .where(eq(t.id, id));
}
