import { sql } from 'drizzle-orm';
import { CampaignMessages } from '../../../common/campaigns';
import {
  MailingMessages,
  type MailingState,
  type MailingValues,
  PRESSURE_STATES,
  type PressureCheck,
} from '../../../common/mailings';
import type { Db, DbOrTx } from '../../db/client';
import { conflict, HttpError, notFound } from '../../lib/http-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import { getCampaign } from '../campaigns/campaign.queries';
import {
  allowBulkMemory,
  deleteMailingRow,
  getCampaignMailing,
  insertMailing,
  lockMailing,
  type MailingRow,
  resolvePlannedSend,
  updateMailingRow,
} from './mailing.queries';
import { countPressureConflicts, totalConflicts } from './pressure.queries';
import { mailingWindow, pressureLockSql } from './pressure.sql';
import { applySent, undoSent } from './sent-facts.queries';

const holdsPressure = (state: string) => PRESSURE_STATES.includes(state as MailingState);

/** The 409 of a state change that would break the pressure rule, with the counts by category. */
export function pressureConflictError(counts: PressureCheck): HttpError {
  return new HttpError(409, MailingMessages.pressureConflict(totalConflicts(counts)), undefined, counts);
}

/** Locks a campaign's mailing for the transaction; throws 404 (campaign or mailing) when absent. */
export async function requireMailing(tx: DbOrTx, campaignId: string, mailingId: string): Promise<MailingRow> {
  const row = await lockMailing(tx, campaignId, mailingId);
  if (row) return row;
  if (!(await getCampaign(tx, campaignId))) throw notFound(CampaignMessages.notFound);
  throw notFound(MailingMessages.notFound);
}

/**
 * A campaign's mailing, read without a lock (requireMailing locks FOR UPDATE, which a read-only
 * transaction refuses, and a count need not hold the mailing); 404 (campaign or mailing) when absent.
 */
export async function readMailing(db: DbOrTx, campaignId: string, mailingId: string): Promise<MailingRow> {
  const row = await getCampaignMailing(db, campaignId, mailingId);
  if (row) return row;
  if (!(await getCampaign(db, campaignId))) throw notFound(CampaignMessages.notFound);
  throw notFound(MailingMessages.notFound);
}

/** Locks a draft mailing; throws 404 when absent and 409 when it is not a draft. */
export async function requireDraft(tx: DbOrTx, campaignId: string, mailingId: string): Promise<MailingRow> {
  const row = await requireMailing(tx, campaignId, mailingId);
  if (row.state !== 'draft') throw conflict(MailingMessages.draftOnly);
  return row;
}

/**
 * Moves a mailing from `before` (its stored state and planned send) to `state` at `plannedSend`,
 * keeping both rules of DESIGN §4/§6: entering Definitief or Aangeboden (or moving its week while
 * there) is refused with 409 when any address is held by another such mailing of the week; leaving
 * Aangeboden (or moving its send) undoes the sent facts, entering it applies them.
 */
async function applyStateRules(
  tx: DbOrTx,
  before: MailingRow | null,
  mailingId: string,
  state: string,
  plannedSend: Date,
): Promise<void> {
  const moved = before !== null && before.plannedSend.getTime() !== plannedSend.getTime();
  const entersPressure = holdsPressure(state) && (before === null || !holdsPressure(before.state) || moved);
  if (entersPressure || (before?.state === 'offered') !== (state === 'offered') || moved)
    await allowBulkMemory(tx);
  const wasOffered = before?.state === 'offered';
  const isOffered = state === 'offered';
  const changesSent = (wasOffered && (!isOffered || moved)) || (isOffered && (!wasOffered || moved));
  // The sent facts are serialized on the same lock: undoSent reads the other offered mailings of an
  // address, and a statement that waited for a row lock still reads them as of its own start, so two
  // mailings leaving Aangeboden at once could each count the other as still offered.
  if (entersPressure || changesSent) await tx.execute(pressureLockSql());
  if (entersPressure) {
    const counts = await countPressureConflicts(tx, mailingId, mailingWindow(plannedSend));
    if (totalConflicts(counts) > 0) throw pressureConflictError(counts);
  }
  if (wasOffered && (!isOffered || moved) && before) await undoSent(tx, mailingId, before.plannedSend);
  if (isOffered && (!wasOffered || moved)) await applySent(tx, mailingId, plannedSend);
}

/**
 * Creates a mailing of a campaign (Concept unless the form says otherwise; another state is a
 * 'mailing-state' entry from none, as done by `who`); throws 404 for an unknown campaign.
 */
export function createMailing(
  db: Db,
  campaignId: string,
  values: MailingValues,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<MailingRow> {
  return db.transaction(async (tx) => {
    if (!(await getCampaign(tx, campaignId))) throw notFound(CampaignMessages.notFound);
    // A new mailing holds no addresses, so no state can conflict or count as sent yet.
    const row = await insertMailing(tx, campaignId, values);
    if (row.state !== 'draft')
      await recordAudit(tx, {
        kind: 'mailing-state',
        ...who,
        subject: row.id,
        details: { campaignId, from: null, to: row.state },
      });
    return row;
  });
}

/**
 * Saves a mailing's fields and state under the state rules (a changed state in the audit log, as
 * done by `who`); throws 404, or 409 on a pressure conflict.
 */
export function saveMailing(
  db: Db,
  campaignId: string,
  mailingId: string,
  values: MailingValues,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<MailingRow> {
  return db.transaction(async (tx) => {
    const before = await requireMailing(tx, campaignId, mailingId);
    // Without a planned send in the body the stored one stays (the form always sends it).
    const plannedSend =
      values.plannedSend === undefined
        ? before.plannedSend
        : await resolvePlannedSend(tx, values.plannedSend);
    await applyStateRules(tx, before, mailingId, values.state, plannedSend);
    if (before.state !== values.state)
      await recordAudit(tx, {
        kind: 'mailing-state',
        ...who,
        subject: mailingId,
        details: { campaignId, from: before.state, to: values.state },
      });
    return updateMailingRow(tx, mailingId, values, plannedSend);
  });
}

/**
 * Deletes a draft mailing, in the audit log as done by `who`; throws 404 when absent and 409 for
 * another state (spec 001 §4).
 */
export async function deleteMailing(
  db: Db,
  campaignId: string,
  mailingId: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await requireDraft(tx, campaignId, mailingId);
    await deleteMailingRow(tx, mailingId);
    await recordAudit(tx, {
      kind: 'mailing-deleted',
      ...who,
      subject: mailingId,
      details: { campaignId, name: row.name, state: row.state },
    });
  });
}

/**
 * Undoes the sent facts of a campaign's Aangeboden mailings before the campaign (and so its
 * mailings) is deleted, so no address keeps a send that no mailing says any more; each mailing so
 * cancelled has its state change in the audit log, as done by `who`.
 */
export async function releaseCampaignMailings(
  tx: DbOrTx,
  campaignId: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<void> {
  await tx.execute(pressureLockSql());
  const res = await tx.execute<{ id: string; planned_send: Date | string }>(sql`
    SELECT id, planned_send FROM mailings WHERE campaign_id = ${campaignId} AND state = 'offered'
    ORDER BY id FOR UPDATE`);
  for (const m of res.rows) {
    await undoSent(tx, m.id, new Date(m.planned_send));
    await tx.execute(sql`UPDATE mailings SET state = 'cancelled' WHERE id = ${m.id}`);
    await recordAudit(tx, {
      kind: 'mailing-state',
      ...who,
      subject: m.id,
      details: { campaignId, from: 'offered', to: 'cancelled', campaignDeleted: true },
    });
  }
}
