import { type AnyColumn, and, asc, count, desc, eq, gte, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE } from '../../../common/calendar-day';
import type { Campaign, CampaignMailing, CampaignValues, ExternalParty } from '../../../common/campaigns';
import type { MailingState } from '../../../common/mailings';
import type { Db } from '../../db/client';
import { newId } from '../../lib/ids';
import { pgTextArray } from '../../lib/pg-array';
import type { Conn } from '../labels/label.queries';
import { mailings } from '../mailings/mailing.table';
import { campaigns } from './campaign.table';

/** A row of the campaigns table as Drizzle selects it. */
export type CampaignRow = typeof campaigns.$inferSelect;

/**
 * Presents a campaign row as API JSON with its mailings; recordCount (the sum of its mailings'
 * records, spec 001 §3) only when counted (not for noCount).
 */
export function presentCampaign(row: CampaignRow, mailings: CampaignMailing[], isCounted = true): Campaign {
  return {
    _id: row.id,
    name: row.name,
    mailings,
    customer: row.customer,
    start: row.start,
    type: row.type,
    addresses: row.addresses,
    budget: row.budget,
    externalParty: row.externalParty as ExternalParty,
    externalIds: row.externalIds,
    ...(isCounted ? { recordCount: mailings.reduce((n, m) => n + m.recordCount, 0) } : {}),
  };
}

/** The mailings of each campaign (spec 001 §3 Campaign `mailings`), newest planned send first. */
export async function listCampaignMailings(db: Conn, ids: string[]): Promise<Map<string, CampaignMailing[]>> {
  const byCampaign = new Map(ids.map((id) => [id, [] as CampaignMailing[]]));
  if (ids.length === 0) return byCampaign;
  const rows = await db
    .select({
      campaignId: mailings.campaignId,
      id: mailings.id,
      name: mailings.name,
      state: mailings.state,
      plannedSend: mailings.plannedSend,
      addresses: mailings.addresses,
      recordCount: mailings.recordCount,
    })
    .from(mailings)
    .where(sql`${mailings.campaignId} = ANY(${pgTextArray(ids)}::text[])`)
    .orderBy(desc(mailings.plannedSend), asc(mailings.id));
  for (const r of rows) {
    byCampaign.get(r.campaignId)?.push({
      _id: r.id,
      name: r.name,
      state: r.state as MailingState,
      plannedSend: r.plannedSend.toISOString(),
      addresses: r.addresses,
      recordCount: r.recordCount,
    });
  }
  return byCampaign;
}

// Newest start first; campaigns without a start last, then the newest made first.
const newestFirst = [sql`${campaigns.start} DESC NULLS LAST`, desc(campaigns.createdAt), asc(campaigns.id)];

/** Case-insensitive search over name, customer, id and label (a plain substring, no wildcards). */
function searchCondition(term: string): SQL {
  const needle = term.toLowerCase();
  const has = (col: SQL | AnyColumn) => sql`strpos(lower(${col}), ${needle}) > 0`;
  return or(
    has(campaigns.name),
    has(campaigns.customer),
    has(campaigns.id),
    has(sql`coalesce(${campaigns.type}, '')`),
  )!;
}

/** One page (1-based) of campaigns, newest start first, optionally filtered by a search term. */
export async function listCampaignPage(
  db: Db,
  page: number,
  pageSize: number,
  term?: string,
): Promise<{ rows: CampaignRow[]; total: number }> {
  const where = term ? searchCondition(term) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(campaigns)
      .where(where)
      .orderBy(...newestFirst)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(campaigns).where(where),
  ]);
  return { rows, total };
}

/** Campaigns whose start lies within the last `days` days or in the future, newest start first. */
export function listRecentCampaigns(db: Conn, days: number): Promise<CampaignRow[]> {
  // Today in Amsterdam (docs/decisions.md#dates), not current_date, which is the session's zone.
  const today = sql`(now() AT TIME ZONE ${BUSINESS_TIME_ZONE})::date`;
  return db
    .select()
    .from(campaigns)
    .where(and(isNotNull(campaigns.start), gte(campaigns.start, sql`${today} - ${days}::int`)))
    .orderBy(...newestFirst);
}

/** Finds a campaign by id; undefined when absent. */
export async function getCampaign(db: Conn, id: string): Promise<CampaignRow | undefined> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  return row;
}

/** Inserts a campaign with a new id; returns the row. */
export async function insertCampaign(db: Conn, values: CampaignValues): Promise<CampaignRow> {
  const [row] = await db
    .insert(campaigns)
    .values({ id: newId(), ...values })
    .returning();
  return row;
}

/** Updates a campaign's fields; returns the row or undefined when absent. */
export async function updateCampaign(
  db: Conn,
  id: string,
  values: CampaignValues,
): Promise<CampaignRow | undefined> {
  const [row] = await db
    .update(campaigns)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(campaigns.id, id))
    .returning();
  return row;
}

/** A campaign deleted with its mailings: its name and each mailing's id, name and state as it went. */
export interface DeletedCampaign {
  name: string;
  mailings: { id: string; name: string; state: string }[];
}

/**
 * Deletes a campaign and its mailings (their selections and allocations go with them by the
 * foreign keys); returns what went, or undefined when the campaign does not exist.
 */
export async function deleteCampaign(db: Conn, id: string): Promise<DeletedCampaign | undefined> {
  // The campaign row first, locked: no mailing is added to it between the two deletes.
  const [campaign] = await db
    .select({ name: campaigns.name })
    .from(campaigns)
    .where(eq(campaigns.id, id))
    .for('update');
  if (!campaign) return undefined;
  const gone = await db
    .delete(mailings)
    .where(eq(mailings.campaignId, id))
    .returning({ id: mailings.id, name: mailings.name, state: mailings.state });
  await db.delete(campaigns).where(eq(campaigns.id, id));
  return { name: campaign.name, mailings: gone.sort((a, b) => a.id.localeCompare(b.id)) };
}
