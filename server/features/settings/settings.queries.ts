import type { Settings, TestPerson } from '../../../common/settings';
import { DEFAULT_MIN_MAILINGS } from '../../../common/settings';
import type { Db } from '../../db/client';
import { settings, testPerson } from './settings.table';

type SettingsRow = typeof settings.$inferSelect;
type TestPersonRow = typeof testPerson.$inferSelect;

/** Presents the settings row as API JSON ({minMailings, solarId}); defaults when there is no row. */
export function presentSettings(row: SettingsRow | undefined): Settings {
  return { minMailings: row?.minMailings ?? DEFAULT_MIN_MAILINGS, solarId: row?.solarId ?? '' };
}

/** Presents the test person row as API JSON; gender M and empty fields when there is no row. */
export function presentTestPerson(row: TestPersonRow | undefined): TestPerson {
  const gender = row?.gender;
  return {
    firstName: row?.firstName ?? '',
    preposition: row?.preposition ?? '',
    lastName: row?.lastName ?? '',
    gender: gender === 'F' || gender === 'U' ? gender : 'M',
    email: row?.email ?? '',
  };
}

/** Reads the one settings row; undefined when it is missing (the migration seeds it). */
export async function getSettings(db: Db): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(settings).limit(1);
  return row;
}

/** The 'Minimale verzendingen' setting: the mailings without an open after which an address counts as notOpenedOrClicked. */
export async function getMinMailings(db: Db): Promise<number> {
  return presentSettings(await getSettings(db)).minMailings;
}

/** Stores the settings in the one row (creating it when missing); returns the row. */
export async function saveSettings(db: Db, values: Settings): Promise<SettingsRow> {
  const [row] = await db
    .insert(settings)
    .values({ id: true, ...values })
    .onConflictDoUpdate({ target: settings.id, set: values })
    .returning();
  return row;
}

/** Reads the one global test person row; undefined when it is missing. */
export async function getTestPerson(db: Db): Promise<TestPersonRow | undefined> {
  const [row] = await db.select().from(testPerson).limit(1);
  return row;
}

/** Stores the global test person in the one row (creating it when missing); returns the row. */
export async function saveTestPerson(db: Db, values: TestPerson): Promise<TestPersonRow> {
  const [row] = await db
    .insert(testPerson)
    .values({ id: true, ...values })
    .onConflictDoUpdate({ target: testPerson.id, set: values })
    .returning();
  return row;
}
