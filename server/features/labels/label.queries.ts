import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaigns } from '../campaigns/campaign.table';
import { datasets } from '../datasets/dataset.table';
import { labels } from './label.table';

/** A database handle or an open transaction. */
export type Conn = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Lists the label names sorted case-insensitively. */
export async function listLabels(db: Conn): Promise<string[]> {
  const rows = await db
    .select({ name: labels.name })
    .from(labels)
    .orderBy(asc(sql`lower(${labels.name})`), asc(labels.name));
  return rows.map((r) => r.name);
}

/** Finds the label equal to `name` ignoring case; undefined when there is none. */
export async function findLabelIgnoringCase(db: Conn, name: string): Promise<string | undefined> {
  const [row] = await db
    .select({ name: labels.name })
    .from(labels)
    .where(sql`lower(${labels.name}) = lower(${name})`)
    .limit(1);
  return row?.name;
}

/** Inserts a label; returns false when it already exists. */
export async function insertLabel(db: Conn, name: string): Promise<boolean> {
  const rows = await db
    .insert(labels)
    .values({ name })
    .onConflictDoNothing()
    .returning({ name: labels.name });
  return rows.length > 0;
}

/**
 * Locks a label row against deletion until the transaction ends (FOR SHARE by users of the label,
 * FOR UPDATE by its deletion); returns whether it exists.
 */
export async function lockLabel(tx: Conn, name: string, mode: 'share' | 'update'): Promise<boolean> {
  const base = tx.select({ name: labels.name }).from(labels).where(eq(labels.name, name));
  const rows = mode === 'share' ? await base.for('share') : await base.for('update');
  return rows.length > 0;
}

/** Where a label is used: up to `limit` datasets (partner/dataset) and campaign names, and how many more. */
export async function findLabelUsage(
  db: Conn,
  name: string,
  limit = 5,
): Promise<{ datasets: string[]; campaigns: string[]; more: number }> {
  const inDataset = sql`${name} = ANY(${datasets.types})`;
  const inCampaign = eq(campaigns.type, name);
  // One after the other: inside a transaction they share one connection.
  const dsRows = await db
    .select({ partnerId: datasets.partnerId, name: datasets.name })
    .from(datasets)
    .where(inDataset)
    .orderBy(asc(datasets.partnerId), asc(datasets.name))
    .limit(limit);
  const cRows = await db
    .select({ name: campaigns.name })
    .from(campaigns)
    .where(inCampaign)
    .orderBy(asc(campaigns.name))
    .limit(limit);
  const [dsCount] = await db.select({ n: sql<number>`count(*)::int` }).from(datasets).where(inDataset);
  const [cCount] = await db.select({ n: sql<number>`count(*)::int` }).from(campaigns).where(inCampaign);
  return {
    datasets: dsRows.map((r) => `${r.partnerId}/${r.name}`),
    campaigns: cRows.map((r) => r.name),
    more: dsCount.n - dsRows.length + cCount.n - cRows.length,
  };
}

/** Deletes a label; returns whether it existed. */
export async function deleteLabel(db: Conn, name: string): Promise<boolean> {
  const rows = await db.delete(labels).where(eq(labels.name, name)).returning({ name: labels.name });
  return rows.length > 0;
}
