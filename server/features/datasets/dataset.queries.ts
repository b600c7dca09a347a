import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Dataset, DatasetListItem, DatasetValues } from '../../../common/datasets';
import type { DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { labels } from '../labels/label.table';
import { partners } from '../partners/partner.table';
import { datasets } from './dataset.table';

/** A row of the datasets table as Drizzle selects it. */
export type DatasetRow = typeof datasets.$inferSelect;

function presentFields(row: DatasetRow) {
  return {
    _id: row.id,
    partnerId: row.partnerId,
    name: row.name,
    description: row.description,
    types: row.types,
    emailColumnName: row.config.emailColumnName ?? '',
    active: row.active,
    separateInvoice: row.separateInvoice,
    sort: row.sort,
    recordCount: row.recordCount,
  };
}

/** Presents a dataset row for a list: the API key only as `hasKey`. */
export function presentDatasetListItem(row: DatasetRow): DatasetListItem {
  return { ...presentFields(row), hasKey: row.apiKey !== null };
}

/** Presents one dataset with its key and the lists below it. */
export function presentDataset(
  row: DatasetRow,
  lists: Pick<Dataset, 'commission' | 'participation' | 'testPersons'>,
): Dataset {
  return { ...presentFields(row), key: row.apiKey, ...lists };
}

/** Whether a partner with this id exists. */
export async function partnerExists(db: DbOrTx, partnerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(eq(partners.id, partnerId))
    .limit(1);
  return row !== undefined;
}

/** The datasets of a partner, by sort (lower first) then name. */
export function listDatasets(db: DbOrTx, partnerId: string): Promise<DatasetRow[]> {
  return db
    .select()
    .from(datasets)
    .where(eq(datasets.partnerId, partnerId))
    .orderBy(asc(datasets.sort), asc(sql`lower(${datasets.name})`), asc(datasets.id));
}

/** A dataset of the partner; undefined when absent or of another partner. */
export async function getDataset(db: DbOrTx, partnerId: string, id: string): Promise<DatasetRow | undefined> {
  const [row] = await db
    .select()
    .from(datasets)
    .where(and(eq(datasets.id, id), eq(datasets.partnerId, partnerId)))
    .limit(1);
  return row;
}

/**
 * Locks a dataset row for the rest of the transaction (FOR UPDATE), so rules over its entries
 * (no overlapping periods) hold under concurrent requests. Returns false when it is absent.
 */
export async function lockDataset(tx: DbOrTx, partnerId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: datasets.id })
    .from(datasets)
    .where(and(eq(datasets.id, id), eq(datasets.partnerId, partnerId)))
    .for('update');
  return row !== undefined;
}

/** Those of `names` that are not in the label list. */
export async function missingLabels(db: DbOrTx, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const found = await db.select({ name: labels.name }).from(labels).where(inArray(labels.name, names));
  const known = new Set(found.map((r) => r.name));
  return names.filter((n) => !known.has(n));
}

function storedValues(values: DatasetValues) {
  return {
    name: values.name,
    description: values.description,
    types: values.types,
    config: values.emailColumnName ? { emailColumnName: values.emailColumnName } : {},
    active: values.active,
    separateInvoice: values.separateInvoice,
    sort: values.sort,
  };
}

/** Inserts a dataset with its API key; returns the row. Throws on a duplicate name for the partner. */
export async function insertDataset(
  db: DbOrTx,
  partnerId: string,
  values: DatasetValues,
  apiKey: string,
): Promise<DatasetRow> {
  const [row] = await db
    .insert(datasets)
    .values({ id: newId(), partnerId, apiKey, ...storedValues(values) })
    .returning();
  return row;
}

/**
 * Updates a dataset's editable fields (never key or record count), keeping other config
 * entries; returns the row or undefined when absent.
 */
export async function updateDataset(
  db: DbOrTx,
  partnerId: string,
  id: string,
  values: DatasetValues,
): Promise<DatasetRow | undefined> {
  const { config, ...rest } = storedValues(values);
  const [row] = await db
    .update(datasets)
    .set({
      ...rest,
      // Only emailColumnName is edited here; other config entries stay as they are.
      config: sql`(${datasets.config} - 'emailColumnName') || ${JSON.stringify(config)}::jsonb`,
      updatedAt: new Date(),
    })
    .where(and(eq(datasets.id, id), eq(datasets.partnerId, partnerId)))
    .returning();
  return row;
}

/** Replaces a dataset's API key; returns the row or undefined when absent. */
export async function setApiKey(
  db: DbOrTx,
  partnerId: string,
  id: string,
  apiKey: string,
): Promise<DatasetRow | undefined> {
  const [row] = await db
    .update(datasets)
    .set({ apiKey, updatedAt: new Date() })
    .where(and(eq(datasets.id, id), eq(datasets.partnerId, partnerId)))
    .returning();
  return row;
}

/** Deletes a dataset (its entries and test persons go with it); returns whether it existed. */
export async function deleteDataset(db: DbOrTx, partnerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(datasets)
    .where(and(eq(datasets.id, id), eq(datasets.partnerId, partnerId)))
    .returning({ id: datasets.id });
  return rows.length > 0;
}
