import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { ExternalParty } from '../../../common/campaigns';
import type { Mailing, MailingState, MailingValues } from '../../../common/mailings';
import type { DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { mailings } from './mailing.table';

/** A row of the mailings table as Drizzle selects it. */
export type MailingRow = typeof mailings.$inferSelect;

/** A mailing row with what its list row shows: its selections (newest first) and result counts. */
export interface MailingListRow extends MailingRow {
  selectionIds: string[];
  opens: number;
  clicks: number;
  bounces: number;
}

/** Presents a mailing as API JSON (spec 001 §3): `_id`, the campaign id, plannedSend as ISO. */
export function presentMailing(row: MailingListRow): Mailing {
  return {
    _id: row.id,
    campaign: row.campaignId,
    name: row.name,
    state: row.state as MailingState,
    plannedSend: row.plannedSend.toISOString(),
    budget: row.budget,
    addresses: row.addresses,
    interests: row.interests,
    externalParty: row.externalParty as ExternalParty,
    externalId: row.externalIds,
    recordCount: row.recordCount,
    selections: row.selectionIds,
    results: { opens: row.opens, clicks: row.clicks, bounces: row.bounces },
  };
}

/**
 * A planned send as SQL: an instant with a zone as it is; a day or an instant without a zone in
 * the business time zone; undefined (not given) as now.
 */
export function plannedSendSql(value: string | undefined): SQL {
  if (value === undefined) return sql`now()`;
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.length > 10) return sql`${value}::timestamptz`;
  return sql`(${value}::timestamp AT TIME ZONE 'Europe/Amsterdam')`;
}

const listColumns = sql`m.*,
  coalesce((SELECT array_agg(s.id ORDER BY s.created_at DESC, s.id) FROM selections s WHERE s.mailing_id = m.id), '{}') AS selection_ids,
  rc.opens, rc.clicks, rc.bounces`;
// One scan of a mailing's results for its three counts (distinct addresses per kind of event).
const resultCounts = sql`LEFT JOIN LATERAL (
  SELECT count(DISTINCT r.address_id) FILTER (WHERE r.event = 'open')::int AS opens,
    count(DISTINCT r.address_id) FILTER (WHERE r.event = 'click')::int AS clicks,
    count(DISTINCT r.address_id) FILTER (WHERE r.event IN ('hardBounce', 'softBounce'))::int AS bounces
  FROM mailing_results r WHERE r.mailing_id = m.id) rc ON true`;

interface RawListRow {
  id: string;
  campaign_id: string;
  name: string;
  state: string;
  planned_send: Date | string;
  budget: string;
  addresses: number;
  interests: string[];
  external_party: string;
  external_ids: string[];
  record_count: number;
  created_at: Date | string;
  updated_at: Date | string;
  selection_ids: string[];
  opens: number;
  clicks: number;
  bounces: number;
  [key: string]: unknown;
}

function fromRaw(r: RawListRow): MailingListRow {
  return {
    id: r.id,
    campaignId: r.campaign_id,
    name: r.name,
    state: r.state,
    plannedSend: new Date(r.planned_send),
    budget: r.budget,
    addresses: r.addresses,
    interests: r.interests,
    externalParty: r.external_party,
    externalIds: r.external_ids,
    recordCount: r.record_count,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    selectionIds: r.selection_ids,
    opens: r.opens,
    clicks: r.clicks,
    bounces: r.bounces,
  };
}

/** The mailings of a campaign with their list fields, newest planned send first. */
export async function listMailings(db: DbOrTx, campaignId: string): Promise<MailingListRow[]> {
  const res = await db.execute<RawListRow>(sql`SELECT ${listColumns} FROM mailings m ${resultCounts}
    WHERE m.campaign_id = ${campaignId} ORDER BY m.planned_send DESC, m.created_at DESC, m.id`);
  return res.rows.map(fromRaw);
}

/** One mailing of a campaign with its list fields; undefined when absent. */
export async function getMailingView(
  db: DbOrTx,
  campaignId: string,
  mailingId: string,
): Promise<MailingListRow | undefined> {
  const res = await db.execute<RawListRow>(sql`SELECT ${listColumns} FROM mailings m ${resultCounts}
    WHERE m.campaign_id = ${campaignId} AND m.id = ${mailingId}`);
  return res.rows[0] ? fromRaw(res.rows[0]) : undefined;
}

/** One mailing of a campaign, locked FOR UPDATE until the transaction ends; undefined when absent. */
export async function lockMailing(
  tx: DbOrTx,
  campaignId: string,
  mailingId: string,
): Promise<MailingRow | undefined> {
  const [row] = await campaignMailing(tx, campaignId, mailingId).for('update');
  return row;
}

/** The select of one mailing of a campaign. */
const campaignMailing = (db: DbOrTx, campaignId: string, mailingId: string) =>
  db
    .select()
    .from(mailings)
    .where(and(eq(mailings.id, mailingId), eq(mailings.campaignId, campaignId)));

/** A campaign's mailing without a lock; undefined when absent. */
export async function getCampaignMailing(
  db: DbOrTx,
  campaignId: string,
  mailingId: string,
): Promise<MailingRow | undefined> {
  const [row] = await campaignMailing(db, campaignId, mailingId);
  return row;
}

/** Inserts a mailing of a campaign with a new id; returns the row. */
export async function insertMailing(
  db: DbOrTx,
  campaignId: string,
  values: MailingValues,
): Promise<MailingRow> {
  const [row] = await db
    .insert(mailings)
    .values({
      id: newId(),
      campaignId,
      name: values.name,
      state: values.state,
      plannedSend: plannedSendSql(values.plannedSend),
      budget: values.budget,
      addresses: values.addresses,
      interests: values.interests,
      externalParty: values.externalParty,
      externalIds: values.externalId,
    })
    .returning();
  return row;
}

/** The planned send a value would store (so a state change can see whether its week moves). */
export async function resolvePlannedSend(db: DbOrTx, value: string | undefined): Promise<Date> {
  const res = await db.execute<{ at: Date | string }>(sql`SELECT ${plannedSendSql(value)} AS at`);
  return new Date(res.rows[0].at);
}

/** Stores a mailing's fields (plannedSend resolved already); returns the row. */
export async function updateMailingRow(
  db: DbOrTx,
  id: string,
  values: MailingValues,
  plannedSend: Date,
): Promise<MailingRow> {
  const [row] = await db
    .update(mailings)
    .set({
      name: values.name,
      state: values.state,
      plannedSend,
      budget: values.budget,
      addresses: values.addresses,
      interests: values.interests,
      externalParty: values.externalParty,
      externalIds: values.externalId,
      updatedAt: new Date(),
    })
    .where(eq(mailings.id, id))
    .returning();
  return row;
}

/** Deletes a mailing (its selections, addresses and results go with it). */
export async function deleteMailingRow(db: DbOrTx, id: string): Promise<void> {
  await db.delete(mailings).where(eq(mailings.id, id));
}

/** What a removal of addresses from a mailing took: the addresses, and their results in it. */
export interface Removed {
  deleted: number;
  results: number;
}

/**
 * Runs `removal`, a DELETE FROM mailing_addresses ma of mailing `mailingId`'s rows only that ends in
 * `RETURNING ma.address_id`, and deletes in the same statement the results those addresses had in
 * the mailing. A result is of an address in the mailing (a results file's rows for any other
 * address are skipped as notInMailing), so limit, pressure delete and a selection's delete go
 * through here (an erasure deletes the results in its own statement, a deleted mailing's go by its
 * trigger): the mailings screen, the reports, the timeline and a copy, which all read a mailing's
 * results, then count the same addresses (docs/decisions.md, Mailings: Results of removed
 * addresses). Returns how many addresses and results went.
 */
export async function deleteWithResults(db: DbOrTx, mailingId: string, removal: SQL): Promise<Removed> {
  // The results by their key, which starts with the mailing: a mailing without results (a draft,
  // mostly) costs an empty range, and no other mailing's results are read (docs/performance.md,
  // Mailings).
  const res = await db.execute<{ deleted: number; results: number }>(sql`
    WITH gone AS (${removal}),
    gone_results AS (DELETE FROM mailing_results r USING gone
      WHERE r.mailing_id = ${mailingId} AND r.address_id = gone.address_id RETURNING 1)
    SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT count(*) FROM gone_results)::int AS results`);
  return { deleted: Number(res.rows[0].deleted), results: Number(res.rows[0].results) };
}

/** The datasets a mailing's addresses (or one selection's) were allocated from. */
export async function listMailingDatasets(
  db: DbOrTx,
  mailingId: string,
  selectionId?: string,
): Promise<string[]> {
  const res = await db.execute<{ dataset_id: string }>(sql`
    SELECT DISTINCT dataset_id FROM mailing_addresses WHERE mailing_id = ${mailingId}
    ${selectionId ? sql`AND selection_id = ${selectionId}` : sql``} ORDER BY dataset_id`);
  return res.rows.map((r) => r.dataset_id);
}

/**
 * Lets this transaction's joins, sorts and groupings over a mailing's (up to millions of) addresses
 * run in memory rather than in batches on disk.
 */
export async function allowBulkMemory(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
}

/**
 * Runs `update` (a statement writing up to millions of `addresses` rows) with merge joins instead
 * of hash joins, so that it visits the addresses in id order: each page of the table and of its
 * primary key is then read and written once, where a hash join's order jumps between them (a
 * million rows: 3.7 instead of 11.5 s of CPU, docs/decisions.md, Mailings).
 */
export async function inAddressOrder<T>(tx: DbOrTx, update: () => Promise<T>): Promise<T> {
  await tx.execute(sql`SET LOCAL enable_hashjoin = off`);
  const result = await update();
  await tx.execute(sql`RESET enable_hashjoin`);
  return result;
}

/**
 * Sets the record counts of a mailing and of each of its selections to what mailing_addresses
 * holds. The selection engine calls this after allocating; limit, pressure delete and copy too.
 */
export async function refreshRecordCounts(db: DbOrTx, mailingId: string): Promise<void> {
  await db.execute(sql`
    UPDATE selections s SET record_count = coalesce(c.n, 0)
    FROM selections s2 LEFT JOIN (
      SELECT selection_id, count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${mailingId}
      GROUP BY selection_id
    ) c ON c.selection_id = s2.id
    WHERE s2.mailing_id = ${mailingId} AND s.id = s2.id AND s.record_count IS DISTINCT FROM coalesce(c.n, 0)`);
  await db.execute(sql`
    UPDATE mailings SET record_count = (SELECT count(*)::int FROM mailing_addresses WHERE mailing_id = ${mailingId})
    WHERE id = ${mailingId}`);
}
