import { type SQL, sql } from 'drizzle-orm';
import type { Category } from '../../../common/extra-inzet';
import type { DbOrTx } from '../../db/client';
import { badRequest } from '../../lib/http-errors';
import { bigintArray, pgTextArray } from '../../lib/pg-array';
import { isUniqueViolation } from '../../lib/pg-errors';
import { CATEGORY_BY_CODE } from '../mailings/engagement.sql';
import type { CompiledQuery } from './compile';
import { candidatesSql, INT8_MAX, type Sample } from './selection-candidates';
import { type CellSize, type CountOptions, cellKey, countSql, sizesOf } from './selection-count';
import {
  type AllowedDatasets,
  allowedDatasets,
  DEFAULT_SOURCE,
  NARROW_WORK_MEM,
  NO_JIT,
  type RunPlan,
  type RunSettings,
  type RunSource,
  runPlan,
  withCatalog,
} from './selection-plan';

// The allocation of a saved table (DESIGN §6; selection-plan.ts): per dataset and category the
// candidates (selection-candidates.ts) with the smallest seeded hash go into mailing_addresses.

/** How many addresses of one dataset and category to allocate. */
export interface Quota {
  datasetId: string;
  category: Category;
  n: number;
}

/** Messages of an allocation refused (400). */
export const AllocationMessages = {
  notEnough: (dataset: string, category: string, wanted: number, available: number) =>
    `Niet genoeg adressen in bestand ${dataset} (${category}): ${wanted} gevraagd, ${available} beschikbaar`,
} as const;

/**
 * How many candidates above its n a cell's hash bound leaves (hashBound): q + 5√q + 20 left no
 * cell short in the research's runs.
 */
export const ALLOCATION_SLACK = (n: number) => 5 * Math.sqrt(n) + 20;

/**
 * How an allocation runs: where it reads and the count sizes it may take its cells' bounds from
 * (CountOptions), and the knobs tests and benchmarks turn.
 */
export interface AllocateOptions extends CountOptions {
  /** Whether the cells' bounds are tested in the scan of sel_record too (Sample); true unless false. */
  sample?: boolean;
  /** How many candidates above its n a cell's bound leaves; ALLOCATION_SLACK unless given. */
  slack?: (n: number) => number;
  /** A test's look between the choice and its insert, in the allocation's transaction with the chosen ids (an array's text). */
  beforeInsert?: (db: DbOrTx, ids: string) => Promise<void>;
}

/** What one allocation works with, from its arguments and its first reads. */
interface Allocation {
  tree: CompiledQuery;
  /** The tree as the allocation's transaction reads it (withCatalog). */
  run: CompiledQuery;
  s: RunSettings;
  selectionId: string;
  seed: number;
  wanted: Quota[];
  source: RunSource;
  allowed: AllowedDatasets;
  /** Each cell's number of candidates, by cellKey. */
  sizes: Map<string, number>;
  options: AllocateOptions;
}

/** A quota with its dataset's rank and its category's code as `hit` gives them, and its hash bound. */
type Cell = Quota & { rank: number; code: number; bound: string | null };

/** A row the insert returns: how many addresses went into one cell. */
type Inserted = { dataset_id: string; category: string; n: number };

/** What one try of the allocation met that makes it try again: `short`, the cells to run without a bound. */
class Retry extends Error {
  constructor(readonly short: string[] = []) {
    super('retry');
  }
}

/** Counts across the tries of one allocation: dirty sets that changed, inserts refused by the key, cells run unbounded. */
interface Tries {
  attempt: number;
  conflicts: number;
  unbounded: Set<string>;
}

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
  options: AllocateOptions = {},
): Promise<number> {
  const wanted = quotas.filter((q) => q.n > 0);
  if (wanted.length === 0) return 0;
  const source = options.source ?? DEFAULT_SOURCE;
  const first = await prepareAllocation(tx, tree, s, source, options);
  const a: Allocation = { tree, s, selectionId, seed, wanted, source, options, ...first };
  return totalAllocated(wanted, await allocateWithRetries(tx, a));
}

/**
 * The first reads of an allocation: its settings, the allowed datasets, the tree as its transaction
 * reads it, and each cell's size.
 */
async function prepareAllocation(
  tx: DbOrTx,
  tree: CompiledQuery,
  s: RunSettings,
  source: RunSource,
  options: AllocateOptions,
): Promise<Pick<Allocation, 'run' | 'allowed' | 'sizes'>> {
  await tx.execute(NO_JIT);
  const allowed = await allowedDatasets(tx, s);
  // Each cell's size (../shared/research/selection-engine.md §3): a cell takes its n candidates with the smallest seeded hash,
  // which are the same however many larger ones are left out, so only those under a bound that
  // leaves about n + 5√n + 20 of them are sorted. The sizes only set the bounds: a cell that finds
  // fewer under its bound than it asks is run again without one. They come from a recent count of
  // the same query (options.sizes), else from a count here.
  if (source === 'sel_record') await tx.execute(NARROW_WORK_MEM);
  const run = source === 'sel_record' ? await withCatalog(tx, tree) : tree;
  let sizes = options.sizes?.recall(tree, s, allowed);
  if (!sizes) {
    const { rows: sized } = await tx.execute(countSql(run, s, allowed, await runPlan(tx, tree, source, s)));
    sizes = sizesOf(sized as CellSize[]);
  }
  return { run, allowed, sizes };
}

/**
 * Tries the allocation until one try holds (each in a savepoint, undone when it does not): the
 * dirty addresses are read before the statement (their number picks the plan), so under READ
 * COMMITTED a refresh or a write may come between; the statement checks that sel_dirty still holds
 * exactly those, and after three such tries the allocation reads records, where nothing can come
 * between. Returns the inserted rows per cell.
 */
async function allocateWithRetries(tx: DbOrTx, a: Allocation): Promise<Inserted[]> {
  const tries: Tries = { attempt: 0, conflicts: 0, unbounded: new Set() };
  for (;;) {
    // The held addresses are read with the dirty ones: the mailing's own cannot change meanwhile
    // (its allocation lock), the dirty ones are checked below, and a move of another mailing into
    // Definitief checks the pressure itself (as it did against the anti-join's snapshot).
    const plan: RunPlan =
      tries.attempt < 3 ? await runPlan(tx, a.tree, a.source, a.s) : { source: 'records' };
    const cells = cellsOf(a, tries.unbounded);
    try {
      return await tx.transaction((sp) => tryAllocation(sp, a, plan, cells, tries));
    } catch (err) {
      if (!(err instanceof Retry)) throw err;
      for (const key of err.short) tries.unbounded.add(key);
    }
  }
}

/** The cells of the wanted quotas, each bounded (hashBound) unless it fell short of its bound before. */
function cellsOf(a: Allocation, unbounded: Set<string>): Cell[] {
  // 0: a dataset not allowed or an unknown category, which no candidate has.
  return a.wanted.map((q) => {
    const key = cellKey(q.datasetId, q.category);
    return {
      ...q,
      rank: a.allowed.ids.indexOf(q.datasetId) + 1,
      code: CATEGORY_BY_CODE.indexOf(q.category) + 1,
      bound: unbounded.has(key) ? null : hashBound(q.n, a.sizes.get(key) ?? 0, a.options.slack),
    };
  });
}

/** The Sample of the cells (the largest bound per rank), or undefined when options.sample is false. */
function sampleOf(a: Allocation, cells: Cell[]): Sample | undefined {
  if (a.options.sample === false) return undefined;
  const byRank = new Array<string | null>(a.allowed.ids.length).fill(null);
  for (const c of cells) {
    if (c.rank === 0) continue;
    const was = byRank[c.rank - 1];
    const bound = c.bound ?? INT8_MAX;
    byRank[c.rank - 1] = was === null || BigInt(bound) > BigInt(was) ? bound : was;
  }
  return { seed: a.seed, byRank };
}

/**
 * One try in a savepoint `sp`: choose, insert, check. Throws Retry (undoing the savepoint) when
 * sel_dirty changed since the plan, when the key refused the insert, or when a bounded cell fell
 * short of its n; returns the inserted rows per cell.
 */
async function tryAllocation(
  sp: DbOrTx,
  a: Allocation,
  plan: RunPlan,
  cells: Cell[],
  tries: Tries,
): Promise<Inserted[]> {
  const pick = await pickCandidates(sp, a, plan, cells);
  if (!pick.dirty_same) {
    tries.attempt++;
    throw new Retry();
  }
  const got = pick.ids ? await insertPicked(sp, a, pick, pick.ids, tries) : [];
  const counted = new Map(got.map((r) => [cellKey(r.dataset_id, r.category), Number(r.n)]));
  const short = cells
    .filter((c) => c.bound !== null && (counted.get(cellKey(c.datasetId, c.category)) ?? 0) < c.n)
    .map((c) => cellKey(c.datasetId, c.category));
  if (short.length > 0) throw new Retry(short);
  return got;
}

/** The chosen candidates: ids with their ranks and codes (arrays' text, in address order; null: none). */
type Picked = { ids: string | null; ranks: string; codes: string; dirty_same: boolean };

/**
 * Chooses per cell its n candidates with the smallest seeded hash under its bound, and checks
 * (dirty_same) that sel_dirty holds the plan's dirty addresses still.
 */
async function pickCandidates(sp: DbOrTx, a: Allocation, plan: RunPlan, cells: Cell[]): Promise<Picked> {
  const same =
    plan.source === 'records'
      ? sql`TRUE`
      : sql`(SELECT coalesce(array_agg(DISTINCT address_id ORDER BY address_id), '{}') FROM sel_dirty)
            = ${bigintArray(plan.dirty)}`;
  // Chosen by a plain SELECT, inserted by a second statement: PostgreSQL plans no parallel
  // scan for a statement that writes (an INSERT in a CTE included), so the one statement of
  // before read all candidates in one process (20M: an allocation took twice its count).
  const { rows: picked } =
    await sp.execute(sql`${candidatesSql(a.run, a.s, a.allowed, plan, sampleOf(a, cells))},
          quota AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(cells)}::jsonb)
            AS q(rank int, code int, n int, bound int8)),
          cell AS (
            SELECT h.address_id, h.rank, h.code, q.n, hashint8extended(h.address_id, ${a.seed}::bigint) AS hash
            FROM hit h JOIN quota q ON q.rank = h.rank AND q.code = h.code
            WHERE q.bound IS NULL OR hashint8extended(h.address_id, ${a.seed}::bigint) < q.bound),
          ranked AS (
            SELECT address_id, rank, code, n,
                   row_number() OVER (PARTITION BY rank, code ORDER BY hash, address_id) AS rn
            FROM cell)
          SELECT array_agg(address_id ORDER BY address_id)::text AS ids,
                 array_agg(rank ORDER BY address_id)::text AS ranks,
                 array_agg(code ORDER BY address_id)::text AS codes, ${same} AS dirty_same
          FROM ranked WHERE rn <= n`);
  return picked[0] as Picked;
}

/** The INSERT of the chosen addresses into the mailing (with `onConflict`), returning the rows per cell. */
function insertSql(a: Allocation, pick: Picked, onConflict: SQL): SQL {
  // In address order, so the rows reach mailing_addresses' keys in their order (at 1M:
  // 1.9-2.1 s against 2.3-3.0 s for 100,000 addresses; docs/decisions.md, Allocation and mail
  // pressure).
  return sql`WITH inserted AS (
              INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
              SELECT ${a.s.mailingId}, c.id, (${pgTextArray(a.allowed.ids)}::text[])[c.rank], ${a.selectionId},
                     (${pgTextArray(CATEGORY_BY_CODE)}::text[])[c.code]
              FROM unnest(${pick.ids}::bigint[], ${pick.ranks}::int[], ${pick.codes}::int[]) AS c(id, rank, code)
              ${onConflict}
              RETURNING dataset_id, category)
            SELECT dataset_id, category, count(*)::int AS n FROM inserted GROUP BY dataset_id, category`;
}

/**
 * Inserts the chosen addresses. A plain INSERT: with ON CONFLICT DO NOTHING each row was inserted
 * speculatively (20M, 100,000 rows: 0.53 against 0.39 s). No row should conflict (the mailing's own
 * addresses are no candidates, and its allocation lock keeps other saves out); should one, the
 * unique key refuses it and the choice is made again (Retry); the third time such rows are skipped.
 */
async function insertPicked(
  sp: DbOrTx,
  a: Allocation,
  pick: Picked,
  ids: string,
  tries: Tries,
): Promise<Inserted[]> {
  await a.options.beforeInsert?.(sp, ids);
  try {
    return (await sp.transaction((plain) => plain.execute(insertSql(a, pick, sql``)))).rows as Inserted[];
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another writer put one of them in the mailing since the choice: choose again (that address
    // is then the mailing's own).
    tries.conflicts++;
    if (tries.conflicts < 3) throw new Retry();
    return (await sp.execute(insertSql(a, pick, sql`ON CONFLICT DO NOTHING`))).rows as Inserted[];
  }
}

/** The number of addresses allocated; 400 when a cell got fewer than its quota. */
function totalAllocated(wanted: Quota[], rows: Inserted[]): number {
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
 * The seeded hash (int8) under which about n + slack(n) of a cell's `size` candidates fall
 * (ALLOCATION_SLACK unless given), as text for jsonb; null when that is all of them.
 */
export function hashBound(
  n: number,
  size: number,
  slack: (n: number) => number = ALLOCATION_SLACK,
): string | null {
  const keep = n + slack(n);
  if (size <= 0 || keep >= size) return null;
  const parts = BigInt(Math.ceil((Math.max(0, keep) / size) * 1e9));
  if (parts >= 1_000_000_000n) return null;
  return String((2n ** 64n * parts) / 1_000_000_000n - 2n ** 63n);
}
