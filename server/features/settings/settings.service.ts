import type { Issuer } from '../../../common/issuer';
import type { SettingsSave, TestPerson } from '../../../common/settings';
import { SettingsMessages } from '../../../common/settings';
import type { Db, DbOrTx } from '../../db/client';
import { forbidden } from '../../lib/http-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import {
  getIssuer,
  getSettings,
  getTestPerson,
  presentIssuer,
  presentSettings,
  type SettingsRow,
  saveIssuer,
  saveSettings,
  saveTestPerson,
  type TestPersonRow,
} from './settings.queries';

/** Who saves the settings: their name and IP for the audit log, and whether they are an administrator. */
export interface SettingsActor extends Pick<AuditInput, 'username' | 'ip'> {
  isAdmin: boolean;
}

/**
 * Saves the settings (POST /api/settings); a change of the send settings (minMailings, solarId) is
 * recorded in the audit log with each value before and after. A change of the retention period is an administrator's
 * (403 for other staff) and is recorded in the audit log with the period before and after, in the
 * same transaction. Returns the stored row.
 */
export async function updateSettings(
  db: Db,
  values: SettingsSave,
  actor: SettingsActor,
): Promise<SettingsRow> {
  return db.transaction(async (tx) => {
    const stored = presentSettings(await getSettings(tx));
    const before = stored.retentionDays;
    const isChanged = values.retentionDays !== undefined && values.retentionDays !== before;
    if (isChanged && !actor.isAdmin) throw forbidden(SettingsMessages.retentionAdminOnly);
    const row = await saveSettings(tx, values);
    if (isChanged)
      await recordAudit(tx, {
        kind: 'retention-changed',
        username: actor.username,
        ip: actor.ip,
        subject: 'settings',
        details: { before, after: row.retentionDays },
      });
    // The send settings' changes, each with its value before and after.
    const after = presentSettings(row);
    await recordFieldChanges(tx, actor, 'settings', stored, after, ['minMailings', 'solarId']);
    return row;
  });
}

/**
 * Saves the global test person (PUT /api/testperson); a change is a 'settings-changed' entry in
 * the audit log, in the same transaction, naming the fields that changed (never their values: the
 * e-mail address is a person's). Returns the stored row.
 */
export async function updateTestPerson(
  db: Db,
  values: TestPerson,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<TestPersonRow> {
  return db.transaction(async (tx) => {
    const before = await getTestPerson(tx);
    const row = await saveTestPerson(tx, values);
    const fields = ['firstName', 'preposition', 'lastName', 'gender', 'email'] as const;
    const changed = fields.filter((k) => (before?.[k] ?? null) !== (row[k] ?? null));
    if (changed.length > 0)
      await recordAudit(tx, {
        kind: 'settings-changed',
        ...who,
        subject: 'testperson',
        details: { changed },
      });
    return row;
  });
}

/**
 * Saves the issuer's details ('Gegevens afnemer (afrekeningen)', PUT /api/settings/issuer), which
 * the route lets administrators alone do. A change is a 'settings-changed' entry in the audit log
 * (subject 'issuer'), in the same transaction, with each changed field before and after (company
 * details, no person's). Returns the issuer's details as stored.
 */
export async function updateIssuer(
  db: Db,
  values: Issuer,
  actor: Pick<AuditInput, 'username' | 'ip'>,
): Promise<Issuer> {
  return db.transaction(async (tx) => {
    const before = await getIssuer(tx);
    const after = presentIssuer(await saveIssuer(tx, values));
    await recordFieldChanges(tx, actor, 'issuer', before, after, Object.keys(after) as (keyof Issuer)[]);
    return after;
  });
}

/**
 * A 'settings-changed' audit entry for `subject` holding each of `keys` whose value differs between
 * `before` and `after`, with both values; none when nothing changed.
 */
async function recordFieldChanges<T extends object>(
  tx: DbOrTx,
  actor: Pick<AuditInput, 'username' | 'ip'>,
  subject: string,
  before: T,
  after: T,
  keys: readonly (keyof T & string)[],
): Promise<void> {
  const changed = keys.filter((k) => before[k] !== after[k]);
  if (changed.length === 0) return;
  await recordAudit(tx, {
    kind: 'settings-changed',
    username: actor.username,
    ip: actor.ip,
    subject,
    details: Object.fromEntries(changed.map((k) => [k, { before: before[k], after: after[k] }])),
  });
}
