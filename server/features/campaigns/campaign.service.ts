import {
  CampaignMessages,
  type CampaignValues,
  campaignLabelMissingMessage,
} from '../../../common/campaigns';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../lib/http-errors';
import { type AuditInput, recordAudit } from '../audit/audit';
import { type Conn, lockLabel } from '../labels/label.queries';
import { releaseCampaignMailings } from '../mailings/mailing.service';
import { type CampaignRow, deleteCampaign, insertCampaign, updateCampaign } from './campaign.queries';

// The campaign's label must exist; FOR SHARE keeps a concurrent label deletion from slipping in
// between this check and the commit (the deletion locks FOR UPDATE, then checks usage).
async function ensureLabel(tx: Conn, type: string | null): Promise<void> {
  if (type !== null && !(await lockLabel(tx, type, 'share'))) {
    throw badRequest(campaignLabelMissingMessage(type));
  }
}

/** Creates a campaign; throws 400 when its label does not exist. */
export function createCampaign(db: Db, values: CampaignValues): Promise<CampaignRow> {
  return db.transaction(async (tx) => {
    await ensureLabel(tx, values.type);
    return insertCampaign(tx, values);
  });
}

/** Saves a campaign's fields; throws 404 when absent and 400 when its label does not exist. */
export function saveCampaign(db: Db, id: string, values: CampaignValues): Promise<CampaignRow> {
  return db.transaction(async (tx) => {
    await ensureLabel(tx, values.type);
    const row = await updateCampaign(tx, id, values);
    if (!row) throw notFound(CampaignMessages.notFound);
    return row;
  });
}

/**
 * Deletes a campaign with its mailings; its Aangeboden mailings stop counting as sent first, so no
 * address keeps a send no mailing says (DESIGN §6), each cancelled in the audit log as done by
 * `who`. The audit log then has each mailing deleted (with its state as it went) and the campaign
 * (its name and number of mailings). Returns whether the campaign existed.
 */
export function removeCampaign(
  db: Db,
  id: string,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await releaseCampaignMailings(tx, id, who);
    const deleted = await deleteCampaign(tx, id);
    if (!deleted) return false;
    for (const m of deleted.mailings)
      await recordAudit(tx, {
        kind: 'mailing-deleted',
        ...who,
        subject: m.id,
        details: { campaignId: id, name: m.name, state: m.state, campaignDeleted: true },
      });
    await recordAudit(tx, {
      kind: 'campaign-deleted',
      ...who,
      subject: id,
      details: { name: deleted.name, mailings: deleted.mailings.length },
    });
    return true;
  });
}
