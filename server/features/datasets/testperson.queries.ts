import { and, asc, eq, sql } from 'drizzle-orm';
import type { TestPerson, TestPersonValues } from '../../../common/datasets';
import type { DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { datasetTestPersons } from './dataset.table';

/** A row of a dataset's test persons table as Drizzle selects it. */
export type TestPersonRow = typeof datasetTestPersons.$inferSelect;

/** Presents a test person row as {_id, firstName, preposition, lastName, gender, email}. */
export function presentTestPerson(row: TestPersonRow): TestPerson {
  return {
    _id: row.id,
    firstName: row.firstName,
    preposition: row.preposition,
    lastName: row.lastName,
    gender: row.gender,
    email: row.email,
  };
}

/** The test persons of a dataset, by last name, first name, e-mail. */
export function listTestPersons(db: DbOrTx, datasetId: string): Promise<TestPersonRow[]> {
  const t = datasetTestPersons;
  return db
    .select()
    .from(t)
    .where(eq(t.datasetId, datasetId))
    .orderBy(asc(sql`lower(${t.lastName})`), asc(sql`lower(${t.firstName})`), asc(t.email), asc(t.id));
}

/** A test person of the dataset; undefined when absent or of another dataset. */
export async function getTestPerson(
  db: DbOrTx,
  datasetId: string,
  id: string,
): Promise<TestPersonRow | undefined> {
  const t = datasetTestPersons;
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.datasetId, datasetId)))
    .limit(1);
  return row;
}

/** Inserts a test person; returns the row. */
export async function insertTestPerson(
  db: DbOrTx,
  datasetId: string,
  values: TestPersonValues,
): Promise<TestPersonRow> {
  const [row] = await db
    .insert(datasetTestPersons)
    .values({ id: newId(), datasetId, ...values })
    .returning();
  return row;
}

/** Updates a test person of the dataset; returns the row or undefined when absent. */
export async function updateTestPerson(
  db: DbOrTx,
  datasetId: string,
  id: string,
  values: TestPersonValues,
): Promise<TestPersonRow | undefined> {
  const t = datasetTestPersons;
  const [row] = await db
    .update(t)
    .set(values)
    .where(and(eq(t.id, id), eq(t.datasetId, datasetId)))
    .returning();
  return row;
}

/** Deletes a test person of the dataset; returns whether it existed. */
export async function deleteTestPerson(db: DbOrTx, datasetId: string, id: string): Promise<boolean> {
  const t = datasetTestPersons;
  const rows = await db
    .delete(t)
    .where(and(eq(t.id, id), eq(t.datasetId, datasetId)))
    .returning({ id: t.id });
  return rows.length > 0;
}
