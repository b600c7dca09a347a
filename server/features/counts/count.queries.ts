import { type SQL, sql } from 'drizzle-orm';
import type { CategoryTotals, CountAnswer } from '../../../common/counts';
import { participationFactorOn } from '../../../common/dataset-rates';
import type { Category } from '../../../common/extra-inzet';
import type { DbOrTx } from '../../db/client';
import { bigintArray } from '../../lib/pg-array';
import { notBlacklistedSql } from '../blacklists/blacklist.sql';
import { CATEGORY_BY_CODE, categoryCodeSql, rowFacts } from '../mailings/engagement.sql';
import { type DirtyPartitions, dirtyPartitions, recordsInPartitionsSql } from '../selections/sel-dirty.sql';
import { listDirtyAddresses, NARROW_WORK_MEM, NO_JIT } from '../selections/selection-plan';
import { narrowUnitsSql } from './sel-count.sql';

// The counts of /counts (spec 001 §2, DESIGN §4 Counts; docs/decisions.md, Counts at scale): per
// dataset its records' addresses by engagement category, hard bounces out and, with useBlacklist,
// the addresses blacklisted for that dataset (e-mail, domain, or its partner-dataset entry); each
// dataset counts its own (no priority between datasets: these are file sizes). And the unique row:
// each address once, in its category, when at least one of its records counts in its dataset's row.
//
// Read, as a selection count reads, from the narrow tables for the addresses not in sel_dirty and
// from records for those in it, in one snapshot: the narrow rows as the counters sel_count holds of
// them (migration 0029), with the dirty addresses' units taken back out and their records counted
// instead. One statement, grouped by (dataset number, category code); number 0 is the unique row.

/** Which unit of a row counts (`f` its facts and exclusions, `blocked` its partner block). */
function countedSql(f: string, blocked: string, useBlacklist: boolean): SQL {
  return sql.raw(
    useBlacklist
      ? `NOT ${f}.hard_bounced AND NOT ${f}.blacklisted AND NOT ${blocked}`
      : `NOT ${f}.hard_bounced`,
  );
}

/** The addresses in sel_dirty at a count's snapshot and where their records are (listDirtyPartitions). */
export interface DirtyReads {
  dirty: number[];
  partitions: DirtyPartitions;
}

/**
 * The cells (ds, code, n) of records with their addresses: a cell per record that counts, and per
 * address with one (ds 0) for the unique row. `only`: the dirty addresses and the partitions their
 * records are in, each read by its key (null: every record, through the partitioned parent).
 */
function recordCellsSql(useBlacklist: boolean, minMailings: number, only: DirtyReads | null): SQL {
  const conditions = [sql`a.hard_bounced_at IS NULL`];
  // As anti-joins (three NOT EXISTS at the top of the WHERE): see notBlacklistedSql.
  if (useBlacklist) conditions.push(notBlacklistedSql('a', 'd'));
  let records = sql`records`;
  if (only) {
    // Each partition named, read by its key: through the partitioned parent the planner planned a
    // scan of all 500 partitions, and its plan took longer than the count (1M, 1,000 dirty
    // addresses: docs/performance.md#counts).
    records = recordsInPartitionsSql(only.partitions, 'address_id, dataset_id');
    conditions.push(sql`a.id = ANY(${bigintArray(only.dirty)})`);
  }
  return sql`lw_counted AS MATERIALIZED (
      SELECT r.address_id, d.num AS ds, ${categoryCodeSql('a', minMailings)} AS code
      FROM ${records} r JOIN datasets d ON d.id = r.dataset_id JOIN addresses a ON a.id = r.address_id
      WHERE ${sql.join(conditions, sql` AND `)}),
    lw_record_cells AS (
      SELECT ds, code, count(*) AS n FROM lw_counted GROUP BY ds, code
      UNION ALL
      SELECT 0, code, count(*) FROM (SELECT DISTINCT address_id, code FROM lw_counted) x GROUP BY code)`;
}

/**
 * The cells (ds, code, n) of the narrow tables for the addresses not in `dirty`: sel_count's
 * counters, the addresses of sel_record_multi grouped for the unique row, and the units of the dirty
 * addresses' rows taken back out (n -1).
 */
function narrowCellsSql(useBlacklist: boolean, minMailings: number, dirty: number[]): SQL {
  const code = categoryCodeSql(rowFacts('r'), minMailings);
  const notDirty = dirty.length > 0 ? sql` AND r.address_id <> ALL(${bigintArray(dirty)})` : sql``;
  const parts = [
    sql`SELECT r.ds, ${code} AS code, r.n FROM sel_count r
      WHERE r.n <> 0 AND ${countedSql('r', 'r.partner_blocked', useBlacklist)}`,
    // An address with more than three records counts once when one of its rows counts; its rows
    // carry its facts, so the least code is its category.
    sql`SELECT 0, min(${code}), 1 FROM sel_record_multi r
      WHERE ${countedSql('r', 'r.partner_blocked', useBlacklist)}${notDirty} GROUP BY r.address_id`,
  ];
  if (dirty.length > 0) {
    const isDirty = sql`r.address_id = ANY(${bigintArray(dirty)})`;
    for (const table of ['sel_record', 'sel_multi'] as const) {
      parts.push(sql`SELECT r.ds, ${code}, -1 FROM (${narrowUnitsSql(table, isDirty)}) r
        WHERE ${countedSql('r', 'r.partner_blocked', useBlacklist)}`);
    }
  }
  return sql.join(parts, sql` UNION ALL `);
}

/**
 * The count statement: rows (ds, code, n), n the addresses of dataset number ds (0: the unique
 * row) in category code (CATEGORY_BY_CODE). `dirty`: the addresses in sel_dirty at the caller's
 * snapshot (read from records, in `partitions`), or null to read every address from records.
 */
export function countCellsSql(useBlacklist: boolean, minMailings: number, dirty: DirtyReads | null): SQL {
  if (dirty === null) {
    return sql`WITH ${recordCellsSql(useBlacklist, minMailings, null)}
      SELECT ds, code, n FROM lw_record_cells`;
  }
  const narrow = narrowCellsSql(useBlacklist, minMailings, dirty.dirty);
  if (dirty.dirty.length === 0)
    return sql`SELECT ds, code, sum(n)::bigint AS n FROM (${narrow}) c GROUP BY ds, code`;
  return sql`WITH ${recordCellsSql(useBlacklist, minMailings, dirty)}
    SELECT ds, code, sum(n)::bigint AS n
    FROM (${narrow} UNION ALL SELECT ds, code, n FROM lw_record_cells) c GROUP BY ds, code`;
}

/**
 * Past this many dirty addresses a count of /counts reads every address from records. Higher than a
 * selection run's DIRTY_LIMIT: here they cost only their records' reads by key, which stay well below
 * a read of all records up to about this many at 1M, and at 20M all records take minutes
 * (docs/performance.md#counts).
 */
export const COUNT_DIRTY_LIMIT = 20_000;

/**
 * The dirty addresses at the caller's snapshot and the partitions their records are in, or null past
 * COUNT_DIRTY_LIMIT (listDirtyAddresses).
 */
export async function listDirtyPartitions(tx: DbOrTx): Promise<DirtyReads | null> {
  const dirty = await listDirtyAddresses(tx, COUNT_DIRTY_LIMIT);
  if (!dirty || dirty.length === 0) return dirty && { dirty, partitions: [] };
  return { dirty, partitions: await dirtyPartitions(tx, dirty) };
}

/** Zero addresses in every category. */
const noAddresses = (): CategoryTotals => ({ new: 0, notOpenedOrClicked: 0, opens: 0, clicks: 0, total: 0 });

/**
 * The counts of every dataset and the unique row (CountAnswer), in the caller's transaction, which
 * must be REPEATABLE READ (the dirty addresses it reads first are those its count reads): rows
 * sorted by dataset sort, then id, a dataset without records with zeros; `today` is the day the
 * participation factor is valid on.
 */
export async function countDatasets(
  tx: DbOrTx,
  useBlacklist: boolean,
  minMailings: number,
  today: string,
): Promise<CountAnswer> {
  await tx.execute(NO_JIT);
  const dirty = await listDirtyPartitions(tx);
  await tx.execute(NARROW_WORK_MEM);
  // The dirty addresses' records are a few index reads in up to 500 partitions: parallel workers
  // each opened them all again first, which took longer than the reads (1M, 1,000 dirty addresses:
  // docs/performance.md#counts).
  if (dirty && dirty.dirty.length > 0) await tx.execute(sql`SET LOCAL max_parallel_workers_per_gather = 0`);
  const { rows: cells } = await tx.execute(countCellsSql(useBlacklist, minMailings, dirty));
  const byNum = new Map<number, CategoryTotals>();
  for (const cell of cells as { ds: number; code: number; n: number }[]) {
    const category = CATEGORY_BY_CODE[Number(cell.code) - 1] as Category;
    let totals = byNum.get(Number(cell.ds));
    if (!totals) {
      totals = noAddresses();
      byNum.set(Number(cell.ds), totals);
    }
    totals[category] += Number(cell.n);
    totals.total += Number(cell.n);
  }
  const { rows } = await tx.execute(sql`
    SELECT d.id, d.num, d.sort, d.name, d.partner_id, d.active,
      coalesce((SELECT json_agg(json_build_object('start', p.start, 'end', p."end", 'factor', p.factor))
        FROM dataset_participations p WHERE p.dataset_id = d.id), '[]') AS participation
    FROM datasets d ORDER BY d.sort, d.id`);
  const datasets = rows as {
    id: string;
    num: number;
    sort: number;
    name: string;
    partner_id: string;
    active: boolean;
    participation: { start: string; end: string; factor: string }[];
  }[];
  return {
    rows: datasets.map((d) => {
      const factor = participationFactorOn(
        d.participation.map((p) => ({ ...p, factor: Number(p.factor) })),
        today,
      );
      return {
        dataset: { id: d.id, sort: d.sort, name: d.name, partner: d.partner_id, active: d.active, factor },
        ...(byNum.get(Number(d.num)) ?? noAddresses()),
      };
    }),
    unique: byNum.get(0) ?? noAddresses(),
  };
}
