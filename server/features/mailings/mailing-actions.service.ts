import type { PressureCheck } from '../../../common/mailings';
import type { Db } from '../../db/client';
import { type AuditInput, recordAudit } from '../audit/audit';
import { limitMailingAddresses } from './limit.queries';
import { allowBulkMemory, type Removed, refreshRecordCounts } from './mailing.queries';
import { requireDraft } from './mailing.service';
import { countPressureConflicts, deletePressureConflicts } from './pressure.queries';
import { mailingWindow } from './pressure.sql';

/**
 * Removes addresses of a draft until it holds at most `limit`, with their results in it, recorded in
 * the audit log as done by `who`; returns how many addresses and results went. Throws 404/409.
 */
export function limitMailing(
  db: Db,
  campaignId: string,
  mailingId: string,
  limit: number,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<Removed> {
  return db.transaction(async (tx) => {
    await requireDraft(tx, campaignId, mailingId);
    await allowBulkMemory(tx);
    const removed = await limitMailingAddresses(tx, mailingId, limit);
    if (removed.deleted > 0) await refreshRecordCounts(tx, mailingId);
    await recordAudit(tx, {
      kind: 'mailing-limit',
      ...who,
      subject: mailingId,
      rows: removed.deleted,
      details: { campaignId, limit, ...removed },
    });
    return removed;
  });
}

/** The pressure check of a draft (spec 001 §7 GET .../pressure) in its own week. Throws 404/409. */
export function checkPressure(db: Db, campaignId: string, mailingId: string): Promise<PressureCheck> {
  return db.transaction(async (tx) => {
    const row = await requireDraft(tx, campaignId, mailingId);
    await allowBulkMemory(tx);
    return countPressureConflicts(tx, mailingId, mailingWindow(row.plannedSend));
  });
}

/**
 * Removes a draft's addresses that break the pressure rule (DELETE .../pressure), with their results
 * in it, in the audit log as a limit done by `who`; returns how many addresses and results went.
 */
export function deletePressure(
  db: Db,
  campaignId: string,
  mailingId: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<Removed> {
  return db.transaction(async (tx) => {
    const row = await requireDraft(tx, campaignId, mailingId);
    await allowBulkMemory(tx);
    const removed = await deletePressureConflicts(tx, mailingId, mailingWindow(row.plannedSend));
    if (removed.deleted > 0) await refreshRecordCounts(tx, mailingId);
    await recordAudit(tx, {
      kind: 'mailing-limit',
      ...who,
      subject: mailingId,
      rows: removed.deleted,
      details: { campaignId, pressure: true, ...removed },
    });
    return removed;
  });
}
