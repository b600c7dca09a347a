import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Category } from '../../../common/extra-inzet';
import type { Db, DbOrTx } from '../../db/client';
import { categoryOfCodeSql } from '../mailings/engagement.sql';
import type { CompiledQuery } from './compile';
import { dirtyPartitions } from './sel-dirty.sql';
import { candidatesSql } from './selection-candidates';
import {
  type AllowedDatasets,
  allowedDatasets,
  DEFAULT_SOURCE,
  multiPartsWithRows,
  NARROW_WORK_MEM,
  NO_JIT,
  type RunPlan,
  type RunSettings,
  type RunSource,
  rankedDatasets,
  runPlan,
  withCatalog,
} from './selection-plan';

// The count of a selection run (DESIGN §4/§6; selection-plan.ts): per allowed dataset and
// engagement category the number of candidates (selection-candidates.ts).

const dialect = new PgDialect();

/** Counts of one dataset in a run, per category. */
export interface DatasetCounts extends Record<Category, number> {
  datasetId: string;
}

/** A row of countSql: a cell and its number of candidates. */
export type CellSize = { dataset_id: string; category: Category; n: number };

/** The key of the cell of a dataset and a category, in maps of cells. */
export const cellKey = (datasetId: string, category: string) => `${datasetId}\u0000${category}`;

/** countSql's rows as a map cell key → size. */
export const sizesOf = (rows: CellSize[]) =>
  new Map(rows.map((r) => [cellKey(r.dataset_id, r.category), Number(r.n)]));

/**
 * The cell sizes of the latest counts (countCandidates), by what was counted: the tree's statement
 * over records with its parameters, the settings and the allowed datasets in their order. An
 * allocation soon after a count of the same query (the builder saves the table its count showed)
 * takes its cells' hash bounds from them instead of counting again (at 1M addresses the sizing
 * count was a fifth of the allocation). Sizes only set the bounds: a stale size leaves a cell short
 * of its bound (run again without one) or sorting more candidates than needed, never another
 * address (the property test allocates with sizes scaled at random). The app holds one
 * (AppContext.selectionRuns).
 */
export class CellSizes {
  /** How long a count's sizes serve allocations (ms). */
  readonly maxAgeMs = 15 * 60_000;
  /** How many counts are kept (the oldest goes first). */
  readonly kept = 64;
  /** The sizes of each count kept, by its key, oldest first. */
  readonly entries = new Map<string, { at: number; sizes: Map<string, number> }>();

  /** The key of a count: a hash of its statement over records, its parameters and the allowed datasets. */
  key(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets): string {
    const q = dialect.sqlToQuery(candidatesSql(tree, s, allowed, { source: 'records' }));
    const text = JSON.stringify([q.sql, q.params, allowed.ids], (_, v) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
    return createHash('sha256').update(text).digest('hex');
  }

  /** Keeps the sizes of a count's rows, the oldest count dropped past `kept`. */
  remember(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, rows: CellSize[]): void {
    const key = this.key(tree, s, allowed);
    this.entries.delete(key);
    this.entries.set(key, { at: Date.now(), sizes: sizesOf(rows) });
    for (const old of this.entries.keys()) {
      if (this.entries.size <= this.kept) break;
      this.entries.delete(old);
    }
  }

  /** The sizes of a count of the same query at most maxAgeMs ago, or undefined. */
  recall(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets): Map<string, number> | undefined {
    const hit = this.entries.get(this.key(tree, s, allowed));
    return hit && Date.now() - hit.at <= this.maxAgeMs ? hit.sizes : undefined;
  }
}

/** How a count runs: where it reads (DEFAULT_SOURCE unless said), and where it keeps its cell sizes (none unless given). */
export interface CountOptions {
  source?: RunSource;
  sizes?: CellSizes;
}

/** The count statement of a compiled tree: rows (dataset_id, category, n). */
export function countSql(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, plan: RunPlan): SQL {
  // Counted by the integers rank and code, then named: grouping 12 million candidates by the
  // dataset's text id and the category's name after joining them cost a third of a count (1M).
  return sql`${candidatesSql(tree, s, allowed, plan)}
      SELECT ds.id AS dataset_id, ${categoryOfCodeSql(sql`c.code`)} AS category, c.n
      FROM (SELECT h.rank, h.code, count(*)::int AS n FROM hit h GROUP BY h.rank, h.code) c
      JOIN ${rankedDatasets(allowed.ids)} ON ds.rank = c.rank`;
}

/**
 * Runs the count of a compiled tree: per dataset (that has candidates) the counts per category. In
 * one REPEATABLE READ, read-only transaction, so the dirty addresses it reads first (runPlan) are
 * those of the snapshot its count reads. Its cell sizes go to options.sizes (CellSizes).
 */
export async function countCandidates(
  db: Db,
  tree: CompiledQuery,
  s: RunSettings,
  options: CountOptions = {},
): Promise<DatasetCounts[]> {
  const { rows } = await db.transaction(
    async (tx) => {
      const { allowed, statement } = await prepareCount(tx, tree, s, options.source ?? DEFAULT_SOURCE);
      const counted = await tx.execute(statement);
      options.sizes?.remember(tree, s, allowed, counted.rows as CellSize[]);
      return counted;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return foldCounts(rows as CellSize[]);
}

/** Builds a run's statement from its tree (as the plan reads it), settings, allowed datasets and plan. */
export type RunStatement = (
  tree: CompiledQuery,
  s: RunSettings,
  allowed: AllowedDatasets,
  plan: RunPlan,
) => SQL;

/**
 * The count statement of countCandidates in the caller's transaction (REPEATABLE READ): its
 * settings set, the allowed datasets, the plan and the tree as that transaction reads them;
 * `build` makes the statement (countSql; the funnel passes its own).
 */
export async function prepareCount(
  tx: DbOrTx,
  tree: CompiledQuery,
  s: RunSettings,
  source: RunSource = DEFAULT_SOURCE,
  build: RunStatement = countSql,
): Promise<{ allowed: AllowedDatasets; statement: SQL }> {
  await tx.execute(NO_JIT);
  const allowed = await allowedDatasets(tx, s);
  const plan = await runPlan(tx, tree, source, s);
  if (plan.source === 'sel_record') {
    await tx.execute(NARROW_WORK_MEM);
    // The caller's REPEATABLE READ snapshot is the statement's: an empty part stays empty for it,
    // and the dirty addresses' records stay in the partitions their marks and rows name.
    plan.parts = await multiPartsWithRows(tx);
    plan.dirtyParts = await dirtyPartitions(tx, plan.dirty);
  }
  const run = plan.source === 'sel_record' ? await withCatalog(tx, tree) : tree;
  return { allowed, statement: build(run, s, allowed, plan) };
}

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

/** The saved rows of a mailing: what it holds already, per dataset and category at allocation. */
export async function countMailingAddresses(db: DbOrTx, mailingId: string): Promise<DatasetCounts[]> {
  const { rows } = await db.execute(sql`SELECT dataset_id, category, count(*)::int AS n
    FROM mailing_addresses WHERE mailing_id = ${mailingId} GROUP BY dataset_id, category`);
  return foldCounts(rows as { dataset_id: string; category: Category; n: number }[]);
}
