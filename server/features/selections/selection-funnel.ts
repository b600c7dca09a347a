import { type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { categoryCodeSql, categoryOfCodeSql, rowFacts } from '../mailings/engagement.sql';
import type { CompiledQuery } from './compile';
import { multiPart, positionColumn } from './sel.table';
import {
  dirtyRecordsOf,
  narrowExclusions,
  positionDatasets,
  rankOfNum,
  recordsExclusions,
  sameStatement,
} from './selection-candidates';
import {
  type CellSize,
  type CountOptions,
  countSql,
  type DatasetCounts,
  foldCounts,
  prepareCount,
} from './selection-count';
import {
  type AllowedDatasets,
  DEFAULT_SOURCE,
  planParts,
  type RunPlan,
  type RunSettings,
  type RunSource,
  rankedDatasets,
} from './selection-plan';

// What each line costs (docs/decisions.md, Selection engine and counts): beside a count's cells,
// per top-level line of the tree (CompiledQuery.lines) how many addresses the count finds for the
// tree of the lines up to it, the prefix funnel, counted in the same statement as the cells. Each
// row of the scan passes line 1 (its WHERE) and gets its depth, the number of lines it passes in
// a row from line 1 (a CASE that stops at the first line it fails); an address takes the depth of
// its best record, its rank from the best dataset among the records that pass every line, and
// one count(*) FILTER (WHERE depth >= k) a line gives the figures.

/** A count with its funnel: the cells, and per top-level line the addresses left after it. */
export interface FunnelCounts {
  counts: DatasetCounts[];
  /**
   * remaining[k]: the addresses the count finds for the tree of lines 1..k+1 (with the count's
   * settings, exclusions and dataset priority); the last is the count's total. Empty for a tree
   * without lines (the empty 'and').
   */
  remaining: number[];
}

// A row's depth and rank in one integer, depth * KEY + (KEY - rank), so that the max over an
// address's records is its deepest record and among those its best dataset, in one aggregate.
const KEY = 1_000_000;
const int = (n: number) => sql.raw(String(n));

/** The lines of a compiled tree (the root alone when it says none). */
const linesOf = (tree: CompiledQuery) => tree.lines ?? [tree.where];

/** A row's key (depth and rank) for its `lines`, for a row that passes lines[0]. */
function keySql(lines: SQL[], rank: SQL): SQL {
  const depth =
    lines.length === 1
      ? int(1)
      : sql`CASE ${sql.join(
          lines.slice(1).map((line, i) => sql`WHEN NOT ${line} THEN ${int(i + 1)}`),
          sql` `,
        )} ELSE ${int(lines.length)} END`;
  return sql`(${depth} * ${int(KEY)} + (${int(KEY)} - ${rank}))`;
}

/**
 * The funnel rows read from records with their addresses, of the addresses `only` selects (null:
 * all), from `from` (records, or some of its partitions: dirtyRecordsOf).
 */
function recordsRowsSql(
  tree: CompiledQuery,
  s: RunSettings,
  datasetIds: string[],
  only: SQL | null,
  from: SQL = sql`records`,
): SQL {
  const lines = linesOf(tree);
  return sql`SELECT r.address_id, max(${keySql(lines, sql`ds.rank`)}) AS key, ${categoryCodeSql('a', s.minMailings)} AS code
      FROM ${from} r JOIN ${rankedDatasets(datasetIds)} ON ds.id = r.dataset_id
      JOIN datasets d ON d.id = r.dataset_id JOIN addresses a ON a.id = r.address_id${tree.values}
      WHERE ${lines[0]} AND ${sql.join(recordsExclusions(s, only), sql` AND `)}
      GROUP BY r.address_id, a.id`;
}

/**
 * The funnel rows read from the narrow tables for the addresses not in `dirty`, as the count reads
 * them (selection-candidates.ts, narrowHitSql and multiHitSql): sel_record's single rows, its
 * multi parts grouped by address, and sel_multi by position.
 */
function narrowRowsSql(
  tree: CompiledQuery,
  s: RunSettings,
  allowed: AllowedDatasets,
  plan: Extract<RunPlan, { source: 'sel_record' }>,
): SQL {
  const exclusions = narrowExclusions(s, plan.dirty, plan.held);
  const lines = linesOf(tree);
  const joins = sql`${tree.needsDataset ? sql` JOIN datasets d ON d.num = r.ds` : sql``}${tree.values}`;
  const rank = rankOfNum(allowed.nums, sql`r.ds`);
  const blocked = s.useBlacklist ? sql` AND NOT r.partner_blocked` : sql``;
  const where = sql`${rank} > 0${blocked} AND ${lines[0]} AND ${sql.join(exclusions, sql` AND `)}`;
  const code = categoryCodeSql(rowFacts('r'), s.minMailings);
  const single = sql`SELECT r.address_id, ${keySql(lines, rank)} AS key, ${code} AS code
      FROM sel_record_single r${joins} WHERE ${where}`;
  const many = planParts(plan).map(
    (i) => sql`SELECT r.address_id, max(${keySql(lines, rank)}) AS key, min(${code}) AS code
      FROM ${sql.raw(multiPart(i))} r${joins} WHERE ${where}
      GROUP BY r.address_id`,
  );
  return sql.join([single, multiRowsSql(tree, s, allowed, exclusions), ...many], sql` UNION ALL `);
}

/**
 * The funnel rows of sel_multi: per position whose dataset is allowed (and not blocked by its
 * partner) and whose record passes line 1, its key; the row's key the greatest of them. A tree
 * that reads no column of the record is evaluated once a row, as the count does.
 */
function multiRowsSql(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, exclusions: SQL[]): SQL {
  const positions = tree.positions ?? [];
  const column = (k: number, name: string) => sql.raw(`r.${positionColumn(k, name)}`);
  const allowedAt = positions.map((_, i) => {
    const rank = rankOfNum(allowed.nums, column(i + 1, 'ds'));
    const blocked = s.useBlacklist ? sql`NOT ${column(i + 1, 'partner_blocked')}` : null;
    // pick: the rank when the position is allowed, looked up once (as positionMatches does).
    const pick = blocked ? sql`CASE WHEN ${blocked} THEN nullif(${rank}, 0) END` : sql`nullif(${rank}, 0)`;
    return { rank, pick, test: sql`coalesce(${rank}, 0) > 0${blocked ? sql` AND ${blocked}` : sql``}` };
  });
  const positionFree = positions.length > 1 && sameStatement(positions[0].where, positions[1].where);
  let key: SQL;
  let where: SQL[];
  if (positionFree) {
    const best = sql`LEAST(${sql.join(
      allowedAt.map((p) => p.pick),
      sql`, `,
    )})`;
    key = keySql(linesOf(tree), best);
    // A row without an allowed position (best and key NULL) is left out here, so every row of the
    // funnel has a key.
    const anyAllowed = sql`(${sql.join(
      allowedAt.map((p) => sql`(${p.test})`),
      sql` OR `,
    )})`;
    where = [linesOf(tree)[0], ...exclusions, anyAllowed];
  } else {
    const passes = positions.map((at, i) => sql`${allowedAt[i].test} AND ${linesOf(at)[0]}`);
    key = sql`GREATEST(${sql.join(
      positions.map(
        (at, i) => sql`CASE WHEN ${passes[i]} THEN ${keySql(linesOf(at), allowedAt[i].rank)} END`,
      ),
      sql`, `,
    )})`;
    where = [
      ...exclusions,
      sql`(${sql.join(
        passes.map((p) => sql`(${p})`),
        sql` OR `,
      )})`,
    ];
  }
  return sql`SELECT r.address_id, ${key} AS key, ${categoryCodeSql(rowFacts('r'), s.minMailings)} AS code
      FROM sel_multi r${positionDatasets(tree)}${tree.values}
      WHERE ${sql.join(where, sql` AND `)}`;
}

/**
 * The funnel statement of a compiled tree with lines: rows (dataset_id, category, n, remaining),
 * one per rank and category; a row whose addresses pass every line has its dataset and counts a
 * cell (n), the others have dataset_id NULL; `remaining` per row its addresses left after each
 * line, which the rows add up.
 */
export function funnelSql(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, plan: RunPlan): SQL {
  const n = linesOf(tree).length;
  if (allowed.ids.length >= KEY) throw new Error('more allowed datasets than a funnel key holds');
  const dirty = plan.source === 'sel_record' ? dirtyRecordsOf(plan) : null;
  const rows =
    plan.source === 'records' || !tree.narrow
      ? recordsRowsSql(tree, s, allowed.ids, null)
      : sql`${narrowRowsSql(tree.narrow, s, allowed, plan)}${
          dirty ? sql` UNION ALL ${recordsRowsSql(tree, s, allowed.ids, dirty.only, dirty.from)}` : sql``
        }`;
  const figures = Array.from({ length: n }, (_, k) => sql`count(*) FILTER (WHERE f.depth >= ${int(k + 1)})`);
  // Every row of `hit` has a key (multiRowsSql), so no `WHERE h.key IS NOT NULL`: PostgreSQL pushed
  // that test down into each branch, where it computed the lines' CASE a second time for every row
  // that passes line 1 (1M, the and of four lines: 0.48 → 0.43 s).
  return sql`WITH hit AS (${rows})
      SELECT ds.id AS dataset_id, ${categoryOfCodeSql(sql`c.code`)} AS category, c.n, c.remaining
      FROM (SELECT f.rank, f.code, count(*)::int AS n, ARRAY[${sql.join(figures, sql`, `)}]::int[] AS remaining
        FROM (SELECT h.key / ${int(KEY)} AS depth,
            CASE WHEN h.key / ${int(KEY)} = ${int(n)} THEN ${int(KEY)} - h.key % ${int(KEY)} END AS rank, h.code
          FROM hit h) f
        GROUP BY f.rank, f.code) c
      LEFT JOIN ${rankedDatasets(allowed.ids)} ON ds.rank = c.rank`;
}

/**
 * The statement of countFunnel in the caller's transaction (REPEATABLE READ), as prepareCount
 * prepares a count: its settings set, the allowed datasets, the plan and the tree as that
 * transaction reads them. A tree of no line or one gets the count's own statement (its one figure
 * is the total).
 */
export function prepareFunnel(
  tx: DbOrTx,
  tree: CompiledQuery,
  s: RunSettings,
  source: RunSource = DEFAULT_SOURCE,
): Promise<{ allowed: AllowedDatasets; statement: SQL }> {
  // A tree of one line has one figure, the count's total: the count's own statement gives it.
  return prepareCount(tx, tree, s, source, linesOf(tree).length <= 1 ? countSql : funnelSql);
}

/** The cells and the funnel of `lines` lines of funnelSql's rows (or countSql's, without remaining). */
export function foldFunnel(
  rows: { dataset_id: string | null; category: CellSize['category']; n: number; remaining?: number[] }[],
  lines: number,
): { cells: CellSize[]; remaining: number[] } {
  const cells = rows.filter((r): r is CellSize => r.dataset_id !== null);
  const remaining = new Array<number>(lines).fill(0);
  for (const row of rows) {
    (row.remaining ?? []).forEach((v, k) => {
      remaining[k] += Number(v);
    });
  }
  // countSql's rows (a tree of one line): that line's figure is the total.
  if (lines === 1 && rows.every((r) => r.remaining === undefined))
    remaining[0] = cells.reduce((n, c) => n + Number(c.n), 0);
  return { cells, remaining };
}

/**
 * Runs the count of a compiled tree with its funnel (FunnelCounts): the same cells countCandidates
 * finds, in one REPEATABLE READ, read-only transaction and one statement. Its cell sizes go to
 * options.sizes (CellSizes), as a count's do.
 */
export function countFunnel(
  db: Db,
  tree: CompiledQuery,
  s: RunSettings,
  options: CountOptions = {},
): Promise<FunnelCounts> {
  return db.transaction((tx) => countFunnelIn(tx, tree, s, options), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

/** countFunnel in the caller's transaction, which must be REPEATABLE READ (the plan's dirty addresses are its snapshot's). */
export async function countFunnelIn(
  tx: DbOrTx,
  tree: CompiledQuery,
  s: RunSettings,
  options: CountOptions = {},
): Promise<FunnelCounts> {
  const { allowed, statement } = await prepareFunnel(tx, tree, s, options.source ?? DEFAULT_SOURCE);
  const { rows } = await tx.execute(statement);
  const { cells, remaining } = foldFunnel(rows as Parameters<typeof foldFunnel>[0], linesOf(tree).length);
  options.sizes?.remember(tree, s, allowed, cells);
  return { counts: foldCounts(cells), remaining };
}
