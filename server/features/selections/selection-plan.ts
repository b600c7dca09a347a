import { type SQL, sql } from 'drizzle-orm';
import { pressureWindow } from '../../../common/pressure-date';
import type { DbOrTx } from '../../db/client';
import { pgTextArray } from '../../lib/pg-array';
import { pressureHeldSql } from '../mailings/pressure.sql';
import type { CompiledQuery } from './compile';
import type { DatasetCatalog } from './compile-context';
import { MULTI_PARTS, multiPart } from './sel.table';
import type { DirtyPartitions } from './sel-dirty.sql';

// DESIGN §4/§6, a selection run: candidates are the records matching the query tree in the
// datasets the settings allow, minus blacklists (the partner-dataset entry per dataset), hard
// bounces, pressure conflicts and what the mailing holds already; each address counts once, in
// its matching dataset with the lowest sort (ties by id), in its engagement category. This file
// reads what a run needs before its statement: the allowed datasets and where it reads its rows
// (its plan). The statement: selection-candidates.ts; the count: selection-count.ts; the
// allocation: selection-allocate.ts.

/** The settings of a selection that shape its candidates. */
export interface RunSettings {
  mailingId: string;
  /** The campaign's label (type): with useCampaignLabel only datasets carrying it. */
  campaignType: string | null;
  useBlacklist: boolean;
  activeDatasetsOnly: boolean;
  useCampaignLabel: boolean;
  useDate: boolean;
  /** The pressure date 'YYYY-MM-DD': the window is the 7 days before it (end exclusive). */
  pressureAge: string;
  /** Only the datasets that earlier campaigns (or one mailing of them) took addresses from. */
  useDatasetsFrom: { campaign: string; mailing?: string }[];
  /** Setting 'Minimale verzendingen': sent at least this often without an open is notOpenedOrClicked. */
  minMailings: number;
}

/** The datasets a run may take addresses from, in priority order: their ids and numbers (datasets.num). */
export interface AllowedDatasets {
  ids: string[];
  nums: number[];
}

/** The conditions on a dataset `d` of the settings' dataset filters (none: every dataset). */
function datasetFilters(s: RunSettings): SQL[] {
  const filters: SQL[] = [];
  if (s.activeDatasetsOnly) filters.push(sql`d.active`);
  if (s.useCampaignLabel && s.campaignType) filters.push(sql`${s.campaignType}::text = ANY(d.types)`);
  if (s.useDatasetsFrom.length > 0) {
    const from = sql.join(
      s.useDatasetsFrom.map((f) =>
        f.mailing
          ? sql`(fm.campaign_id = ${f.campaign} AND fm.id = ${f.mailing})`
          : sql`fm.campaign_id = ${f.campaign}`,
      ),
      sql` OR `,
    );
    filters.push(sql`d.id IN (SELECT fa.dataset_id FROM mailing_addresses fa
      JOIN mailings fm ON fm.id = fa.mailing_id WHERE ${from})`);
  }
  return filters;
}

/**
 * The datasets a run may take addresses from, in priority order (lowest sort first, ties by id):
 * the settings' dataset filters (active only, the campaign's label, the datasets of earlier
 * campaigns). Read in the run's own transaction, just before its count or allocation.
 */
export async function allowedDatasets(db: DbOrTx, s: RunSettings): Promise<AllowedDatasets> {
  const filters = datasetFilters(s);
  const where = filters.length > 0 ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``;
  const { rows } = await db.execute(sql`SELECT d.id, d.num FROM datasets d ${where} ORDER BY d.sort, d.id`);
  const list = rows as { id: string; num: number }[];
  return { ids: list.map((r) => r.id), nums: list.map((r) => Number(r.num)) };
}

/**
 * The allowed datasets with their priority rank (1 = the first in allowedDatasets), as a FROM
 * item `ds(id, rank)`. An array parameter, not a CTE over datasets: a CTE scan is parallel
 * restricted and the planner guessed its size, so it hashed the records instead of the 300
 * datasets and ran the whole count in one process (docs/decisions.md, Selection engine and counts).
 */
export const rankedDatasets = (datasetIds: string[]) =>
  sql`unnest(${pgTextArray(datasetIds)}::text[]) WITH ORDINALITY AS ds(id, rank)`;

/** The datasets by number (DatasetCatalog), read in the caller's transaction. */
export async function datasetCatalog(db: DbOrTx): Promise<DatasetCatalog> {
  const { rows } = await db.execute(sql`SELECT num, id, types, description, partner_id FROM datasets`);
  const list = rows as {
    num: number;
    id: string;
    types: string[];
    description: string | null;
    partner_id: string;
  }[];
  const byNum = new Map(list.map((r) => [Number(r.num), r]));
  const size = list.reduce((max, r) => Math.max(max, Number(r.num)), 0);
  return Array.from({ length: size }, (_, i) => {
    const r = byNum.get(i + 1);
    return r && { id: r.id, types: r.types ?? [], description: r.description, partnerId: r.partner_id };
  });
}

/**
 * The tree to run in the caller's transaction: when its narrow compilation joins the dataset row,
 * compiled again with the datasets as that transaction sees them (CompiledQuery.withDatasets).
 */
export async function withCatalog(db: DbOrTx, tree: CompiledQuery): Promise<CompiledQuery> {
  if (!tree.withDatasets) return tree;
  return { ...tree, narrow: tree.withDatasets(await datasetCatalog(db)) };
}

/**
 * Where a run reads its rows: `records` joined with their addresses (the normalized tables), or
 * `sel_record`, the narrow table (migration 0025, sel-record.sql.ts) for every address not in
 * sel_dirty and the normalized tables for those in it. The same counts either way.
 */
export type RunSource = 'records' | 'sel_record';

/** Where the app's runs read (RunSource). */
export const DEFAULT_SOURCE: RunSource = 'sel_record';

/**
 * How a run reads: from records, or from sel_record with `dirty`, the addresses in sel_dirty at
 * the run's snapshot (read from the normalized tables), and `held`, what heldBitmap read with them.
 */
export type RunPlan =
  | { source: 'records' }
  | {
      source: 'sel_record';
      dirty: number[];
      held: HeldBitmap | null | undefined;
      /** The parts of sel_record_multi the statement reads (multiPartsWithRows); all of them when left out. */
      parts?: number[];
      /**
       * Where the dirty addresses' records are (dirtyPartitions), read in the statement's own
       * REPEATABLE READ snapshot: the statement reads those partitions by key. Left out (an
       * allocation, under READ COMMITTED): it reads them through records, every partition.
       */
      dirtyParts?: DirtyPartitions;
    };

/** The parts (0-based, multiPart) the statement of `plan` reads of sel_record_multi. */
export const planParts = (plan: Extract<RunPlan, { source: 'sel_record' }>) =>
  plan.parts ?? Array.from({ length: MULTI_PARTS }, (_, i) => i);

/**
 * The parts of sel_record_multi that hold a row in the caller's snapshot, for a run whose statement
 * sees that same snapshot (a REPEATABLE READ transaction; not an allocation, which reads under READ
 * COMMITTED): a part without rows adds nothing to the count, and its scan in the statement costs a
 * parallel plan's copy of the held addresses' bitmap (1M addresses: 4 empty parts, 90 of 850 ms).
 */
export async function multiPartsWithRows(db: DbOrTx): Promise<number[]> {
  const probes = Array.from(
    { length: MULTI_PARTS },
    (_, i) => sql`SELECT ${sql.raw(String(i))} AS part WHERE EXISTS (SELECT 1 FROM ${sql.raw(multiPart(i))})`,
  );
  const { rows } = await db.execute(sql.join(probes, sql` UNION ALL `));
  return (rows as { part: number }[]).map((r) => Number(r.part)).sort((x, y) => x - y);
}

/**
 * The addresses a count from sel_record leaves out of its rows whatever the tree, as a bitmap by
 * address id (bit n of `bits`, LSB first within a byte, as get_bit reads a bytea): the dirty ones
 * (read from records instead), those of the mailing itself and, with useDate, those another
 * Definitief or Aangeboden mailing holds in the pressure window. One get_bit a row instead of two
 * hashed anti-joins: at 300,000 held addresses their hash tables did not fit the caches, and the
 * probes of every row cost more than reading it. Bit n stands for address id `from` + n; ids
 * outside [from, from + size) are not held.
 */
export interface HeldBitmap {
  bits: Buffer;
  from: number;
  size: number;
}

/** The widest bitmap heldBitmap makes (bits: 32 MB); a wider spread of ids keeps the anti-joins. */
export const HELD_BITMAP_MAX_BITS = 2 ** 28;

/** The ids of the addresses the mailing of `s` holds and, with useDate, those held in its pressure window. */
async function heldIds(db: DbOrTx, s: RunSettings): Promise<number[]> {
  const parts = [sql`SELECT address_id FROM mailing_addresses WHERE mailing_id = ${s.mailingId}`];
  if (s.useDate) parts.push(pressureHeldSql(pressureWindow(s.pressureAge), s.mailingId));
  const { rows } = await db.execute(
    sql`SELECT string_agg(address_id::text, ',') AS ids FROM (${sql.join(parts, sql` UNION ALL `)}) h`,
  );
  const text = (rows[0] as { ids: string | null }).ids;
  return text ? text.split(',').map(Number) : [];
}

/** The HeldBitmap of `ids` (not empty); undefined when they spread wider than HELD_BITMAP_MAX_BITS. */
function bitmapOf(ids: number[]): HeldBitmap | undefined {
  let min = ids[0];
  let max = ids[0];
  for (const id of ids) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  const from = min - (min % 8);
  if (max - from >= HELD_BITMAP_MAX_BITS) return undefined;
  const bits = Buffer.alloc(Math.floor((max - from) / 8) + 1);
  for (const id of ids) {
    const n = id - from;
    bits[Math.floor(n / 8)] |= 1 << (n % 8);
  }
  return { bits, from, size: bits.length * 8 };
}

/**
 * The held addresses of a run of `s` and its `dirty` ones (HeldBitmap), read in the run's snapshot
 * (a REPEATABLE READ count: what the statement after it sees). Null when none is held; undefined
 * when their ids spread wider than HELD_BITMAP_MAX_BITS (the run then leaves them out by
 * anti-joins, as the records path does).
 */
export async function heldBitmap(
  db: DbOrTx,
  s: RunSettings,
  dirty: number[],
): Promise<HeldBitmap | null | undefined> {
  const ids = await heldIds(db, s);
  ids.push(...dirty);
  if (ids.length === 0) return null;
  return bitmapOf(ids);
}

/**
 * Past this many addresses in sel_dirty a run reads records: each dirty address is read from
 * records by its key in every dataset's partition, and a large write (an import) is refreshed
 * within seconds.
 */
export const DIRTY_LIMIT = 2_000;

/**
 * The plan of a run of `s` from `source`: sel_record when the tree compiled for it (tree.narrow)
 * and at most DIRTY_LIMIT addresses are dirty; their ids and the held addresses (heldBitmap) are
 * read here, so the caller's statement must see the same snapshot (a REPEATABLE READ transaction,
 * or the check of allocateCandidates).
 */
export async function runPlan(
  db: DbOrTx,
  tree: CompiledQuery,
  source: RunSource,
  s: RunSettings,
): Promise<RunPlan> {
  if (source === 'records' || !tree.narrow) return { source: 'records' };
  const dirty = await listDirtyAddresses(db);
  if (!dirty) return { source: 'records' };
  return { source: 'sel_record', dirty, held: await heldBitmap(db, s, dirty) };
}

/**
 * The addresses in sel_dirty at the caller's snapshot, in id order; null when there are more than
 * `limit` (a run then reads records). The selection runs and the counts of /counts read them so.
 */
export async function listDirtyAddresses(db: DbOrTx, limit = DIRTY_LIMIT): Promise<number[] | null> {
  // At most ten marks an address are read (a record's marks, an address's), so a large sel_dirty
  // (an import, an upgrade) costs a read of that many rows, not a DISTINCT over all of them.
  const { rows } = await db.execute(sql`SELECT address_id FROM sel_dirty LIMIT ${limit * 10}`);
  if (rows.length >= limit * 10) return null;
  const dirty = [...new Set((rows as { address_id: number }[]).map((r) => Number(r.address_id)))];
  if (dirty.length > limit) return null;
  return dirty.sort((x, y) => x - y);
}

/**
 * Turns JIT off for the rest of the transaction: a count plans a scan per dataset partition (500
 * of them), and compiling their expressions took 19.6 of 20.6 s at 100,000 addresses (bench/selection.ts).
 */
export const NO_JIT = sql`SET LOCAL jit = off`;

/**
 * Memory for the hash tables of a run from sel_record (the transaction's own): grouping the rows of
 * addresses with several records by address spilled to disk in batches at the default 4 MB.
 */
export const NARROW_WORK_MEM = sql`SET LOCAL work_mem = '128MB'`;
