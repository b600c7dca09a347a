import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { participationFactorOn } from '../../../common/dataset-rates';
import { CATEGORIES } from '../../../common/extra-inzet';
import {
  type LiveCount,
  LiveCountSchema,
  type ResultRow,
  type Selection,
  type SelectionInput,
} from '../../../common/selections';
import type { DbOrTx } from '../../db/client';
import { newId } from '../../lib/ids';
import { pgTextArray } from '../../lib/pg-array';
import { deleteWithResults, type Removed } from '../mailings/mailing.queries';
import { selections } from './selection.table';
import type { DatasetCounts } from './selection-count';

/** A stored row of selections. */
export type SelectionRow = typeof selections.$inferSelect;

/** Presents a selection as API JSON (spec 001 §3): `_id`, date as ISO, the settings as sent. */
export function presentSelection(row: SelectionRow): Selection {
  return {
    _id: row.id,
    campaign: row.campaignId,
    mailing: row.mailingId,
    date: row.createdAt.toISOString(),
    recordCount: row.recordCount,
    description: row.description,
    query: row.query,
    preDefined: row.preDefined,
    useBlacklist: row.useBlacklist,
    activeDatasetsOnly: row.activeDatasetsOnly,
    useCampaignLabel: row.useCampaignLabel,
    useDate: row.useDate,
    pressure: { age: row.pressureAge },
    useDatasetsFrom: row.useDatasetsFrom as Selection['useDatasetsFrom'],
    lastCount: lastCountOf(row),
  };
}

/** What a count counted: the tree and the settings of a selection, saved or on screen. */
export type CountBasis = Pick<
  SelectionRow,
  | 'query'
  | 'useBlacklist'
  | 'activeDatasetsOnly'
  | 'useCampaignLabel'
  | 'useDate'
  | 'pressureAge'
  | 'useDatasetsFrom'
>;

/** JSON with every object's keys sorted, so that two equal values give the same text (as jsonb compares). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The basis of a count as one text: a stored count belongs to the selection while their bases are equal. */
export function basisKey(b: CountBasis): string {
  return canonicalJson({
    query: b.query,
    useBlacklist: b.useBlacklist,
    activeDatasetsOnly: b.activeDatasetsOnly,
    useCampaignLabel: b.useCampaignLabel,
    useDate: b.useDate,
    pressureAge: b.pressureAge ?? null,
    useDatasetsFrom: b.useDatasetsFrom,
  });
}

/** The stored last count of a selection when it counted the tree and settings the selection holds now; else null. */
function lastCountOf(row: SelectionRow): LiveCount | null {
  const stored = LastCountSchema.safeParse(row.lastCount);
  if (!stored.success || stored.data.basis !== basisKey(row)) return null;
  return stored.data.count;
}

/** The stored form of selections.last_count: the count and the basis it counted (basisKey). */
const LastCountSchema = z.object({ count: LiveCountSchema, basis: z.string() });

/**
 * Stores a count of `basis` as the selection's last count (shown when the selection is reopened
 * while it still holds that tree and those settings), when the selection holds that basis now: a
 * count of an edit not saved never wipes the count of what is saved. A newer count is never
 * overwritten by an older one that finished later.
 */
export async function storeLastCount(
  db: DbOrTx,
  id: string,
  count: LiveCount,
  basis: CountBasis,
): Promise<void> {
  const [row] = await db.select().from(selections).where(eq(selections.id, id));
  const key = basisKey(basis);
  if (!row || basisKey(row) !== key) return;
  const stored = { count, basis: key };
  await db.execute(sql`UPDATE selections SET last_count = ${JSON.stringify(stored)}::jsonb
    WHERE id = ${id} AND (last_count IS NULL OR last_count #>> '{count,countedAt}' <= ${count.countedAt})`);
}

/** The selections of a mailing, newest first. */
export function listSelections(db: DbOrTx, mailingId: string): Promise<SelectionRow[]> {
  return db
    .select()
    .from(selections)
    .where(eq(selections.mailingId, mailingId))
    .orderBy(desc(selections.createdAt), desc(selections.id));
}

/** One selection of a mailing; undefined when absent. */
export async function getSelection(
  db: DbOrTx,
  mailingId: string,
  id: string,
): Promise<SelectionRow | undefined> {
  const [row] = await db
    .select()
    .from(selections)
    .where(and(eq(selections.id, id), eq(selections.mailingId, mailingId)));
  return row;
}

const columnsOf = (v: Partial<SelectionInput>) => ({
  ...(v.query !== undefined ? { query: v.query } : {}),
  ...(v.description !== undefined ? { description: v.description } : {}),
  ...(v.useBlacklist !== undefined ? { useBlacklist: v.useBlacklist } : {}),
  ...(v.activeDatasetsOnly !== undefined ? { activeDatasetsOnly: v.activeDatasetsOnly } : {}),
  ...(v.useCampaignLabel !== undefined ? { useCampaignLabel: v.useCampaignLabel } : {}),
  ...(v.useDate !== undefined ? { useDate: v.useDate } : {}),
  ...(v.pressure !== undefined ? { pressureAge: v.pressure.age } : {}),
  ...(v.preDefined !== undefined ? { preDefined: v.preDefined } : {}),
  ...(v.useDatasetsFrom !== undefined ? { useDatasetsFrom: v.useDatasetsFrom } : {}),
});

/** Inserts a selection of a mailing with a new id and seed; returns the row. */
export async function insertSelection(
  db: DbOrTx,
  campaignId: string,
  mailingId: string,
  values: SelectionInput,
): Promise<SelectionRow> {
  const [row] = await db
    .insert(selections)
    .values({ id: newId(), campaignId, mailingId, ...columnsOf(values) })
    .returning();
  return row;
}

/** Updates the given fields of a selection; returns the row. */
export async function updateSelection(
  db: DbOrTx,
  id: string,
  values: Partial<SelectionInput>,
): Promise<SelectionRow> {
  const set = columnsOf(values);
  if (Object.keys(set).length === 0) {
    const [row] = await db.select().from(selections).where(eq(selections.id, id));
    return row;
  }
  const [row] = await db.update(selections).set(set).where(eq(selections.id, id)).returning();
  return row;
}

/**
 * Deletes a selection of mailing `mailingId` with the addresses it allocated and their results in
 * the mailing (deleteWithResults: a result is of an address in the mailing); the selections' delete
 * trigger then finds none of its addresses left. Returns how many addresses and results went.
 */
export async function deleteSelectionRow(db: DbOrTx, mailingId: string, id: string): Promise<Removed> {
  const removed = await deleteWithResults(
    db,
    mailingId,
    sql`DELETE FROM mailing_addresses ma WHERE ma.mailing_id = ${mailingId} AND ma.selection_id = ${id}
    RETURNING ma.address_id`,
  );
  await db.delete(selections).where(eq(selections.id, id));
  return removed;
}

/** The predefined selections with their mailing and campaign names, newest first. */
export async function listPredefined(db: DbOrTx) {
  const { rows } = await db.execute(sql`
    SELECT s.id, s.query, s.description, m.id AS mailing_id, m.name AS mailing_name,
           c.id AS campaign_id, c.name AS campaign_name
    FROM selections s JOIN mailings m ON m.id = s.mailing_id JOIN campaigns c ON c.id = s.campaign_id
    WHERE s.pre_defined ORDER BY s.created_at DESC, s.id`);
  return rows as {
    id: string;
    query: unknown;
    description: string;
    mailing_id: string;
    mailing_name: string;
    campaign_id: string;
    campaign_name: string;
  }[];
}

/**
 * The result rows of a run (spec 001 §3/§4): first what the mailing holds (saved, sort −1), then
 * each dataset with candidates by its sort, with its name, sort and the participation factor valid
 * on the planned send day.
 */
export async function resultRows(
  db: DbOrTx,
  saved: DatasetCounts[],
  found: DatasetCounts[],
  sendDay: string,
): Promise<ResultRow[]> {
  const ids = [...new Set([...saved, ...found].map((c) => c.datasetId))];
  if (ids.length === 0) return [];
  const { rows } = await db.execute(sql`
    SELECT d.id, d.name, d.sort,
      coalesce((SELECT json_agg(json_build_object('start', p.start, 'end', p."end", 'factor', p.factor))
        FROM dataset_participations p WHERE p.dataset_id = d.id), '[]') AS participation
    FROM datasets d WHERE d.id = ANY(${pgTextArray(ids)}::text[])`);
  const info = new Map(
    (
      rows as {
        id: string;
        name: string;
        sort: number;
        participation: { start: string; end: string; factor: string }[];
      }[]
    ).map((r) => [r.id, r]),
  );
  const row = (c: DatasetCounts, isSaved: boolean): ResultRow => {
    const d = info.get(c.datasetId);
    const factor = participationFactorOn(
      (d?.participation ?? []).map((p) => ({ ...p, factor: Number(p.factor) })),
      sendDay,
    );
    const total = CATEGORIES.reduce((n, k) => n + c[k], 0);
    return {
      dataset: { id: c.datasetId, name: d?.name ?? c.datasetId, factor, sort: d?.sort ?? 0 },
      saved: isSaved,
      sort: isSaved ? -1 : (d?.sort ?? 0),
      new: c.new,
      notOpenedOrClicked: c.notOpenedOrClicked,
      opens: c.opens,
      clicks: c.clicks,
      total,
    };
  };
  const bySort = (a: ResultRow, b: ResultRow) =>
    a.dataset.sort - b.dataset.sort ||
    (a.dataset.id < b.dataset.id ? -1 : a.dataset.id > b.dataset.id ? 1 : 0);
  return [...saved.map((c) => row(c, true)).sort(bySort), ...found.map((c) => row(c, false)).sort(bySort)];
}
