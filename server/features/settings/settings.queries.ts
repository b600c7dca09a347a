import type { Issuer } from '../../../common/issuer';
import type { Settings, SettingsSave, TestPerson } from '../../../common/settings';
import { DEFAULT_MIN_MAILINGS, DEFAULT_RETENTION_DAYS } from '../../../common/settings';
import type { Db, DbOrTx } from '../../db/client';
import { settings, testPerson } from './settings.table';

/** The one settings row as stored. */
export type SettingsRow = typeof settings.$inferSelect;
/** The global test person's row as Drizzle selects it. */
export type TestPersonRow = typeof testPerson.$inferSelect;

/** Presents the settings row as API JSON ({minMailings, solarId, retentionDays}); defaults when there is no row. */
export function presentSettings(row: SettingsRow | undefined): Settings {
  return {
    minMailings: row?.minMailings ?? DEFAULT_MIN_MAILINGS,
    solarId: row?.solarId ?? '',
    retentionDays: row?.retentionDays ?? DEFAULT_RETENTION_DAYS,
  };
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
export async function getSettings(db: DbOrTx): Promise<SettingsRow | undefined> {
  const [row] = await db.select().from(settings).limit(1);
  return row;
}

/** The 'Minimale verzendingen' setting: the mailings without an open after which an address counts as notOpenedOrClicked. */
export async function getMinMailings(db: Db): Promise<number> {
  return presentSettings(await getSettings(db)).minMailings;
}

/** The retention period in days ('Bewaartermijn (dagen)'): how long audit entries and skipped rows are kept. */
export async function getRetentionDays(db: DbOrTx): Promise<number> {
  return presentSettings(await getSettings(db)).retentionDays;
}

/** Stores the settings in the one row (creating it when missing; a left-out retention period kept); returns the row. */
export async function saveSettings(db: DbOrTx, values: SettingsSave): Promise<SettingsRow> {
  const set = {
    minMailings: values.minMailings,
    solarId: values.solarId,
    ...(values.retentionDays === undefined ? {} : { retentionDays: values.retentionDays }),
  };
  return upsertSettings(db, set);
}

/** Presents the issuer's details of the settings row as API JSON; every field '' when there is no row. */
export function presentIssuer(row: SettingsRow | undefined): Issuer {
  return {
    name: row?.issuerName ?? '',
    address: row?.issuerAddress ?? '',
    postalCode: row?.issuerPostalCode ?? '',
    city: row?.issuerCity ?? '',
    country: row?.issuerCountry ?? '',
    vatNumber: row?.issuerVatNumber ?? '',
    cocNumber: row?.issuerCocNumber ?? '',
  };
}

/** The issuer's details as the settings hold them now (what a statement issued now carries). */
export async function getIssuer(db: DbOrTx): Promise<Issuer> {
  return presentIssuer(await getSettings(db));
}

/** Stores the issuer's details in the one settings row (creating it when missing); returns the row. */
export async function saveIssuer(db: DbOrTx, values: Issuer): Promise<SettingsRow> {
  const set = {
    issuerName: values.name,
    issuerAddress: values.address,
    issuerPostalCode: values.postalCode,
    issuerCity: values.city,
    issuerCountry: values.country,
    issuerVatNumber: values.vatNumber,
    issuerCocNumber: values.cocNumber,
  };
  return upsertSettings(db, set);
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

/** Writes `set` into the one settings row, creating the row when missing; returns the row. */
async function upsertSettings(
  db: DbOrTx,
  set: Omit<typeof settings.$inferInsert, 'id'>,
): Promise<SettingsRow> {
  const [row] = await db
    .insert(settings)
    .values({ id: true, ...set })
    .onConflictDoUpdate({ target: settings.id, set })
    .returning();
  return row;
}
