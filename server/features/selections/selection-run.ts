import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { CATEGORIES, type Category } from '../../../common/extra-inzet';
import { pressureWindow } from '../../../common/pressure-date';
import type { Db, DbOrTx } from '../../db/client';
import { badRequest } from '../../lib/http-errors';
import { pgTextArray } from '../../lib/pg-array';
import { isUniqueViolation } from '../../lib/pg-errors';
import { notBlacklistedSql } from '../blacklists/blacklist.sql';
import { CATEGORY_BY_CODE, categoryCodeSql, categoryOfCodeSql, rowFacts } from '../mailings/engagement.sql';
import { pressureConflictSql, pressureHeldSql } from '../mailings/pressure.sql';
import { type CompiledQuery, type DatasetCatalog, positionColumn } from './compile';

// DESIGN §4/§6, a selection run: candidates are the records matching the query tree in the
// datasets the settings allow, minus blacklists (the partner-dataset entry per dataset), hard
// bounces, pressure conflicts and what the mailing holds already; each address counts once, in
// its matching dataset with the lowest sort (ties by id), in its engagement category.

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

/**
 * The datasets a run may take addresses from, in priority order (lowest sort first, ties by id):
 * the settings' dataset filters (active only, the campaign's label, the datasets of earlier
 * campaigns). Read in the run's own transaction, just before its count or allocation.
 */
export async function allowedDatasets(db: DbOrTx, s: RunSettings): Promise<AllowedDatasets> {
  const datasetFilters: SQL[] = [];
  if (s.activeDatasetsOnly) datasetFilters.push(sql`d.active`);
  if (s.useCampaignLabel && s.campaignType) datasetFilters.push(sql`${s.campaignType}::text = ANY(d.types)`);
  if (s.useDatasetsFrom.length > 0) {
    const from = sql.join(
      s.useDatasetsFrom.map((f) =>
        f.mailing
          ? sql`(fm.campaign_id = ${f.campaign} AND fm.id = ${f.mailing})`
          : sql`fm.campaign_id = ${f.campaign}`,
      ),
      sql` OR `,
    );
    datasetFilters.push(sql`d.id IN (SELECT fa.dataset_id FROM mailing_addresses fa
      JOIN mailings fm ON fm.id = fa.mailing_id WHERE ${from})`);
  }
  const where = datasetFilters.length > 0 ? sql`WHERE ${sql.join(datasetFilters, sql` AND `)}` : sql``;
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
const rankedDatasets = (datasetIds: string[]) =>
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
async function withCatalog(db: DbOrTx, tree: CompiledQuery): Promise<CompiledQuery> {
  if (!tree.withDatasets) return tree;
  return { ...tree, narrow: tree.withDatasets(await datasetCatalog(db)) };
}

/**
 * The rank of the dataset number `num` (datasets.num) among the allowed datasets, for sel_record
 * rows: an element of an array indexed by the number, 0 for a dataset not allowed and NULL past
 * its end, so no join per row.
 */
function rankOfNum(nums: number[], num: SQL): SQL {
  const ranks = new Array<number>(nums.length === 0 ? 0 : Math.max(...nums)).fill(0);
  nums.forEach((n, i) => {
    ranks[n - 1] = i + 1;
  });
  return sql`(${`{${ranks.join(',')}}`}::int[])[${num}]`;
}

/**
 * Where a run reads its rows: `records` joined with their addresses (the normalized tables), or
 * `sel_record`, the narrow table (migration 0025, sel-record.sql.ts) for every address not in
 * sel_dirty and the normalized tables for those in it. The same counts either way.
 */
export type RunSource = 'records' | 'sel_record';

/**
 * How a run reads: from records, or from sel_record with `dirty`, the addresses in sel_dirty at
 * the run's snapshot (read from the normalized tables), and `held`, what heldBitmap read with them.
 */
export type RunPlan =
  | { source: 'records' }
  | { source: 'sel_record'; dirty: number[]; held: HeldBitmap | null | undefined };

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

/**
 * The held addresses of a run of `s` and its `dirty` ones (HeldBitmap), read in the run's snapshot (a REPEATABLE READ count: what the statement
 * after it sees). Null when none is held; undefined when their ids spread wider than
 * HELD_BITMAP_MAX_BITS (the run then leaves them out by anti-joins, as the records path does).
 */
export async function heldBitmap(
  db: DbOrTx,
  s: RunSettings,
  dirty: number[],
): Promise<HeldBitmap | null | undefined> {
  const parts = [sql`SELECT address_id FROM mailing_addresses WHERE mailing_id = ${s.mailingId}`];
  if (s.useDate) parts.push(pressureHeldSql(pressureWindow(s.pressureAge), s.mailingId));
  const { rows } = await db.execute(
    sql`SELECT string_agg(address_id::text, ',') AS ids FROM (${sql.join(parts, sql` UNION ALL `)}) h`,
  );
  const text = (rows[0] as { ids: string | null }).ids;
  const ids = text ? text.split(',').map(Number) : [];
  ids.push(...dirty);
  if (ids.length === 0) return null;
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
async function runPlan(db: DbOrTx, tree: CompiledQuery, source: RunSource, s: RunSettings): Promise<RunPlan> {
  if (source === 'records' || !tree.narrow) return { source: 'records' };
  // At most ten marks an address are read (a record's marks, an address's), so a large sel_dirty
  // (an import, an upgrade) costs a read of that many rows, not a DISTINCT over all of them.
  const { rows } = await db.execute(sql`SELECT address_id FROM sel_dirty LIMIT ${DIRTY_LIMIT * 10}`);
  if (rows.length >= DIRTY_LIMIT * 10) return { source: 'records' };
  const dirty = [...new Set((rows as { address_id: number }[]).map((r) => Number(r.address_id)))];
  if (dirty.length > DIRTY_LIMIT) return { source: 'records' };
  dirty.sort((x, y) => x - y);
  return { source: 'sel_record', dirty, held: await heldBitmap(db, s, dirty) };
}

const bigintArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;

/**
 * The CTE `hit` (one row per candidate address: its best rank and category) for a compiled tree
 * over the allowed datasets (allowedDatasets, in priority order); the caller selects from it
 * and maps a rank back to its dataset with rankedDatasets.
 */
export function candidatesSql(
  tree: CompiledQuery,
  s: RunSettings,
  allowed: AllowedDatasets,
  plan: RunPlan,
  sample?: Sample,
): SQL {
  if (plan.source === 'records' || !tree.narrow) {
    return sql`WITH hit AS (${recordsHitSql(tree, s, allowed.ids, null)})`;
  }
  return sql`WITH hit AS (${narrowHitSql(tree.narrow, s, allowed, plan.dirty, plan.held, sample)}${
    plan.dirty.length > 0
      ? sql` UNION ALL ${recordsHitSql(tree, s, allowed.ids, sql`r.address_id = ANY(${bigintArray(plan.dirty)})`)}`
      : sql``
  })`;
}

/**
 * What an allocation takes of the candidates, for a test in the scan of sel_record that leaves out
 * rows no cell can take, before the tree and the exclusions: each cell takes only candidates whose
 * seeded hash is under its bound (allocateCandidates). `byRank[rank - 1]`: the largest bound of the
 * cells of that rank as int8 text (the int8 maximum when one of them has none), null for a rank no
 * cell asks for. The test keeps a superset of what the cells take (`<=` the largest bound):
 * - a row of an address with one record has its rank: it is kept when its hash is at most its
 *   rank's bound;
 * - a row of sel_multi or sel_record_multi only when its address's hash is at most the largest
 *   bound of all, since which of its records wins is known only after the tree (a better record in
 *   a dataset no cell asks for still takes the address away from the others).
 */
export interface Sample {
  seed: number;
  byRank: (string | null)[];
}

/** The largest int8, the bound of a rank with a cell that takes all its candidates. */
const INT8_MAX = '9223372036854775807';

/** The test of `sample` (Sample) for the row `r` with the rank `rank` (null: its address's only). */
function sampleTest(sample: Sample, rank: SQL | null): SQL {
  const hash = sql`hashint8extended(r.address_id, ${sample.seed}::bigint)`;
  if (rank) {
    const bounds = `{${sample.byRank.map((b) => b ?? 'NULL').join(',')}}`;
    return sql`${hash} <= (${bounds}::int8[])[${rank}]`;
  }
  const asked = sample.byRank.filter((b): b is string => b !== null);
  const max = asked.reduce((m, b) => (BigInt(b) > BigInt(m) ? b : m), asked[0] ?? INT8_MAX);
  return sql`${hash} <= ${max}::int8`;
}

/** The candidates read from records with their addresses, of the addresses `only` selects (null: all). */
function recordsHitSql(tree: CompiledQuery, s: RunSettings, datasetIds: string[], only: SQL | null): SQL {
  const exclusions: SQL[] = [sql`a.hard_bounced_at IS NULL`];
  // As anti-joins (three NOT EXISTS at the top of the WHERE), not NOT (.. OR ..): see notBlacklistedSql.
  if (s.useBlacklist) exclusions.push(notBlacklistedSql('a', 'd'));
  exclusions.push(...dynamicExclusions(sql`a.id`, s));
  if (only) exclusions.push(only);
  return sql`SELECT r.address_id, min(ds.rank) AS rank, ${categoryCodeSql('a', s.minMailings)} AS code
      FROM records r JOIN ${rankedDatasets(datasetIds)} ON ds.id = r.dataset_id
      JOIN datasets d ON d.id = r.dataset_id JOIN addresses a ON a.id = r.address_id${tree.values}
      WHERE ${tree.where} AND ${sql.join(exclusions, sql` AND `)}
      GROUP BY r.address_id, a.id`;
}

/** The hash partitions by address of sel_record_multi (migration 0025). */
const MULTI_PARTS = 4;

/** The exclusions no table holds ready: the pressure of the selection's week, what the mailing holds. */
function dynamicExclusions(addressId: SQL, s: RunSettings): SQL[] {
  const out: SQL[] = [];
  if (s.useDate) {
    out.push(sql`NOT ${pressureConflictSql(addressId, pressureWindow(s.pressureAge), s.mailingId)}`);
  }
  out.push(
    sql`NOT EXISTS (SELECT 1 FROM mailing_addresses own WHERE own.mailing_id = ${s.mailingId} AND own.address_id = ${addressId})`,
  );
  return out;
}

/**
 * The candidates read from sel_record and sel_multi (research §5 layouts B3 and B4), of the
 * addresses not in `dirty`: an address with one record is a candidate as its row stands, one with
 * two or three is one row of sel_multi (multiHitSql), and only the rows of addresses with more
 * (sel_record_multi) are grouped by address for the priority; the exclusions are the row's flags
 * and the held addresses' bitmap (`held`; undefined: the dynamic anti-joins and `dirty`). With
 * `sample` (an allocation's bounds) rows no cell can take are left out first.
 */
function narrowHitSql(
  tree: CompiledQuery,
  s: RunSettings,
  allowed: AllowedDatasets,
  dirty: number[],
  held: HeldBitmap | null | undefined,
  sample?: Sample,
): SQL {
  // The address's exclusions (a sel_multi row has them once); a record's partner block is the
  // record's (per position on sel_multi).
  const exclusions: SQL[] = [sql`NOT r.hard_bounced`];
  if (s.useBlacklist) exclusions.push(sql`NOT r.blacklisted`);
  if (held !== undefined) {
    // heldBitmap: the dynamic exclusions and the dirty addresses in one test. As `<> 1`, which the
    // planner estimates to keep 99.5% of the rows (about right): as `= 0` it estimated 0.5%, and
    // chose sorts and nested plans for a few hundred rows where hundreds of thousands came.
    if (held) {
      const n = sql`(r.address_id - ${held.from}::bigint)`;
      exclusions.push(
        sql`(${n} NOT BETWEEN 0 AND ${held.size - 1}::bigint OR get_bit(${held.bits}::bytea, ${n}) <> 1)`,
      );
    }
  } else {
    exclusions.push(...dynamicExclusions(sql`r.address_id`, s));
    if (dirty.length > 0) exclusions.push(sql`r.address_id <> ALL(${bigintArray(dirty)})`);
  }
  const dataset = tree.needsDataset ? sql` JOIN datasets d ON d.num = r.ds` : sql``;
  const joins = sql`${dataset}${tree.values}`;
  const rank = rankOfNum(allowed.nums, sql`r.ds`);
  const blocked = s.useBlacklist ? sql` AND NOT r.partner_blocked` : sql``;
  const where = sql`${rank} > 0${blocked} AND ${tree.where} AND ${sql.join(exclusions, sql` AND `)}`;
  const code = categoryCodeSql(rowFacts('r'), s.minMailings);
  const sampled = (test: SQL) => (sample ? sql`${test} AND ` : sql``);
  const single = sql`SELECT r.address_id, ${rank} AS rank, ${code} AS code
      FROM sel_record_single r${joins} WHERE ${sample ? sampled(sampleTest(sample, rank)) : sql``}${where}`;
  const addressSample = sample ? sampled(sampleTest(sample, null)) : sql``;
  // Each part of sel_record_multi (hash partitions by address) grouped apart: its GROUP BY is
  // complete, and the parts run in parallel (one process each) beside the single rows' scan. By
  // the address alone, its category from the least code of its rows (they carry the same facts):
  // grouping by the three facts as well cost a third more (1M: 96 against 60 ms a part).
  const many = Array.from(
    { length: MULTI_PARTS },
    (_, i) => sql`SELECT r.address_id, min(${rank}) AS rank, min(${code}) AS code
      FROM ${sql.raw(`sel_record_multi_${i}`)} r${joins} WHERE ${addressSample}${where}
      GROUP BY r.address_id`,
  );
  const multi = multiHitSql(
    tree,
    s,
    allowed,
    sample ? [sampleTest(sample, null), ...exclusions] : exclusions,
  );
  return sql.join([single, multi, ...many], sql` UNION ALL `);
}

/**
 * The candidates of sel_multi (research §5 layout B4): one row per address with 2..MULTI_POSITIONS
 * records, the tree evaluated for the record in each position (tree.positions). A position counts
 * when its dataset is allowed (and, with useBlacklist, its partner does not block the address) and
 * its record matches; the address takes the best rank among those (LEAST ignores the NULLs of the
 * others), so no GROUP BY. `exclusions`: the address's own, as for sel_record rows.
 */
function multiHitSql(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, exclusions: SQL[]): SQL {
  const positions = tree.positions ?? [];
  const column = (k: number, name: string) => sql.raw(`r.${positionColumn(k, name)}`);
  // A tree that reads no column of the record (its compilations for two positions are the same
  // statement: the empty tree, address fields, interests, a file of e-mail addresses) is evaluated
  // once a row, as a filter: per position it cost each of its file leaves a hash of the file in
  // every process (1M, a file of 100,000 e-mail addresses: 0.37 → 0.57 s).
  const positionFree = positions.length > 1 && sameStatement(positions[0].where, positions[1].where);
  const matches = positions.map((at, i) => {
    const k = i + 1;
    const rank = rankOfNum(allowed.nums, column(k, 'ds'));
    const blocked = s.useBlacklist ? sql` AND NOT ${column(k, 'partner_blocked')}` : sql``;
    // coalesce: a position without a record (p3 of an address with two) has rank NULL, and an AND
    // whose first operand is NULL goes on to evaluate the rest (it could still be FALSE).
    const allowedHere = sql`coalesce(${rank}, 0) > 0`;
    return { rank, test: sql`${allowedHere}${blocked}${positionFree ? sql`` : sql` AND ${at.where}`}` };
  });
  const datasets = tree.needsDataset
    ? sql.join(
        positions.map((_, i) =>
          sql.raw(` LEFT JOIN datasets d${i + 1} ON d${i + 1}.num = r.${positionColumn(i + 1, 'ds')}`),
        ),
        sql``,
      )
    : sql``;
  const rank = sql`LEAST(${sql.join(
    matches.map((m) => sql`CASE WHEN ${m.test} THEN ${m.rank} END`),
    sql`, `,
  )})`;
  // Rows no position of which matches are left out by the filter, so the rank (the tree again,
  // position by position) is computed for the matching rows only: 7-9% faster for the selective
  // trees at 20M, the same for a broad one (deep and/or/not, half the rows matching).
  const any = sql`(${sql.join(
    matches.map((m) => sql`(${m.test})`),
    sql` OR `,
  )})`;
  const where = positionFree ? [tree.where, ...exclusions] : [...exclusions, any];
  return sql`SELECT r.address_id, ${rank} AS rank, ${categoryCodeSql(rowFacts('r'), s.minMailings)} AS code
      FROM sel_multi r${datasets}${tree.values}
      WHERE ${sql.join(where, sql` AND `)}`;
}

/** Whether two SQL fragments render as the same statement with the same parameters. */
function sameStatement(a: SQL, b: SQL): boolean {
  const [x, y] = [dialect.sqlToQuery(a), dialect.sqlToQuery(b)];
  return x.sql === y.sql && JSON.stringify(x.params) === JSON.stringify(y.params);
}

/** Counts of one dataset in a run, per category. */
export interface DatasetCounts extends Record<Category, number> {
  datasetId: string;
}

/**
 * Runs the count of a compiled tree: per dataset (that has candidates) the counts per category. In
 * one REPEATABLE READ, read-only transaction, so the dirty addresses it reads first (runPlan) are
 * those of the snapshot its count reads.
 */
export async function countCandidates(
  db: Db,
  tree: CompiledQuery,
  s: RunSettings,
  source: RunSource = DEFAULT_SOURCE,
): Promise<DatasetCounts[]> {
  const { rows } = await db.transaction(
    async (tx) => {
      const { allowed, statement } = await prepareCount(tx, tree, s, source);
      const counted = await tx.execute(statement);
      cellSizes.remember(tree, s, allowed, counted.rows as CellSize[]);
      return counted;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return foldCounts(rows as CellSize[]);
}

/**
 * The count statement of countCandidates in the caller's transaction (REPEATABLE READ): its
 * settings set, the allowed datasets, the plan and the tree as that transaction reads them.
 */
export async function prepareCount(
  tx: DbOrTx,
  tree: CompiledQuery,
  s: RunSettings,
  source: RunSource = DEFAULT_SOURCE,
): Promise<{ allowed: AllowedDatasets; statement: SQL }> {
  await tx.execute(NO_JIT);
  const allowed = await allowedDatasets(tx, s);
  const plan = await runPlan(tx, tree, source, s);
  if (plan.source === 'sel_record') await tx.execute(NARROW_WORK_MEM);
  const run = plan.source === 'sel_record' ? await withCatalog(tx, tree) : tree;
  return { allowed, statement: countSql(run, s, allowed, plan) };
}

/** A row of countSql: a cell and its number of candidates. */
type CellSize = { dataset_id: string; category: Category; n: number };

const cellKey = (datasetId: string, category: string) => `${datasetId}\u0000${category}`;

/** countSql's rows as a map cell key → size. */
const sizesOf = (rows: CellSize[]) =>
  new Map(rows.map((r) => [cellKey(r.dataset_id, r.category), Number(r.n)]));

/**
 * The cell sizes of this process's latest counts (countCandidates), by what was counted: the
 * tree's statement over records with its parameters, the settings and the allowed datasets in
 * their order. An allocation soon after a count of the same query (the builder saves the table
 * its count showed) takes its cells' hash bounds from them instead of counting again (at 1M
 * addresses the sizing count was a fifth of the allocation). Sizes only set the bounds: a stale
 * size leaves a cell short of its bound (run again without one) or sorting more candidates than
 * needed, never another address (the property test allocates with sizes scaled at random).
 */
export const cellSizes = {
  /** How long a count's sizes serve allocations (ms). */
  maxAgeMs: 15 * 60_000,
  /** How many counts are kept (the oldest goes first). */
  kept: 64,
  entries: new Map<string, { at: number; sizes: Map<string, number> }>(),
  key(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets): string {
    const q = dialect.sqlToQuery(candidatesSql(tree, s, allowed, { source: 'records' }));
    const text = JSON.stringify([q.sql, q.params, allowed.ids], (_, v) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    return createHash('sha256').update(text).digest('hex');
  },
  remember(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, rows: CellSize[]): void {
    const key = this.key(tree, s, allowed);
    this.entries.delete(key);
    this.entries.set(key, { at: Date.now(), sizes: sizesOf(rows) });
    for (const old of this.entries.keys()) {
      if (this.entries.size <= this.kept) break;
      this.entries.delete(old);
    }
  },
  recall(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets): Map<string, number> | undefined {
    const hit = this.entries.get(this.key(tree, s, allowed));
    return hit && Date.now() - hit.at <= this.maxAgeMs ? hit.sizes : undefined;
  },
};

const dialect = new PgDialect();

/** Where the app's runs read (RunSource). */
export const DEFAULT_SOURCE: RunSource = 'sel_record';

/** The count statement of a compiled tree: rows (dataset_id, category, n). */
function countSql(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, plan: RunPlan): SQL {
  // Counted by the integers rank and code, then named: grouping 12 million candidates by the
  // dataset's text id and the category's name after joining them cost a third of a count (1M).
  return sql`${candidatesSql(tree, s, allowed, plan)}
      SELECT ds.id AS dataset_id, ${categoryOfCodeSql(sql`c.code`)} AS category, c.n
      FROM (SELECT h.rank, h.code, count(*)::int AS n FROM hit h GROUP BY h.rank, h.code) c
      JOIN ${rankedDatasets(allowed.ids)} ON ds.rank = c.rank`;
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
const NARROW_WORK_MEM = sql`SET LOCAL work_mem = '128MB'`;

/** Folds (dataset, category, n) rows into one DatasetCounts per dataset. */
export function foldCounts(rows: { dataset_id: string; category: Category; n: number }[]): DatasetCounts[] {
  const byDataset = new Map<string, DatasetCounts>();
  for (const row of rows) {
    let c = byDataset.get(row.dataset_id);
    if (!c) {
      c = { datasetId: row.dataset_id, new: 0, notOpenedOrClicked: 0, opens: 0, clicks: 0 };
      byDataset.set(row.dataset_id, c);
    }
    c[row.category] = Number(row.n);
  }
  return [...byDataset.values()];
}

/** How many addresses of one dataset and category to allocate. */
export interface Quota {
  datasetId: string;
  category: Category;
  n: number;
}

export const AllocationMessages = {
  notEnough: (dataset: string, category: string, wanted: number, available: number) =>
    `Niet genoeg adressen in bestand ${dataset} (${category}): ${wanted} gevraagd, ${available} beschikbaar`,
} as const;

/**
 * Allocates exactly the quotas to the mailing (DESIGN §6): per dataset and category the candidates
 * with the smallest seeded hash, inserted into mailing_addresses under the selection. Run inside a
 * transaction that holds the mailing's allocation lock; throws 400 (and so rolls back) when a cell
 * has fewer candidates than asked. Returns the number of addresses allocated.
 */
export async function allocateCandidates(
  tx: DbOrTx,
  tree: CompiledQuery,
  s: RunSettings,
  selectionId: string,
  seed: number,
  quotas: Quota[],
  source: RunSource = DEFAULT_SOURCE,
): Promise<number> {
  const wanted = quotas.filter((q) => q.n > 0);
  if (wanted.length === 0) return 0;
  await tx.execute(NO_JIT);
  const allowed = await allowedDatasets(tx, s);
  // Each cell's size (research §3): a cell takes its n candidates with the smallest seeded hash,
  // which are the same however many larger ones are left out, so only those under a bound that
  // leaves about n + 5√n + 20 of them are sorted. The sizes only set the bounds: a cell that finds
  // fewer under its bound than it asks is run again without one. They come from a recent count of
  // the same query (cellSizes), else from a count here.
  if (source === 'sel_record') await tx.execute(NARROW_WORK_MEM);
  const run = source === 'sel_record' ? await withCatalog(tx, tree) : tree;
  let sizes = cellSizes.recall(tree, s, allowed);
  if (!sizes) {
    const { rows: sized } = await tx.execute(countSql(run, s, allowed, await runPlan(tx, tree, source, s)));
    sizes = sizesOf(sized as CellSize[]);
  }
  const unbounded = new Set<string>();
  let rows: { dataset_id: string; category: string; n: number }[] = [];
  let conflicts = 0;
  // The dirty addresses are read before the statement (their number picks the plan), so under
  // READ COMMITTED a refresh or a write may come between: the statement checks that sel_dirty
  // still holds exactly those, and is undone (savepoint) and run again when it does not; after
  // three such tries it reads records, where nothing can come between.
  for (let attempt = 0; ; ) {
    // The held addresses are read with the dirty ones: the mailing's own cannot change meanwhile
    // (its allocation lock), the dirty ones are checked below, and a move of another mailing into
    // Definitief checks the pressure itself (as it did against the anti-join's snapshot).
    const plan = attempt < 3 ? await runPlan(tx, tree, source, s) : ({ source: 'records' } as const);
    const same =
      plan.source === 'records'
        ? sql`TRUE`
        : sql`(SELECT coalesce(array_agg(DISTINCT address_id ORDER BY address_id), '{}') FROM sel_dirty)
            = ${bigintArray(plan.dirty)}`;
    // Each cell with its dataset's rank and its category's code, as hit gives them (0: a dataset
    // not allowed or an unknown category, which no candidate has).
    const cells = wanted.map((q) => {
      const key = cellKey(q.datasetId, q.category);
      return {
        ...q,
        rank: allowed.ids.indexOf(q.datasetId) + 1,
        code: CATEGORY_BY_CODE.indexOf(q.category) + 1,
        bound: unbounded.has(key) ? null : hashBound(q.n, sizes.get(key) ?? 0),
      };
    });
    const sampleOf = (of: typeof cells): Sample | undefined => {
      if (!allocationSample.on) return undefined;
      const byRank = new Array<string | null>(allowed.ids.length).fill(null);
      for (const c of of) {
        if (c.rank === 0) continue;
        const was = byRank[c.rank - 1];
        const bound = c.bound ?? INT8_MAX;
        byRank[c.rank - 1] = was === null || BigInt(bound) > BigInt(was) ? bound : was;
      }
      return { seed, byRank };
    };
    class Retry extends Error {}
    let short: string[] = [];
    try {
      rows = await tx.transaction(async (sp) => {
        // Chosen by a plain SELECT, inserted by a second statement: PostgreSQL plans no parallel
        // scan for a statement that writes (an INSERT in a CTE included), so the one statement of
        // before read all candidates in one process (20M: an allocation took twice its count).
        const { rows: picked } =
          await sp.execute(sql`${candidatesSql(run, s, allowed, plan, sampleOf(cells))},
          quota AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(cells)}::jsonb)
            AS q(rank int, code int, n int, bound int8)),
          cell AS (
            SELECT h.address_id, h.rank, h.code, q.n, hashint8extended(h.address_id, ${seed}::bigint) AS hash
            FROM hit h JOIN quota q ON q.rank = h.rank AND q.code = h.code
            WHERE q.bound IS NULL OR hashint8extended(h.address_id, ${seed}::bigint) < q.bound),
          ranked AS (
            SELECT address_id, rank, code, n,
                   row_number() OVER (PARTITION BY rank, code ORDER BY hash, address_id) AS rn
            FROM cell)
          SELECT array_agg(address_id ORDER BY address_id)::text AS ids,
                 array_agg(rank ORDER BY address_id)::text AS ranks,
                 array_agg(code ORDER BY address_id)::text AS codes, ${same} AS dirty_same
          FROM ranked WHERE rn <= n`);
        const pick = picked[0] as { ids: string | null; ranks: string; codes: string; dirty_same: boolean };
        if (!pick.dirty_same) {
          attempt++;
          throw new Retry();
        }
        // In address order, so the rows reach mailing_addresses' keys in their order (at 1M:
        // 1.9-2.1 s against 2.3-3.0 s for 100,000 addresses; docs/decisions.md,
        // Allocation and mail pressure).
        // A plain INSERT: with ON CONFLICT DO NOTHING each row was inserted speculatively (20M,
        // 100,000 rows: 0.53 against 0.39 s). No row should conflict (the mailing's own addresses
        // are no candidates, and its allocation lock keeps other saves out); should one, the unique
        // key refuses it and the choice is made again.
        const insert = (db: DbOrTx, onConflict: SQL) =>
          db.execute(sql`WITH inserted AS (
              INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
              SELECT ${s.mailingId}, c.id, (${pgTextArray(allowed.ids)}::text[])[c.rank], ${selectionId},
                     (${pgTextArray(CATEGORY_BY_CODE)}::text[])[c.code]
              FROM unnest(${pick.ids}::bigint[], ${pick.ranks}::int[], ${pick.codes}::int[]) AS c(id, rank, code)
              ${onConflict}
              RETURNING dataset_id, category)
            SELECT dataset_id, category, count(*)::int AS n FROM inserted GROUP BY dataset_id, category`);
        let got: unknown[] = [];
        if (pick.ids) {
          await allocationHooks.beforeInsert?.(sp, pick.ids);
          try {
            got = (await sp.transaction((plain) => insert(plain, sql``))).rows;
          } catch (err) {
            if (!isUniqueViolation(err)) throw err;
            // Another writer put one of them in the mailing since the choice: choose again (that
            // address is then the mailing's own); the third time, skip such rows instead.
            conflicts++;
            if (conflicts < 3) throw new Retry();
            got = (await insert(sp, sql`ON CONFLICT DO NOTHING`)).rows;
          }
        }
        const typed = got as typeof rows;
        const counted = new Map(typed.map((r) => [cellKey(r.dataset_id, r.category), Number(r.n)]));
        short = cells
          .filter((c) => c.bound !== null && (counted.get(cellKey(c.datasetId, c.category)) ?? 0) < c.n)
          .map((c) => cellKey(c.datasetId, c.category));
        if (short.length > 0) throw new Retry();
        return typed;
      });
      break;
    } catch (err) {
      if (!(err instanceof Retry)) throw err;
      for (const key of short) unbounded.add(key);
    }
  }
  const got = new Map(
    rows.filter((r) => r.dataset_id !== null).map((r) => [cellKey(r.dataset_id, r.category), Number(r.n)]),
  );
  let total = 0;
  for (const q of wanted) {
    const n = got.get(cellKey(q.datasetId, q.category)) ?? 0;
    if (n < q.n) throw badRequest(AllocationMessages.notEnough(q.datasetId, q.category, q.n, n));
    total += n;
  }
  return total;
}

/**
 * The seeded hash (int8) under which about n + 5√n + 20 of a cell's `size` candidates fall (q + 5√q
 * + 20 left no cell short in the research's runs), as text for jsonb; null when that is all of them.
 */
export function hashBound(n: number, size: number): string | null {
  const keep = n + allocationSlack.extra(n);
  if (size <= 0 || keep >= size) return null;
  const parts = BigInt(Math.ceil((Math.max(0, keep) / size) * 1e9));
  if (parts >= 1_000_000_000n) return null;
  return String((2n ** 64n * parts) / 1_000_000_000n - 2n ** 63n);
}

/**
 * A test's look between an allocation's choice and its insert: `beforeInsert` runs in the
 * allocation's transaction with the chosen address ids (an array's text).
 */
export const allocationHooks: { beforeInsert?: (db: DbOrTx, ids: string) => Promise<void> } = {};

/** Whether allocations test the cells' bounds in the scan (Sample); the property test turns it off and on. */
export const allocationSample = { on: true };

/**
 * How many candidates above its n a cell's hash bound leaves (hashBound). The property test sets
 * it to none or fewer than n, so cells fall short of their bound and are run again without one.
 */
export const allocationSlack = { extra: (n: number) => 5 * Math.sqrt(n) + 20 };

/** The saved rows of a mailing: what it holds already, per dataset and category at allocation. */
export async function countMailingAddresses(db: DbOrTx, mailingId: string): Promise<DatasetCounts[]> {
  const { rows } = await db.execute(sql`SELECT dataset_id, category, count(*)::int AS n
    FROM mailing_addresses WHERE mailing_id = ${mailingId} GROUP BY dataset_id, category`);
  return foldCounts(rows as { dataset_id: string; category: Category; n: number }[]);
}

export { CATEGORIES };
