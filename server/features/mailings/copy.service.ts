import { sql } from 'drizzle-orm';
import { CampaignMessages } from '../../../common/campaigns';
import { type CopyType, MailingMessages } from '../../../common/mailings';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/http-errors';
import { newId } from '../../lib/ids';
import { type AuditInput, recordAudit } from '../audit/audit';
import { holdOffErasure } from '../avg/suppression';
import { getCampaign } from '../campaigns/campaign.queries';
import { selections } from '../selections/selection.table';
import { getMinMailings } from '../settings/settings.queries';
import { categorySql } from './engagement.sql';
import { allowBulkMemory, refreshRecordCounts } from './mailing.queries';
import { requireDraft } from './mailing.service';

/** What a copy takes: the source campaign, optionally one of its mailings, the type, a description. */
export interface CopySource {
  campaign: string;
  mailing?: string;
  type: CopyType;
  description: string;
}

// Which addresses of the source mailings a type takes, judged over all the source mailings'
// results together (spec 001 §7): a result event, or no open and no click at all.
const EVENT_OF: Record<Exclude<CopyType, 'notOpenedOrClicked'>, string> = {
  opens: 'open',
  clicks: 'click',
  hardBounce: 'hardBounce',
  softBounce: 'softBounce',
  rejected: 'rejected',
};

/**
 * Copies into a draft mailing, as a new selection with the description, the addresses of another
 * mailing (or of every mailing of a campaign) that have the chosen result type (DESIGN §4), skipping
 * what the draft already holds. Hard-bounced addresses are left out unless the type asks for them
 * (DESIGN §4: they never appear in selections). Returns the selection id and how many were added;
 * the audit log has it as an allocation done by `who`. Throws 404 (target, source campaign or
 * mailing) or 409 (target not a draft).
 */
export function copyAddresses(
  db: Db,
  campaignId: string,
  mailingId: string,
  source: CopySource,
  who: Pick<AuditInput, 'username' | 'ip'>,
): Promise<{ selectionId: string; copied: number }> {
  return getMinMailings(db).then((minMailings) =>
    db.transaction(async (tx) => {
      // First, before the draft's lock: no address is erased while the copy reads and writes the
      // draft's addresses (an erasure takes erased ones out of drafts), and each erasure before is seen.
      await holdOffErasure(tx);
      await requireDraft(tx, campaignId, mailingId);
      await allowBulkMemory(tx);
      if (!(await getCampaign(tx, source.campaign))) throw notFound(CampaignMessages.notFound);
      if (source.mailing) {
        const found = await tx.execute(
          sql`SELECT 1 FROM mailings WHERE id = ${source.mailing} AND campaign_id = ${source.campaign}`,
        );
        if (found.rows.length === 0) throw notFound(MailingMessages.notFound);
      }
      const selectionId = newId();
      await tx.insert(selections).values({
        id: selectionId,
        mailingId,
        campaignId,
        description: source.description,
        useDatasetsFrom: [
          { campaign: source.campaign, ...(source.mailing ? { mailing: source.mailing } : {}) },
        ],
      });
      const sourceFilter = source.mailing
        ? sql`sma.mailing_id = ${source.mailing}`
        : sql`sma.mailing_id IN (SELECT id FROM mailings WHERE campaign_id = ${source.campaign})`;
      const has =
        source.type === 'notOpenedOrClicked'
          ? sql`NOT EXISTS (SELECT 1 FROM mailing_results r WHERE r.mailing_id = sma.mailing_id
            AND r.address_id = sma.address_id AND r.event IN ('open', 'click'))`
          : sql`EXISTS (SELECT 1 FROM mailing_results r WHERE r.mailing_id = sma.mailing_id
            AND r.address_id = sma.address_id AND r.event = ${EVENT_OF[source.type]})`;
      // notOpenedOrClicked holds over all the source mailings: an open in any of them disqualifies.
      const combine = source.type === 'notOpenedOrClicked' ? sql`bool_and` : sql`bool_or`;
      const res = await tx.execute(sql`
      INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
      SELECT ${mailingId}, src.address_id, src.dataset_id, ${selectionId}, ${categorySql('a', minMailings)}
      FROM (
        SELECT sma.address_id, min(sma.dataset_id) AS dataset_id FROM mailing_addresses sma
        WHERE ${sourceFilter} AND sma.mailing_id <> ${mailingId}
        GROUP BY sma.address_id HAVING ${combine}(${has})
      ) src
      JOIN addresses a ON a.id = src.address_id
      WHERE a.erased_at IS NULL AND ${source.type === 'hardBounce' ? sql`true` : sql`a.hard_bounced_at IS NULL`}
      ON CONFLICT (mailing_id, address_id) DO NOTHING`);
      await refreshRecordCounts(tx, mailingId);
      const copied = res.rowCount ?? 0;
      await recordAudit(tx, {
        kind: 'allocation',
        ...who,
        subject: selectionId,
        rows: copied,
        details: {
          campaignId,
          mailingId,
          selectionId,
          allocated: copied,
          copiedFrom: { campaign: source.campaign, mailing: source.mailing ?? null, type: source.type },
        },
      });
      return { selectionId, copied };
    }),
  );
}
