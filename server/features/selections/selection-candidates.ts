import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { pressureWindow } from '../../../common/pressure-date';
import { bigintArray } from '../../lib/pg-array';
import { notBlacklistedSql } from '../blacklists/blacklist.sql';
import { categoryCodeSql, rowFacts } from '../mailings/engagement.sql';
import { pressureConflictSql } from '../mailings/pressure.sql';
import type { CompiledQuery } from './compile';
import { multiPart, positionColumn } from './sel.table';
import { recordsInPartitionsSql } from './sel-dirty.sql';
import {
  type AllowedDatasets,
  type HeldBitmap,
  planParts,
  type RunPlan,
  type RunSettings,
  rankedDatasets,
} from './selection-plan';

// The candidates of a run as SQL (DESIGN §4/§6; selection-plan.ts): the CTE `hit`, one row per
// candidate address with its best dataset rank and its category code, read from records or from
// the narrow tables (sel.table.ts) as the run's plan says.

const dialect = new PgDialect();

/**
 * The rank of the dataset number `num` (datasets.num) among the allowed datasets, for sel_record
 * rows: an element of an array indexed by the number, 0 for a dataset not allowed and NULL past
 * its end, so no join per row.
 */
export function rankOfNum(nums: number[], num: SQL): SQL {
  const ranks = new Array<number>(nums.length === 0 ? 0 : Math.max(...nums)).fill(0);
  nums.forEach((n, i) => {
    ranks[n - 1] = i + 1;
  });
  return sql`(${`{${ranks.join(',')}}`}::int[])[${num}]`;
}

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
  const dirty = dirtyRecordsOf(plan);
  return sql`WITH hit AS (${narrowHitSql(tree.narrow, s, allowed, plan, sample)}${
    dirty ? sql` UNION ALL ${recordsHitSql(tree, s, allowed.ids, dirty.only, dirty.from)}` : sql``
  })`;
}

/** Every column of records, for a FROM item of some of its partitions (recordsInPartitionsSql). */
const RECORD_COLUMNS = 'dataset_id, address_id, raw, attrs, row_hash, raw_hash, created_at, updated_at';

/**
 * Where a run reads the records of its dirty addresses (null: it has none): `from`, their
 * partitions each read by key when the plan holds them (dirtyParts), else records through the
 * parent, every partition; `only`, the test that keeps those addresses.
 */
export function dirtyRecordsOf(
  plan: Extract<RunPlan, { source: 'sel_record' }>,
): { from: SQL; only: SQL } | null {
  if (plan.dirty.length === 0) return null;
  const only = sql`r.address_id = ANY(${bigintArray(plan.dirty)})`;
  if (!plan.dirtyParts) return { from: sql`records`, only };
  return { from: recordsInPartitionsSql(plan.dirtyParts, RECORD_COLUMNS), only };
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
export const INT8_MAX = '9223372036854775807';

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

/**
 * The exclusions of a record `r` of records with its address `a` and dataset `d`, of the addresses
 * `only` selects (null: all).
 */
export function recordsExclusions(s: RunSettings, only: SQL | null): SQL[] {
  const exclusions: SQL[] = [sql`a.hard_bounced_at IS NULL`];
  // As anti-joins (three NOT EXISTS at the top of the WHERE), not NOT (.. OR ..): see notBlacklistedSql.
  if (s.useBlacklist) exclusions.push(notBlacklistedSql('a', 'd'));
  exclusions.push(...dynamicExclusions(sql`a.id`, s));
  if (only) exclusions.push(only);
  return exclusions;
}

/**
 * The candidates read from records with their addresses, of the addresses `only` selects (null:
 * all), from `from` (records, or some of its partitions: dirtyRecordsOf).
 */
function recordsHitSql(
  tree: CompiledQuery,
  s: RunSettings,
  datasetIds: string[],
  only: SQL | null,
  from: SQL = sql`records`,
): SQL {
  const exclusions = recordsExclusions(s, only);
  return sql`SELECT r.address_id, min(ds.rank) AS rank, ${categoryCodeSql('a', s.minMailings)} AS code
      FROM ${from} r JOIN ${rankedDatasets(datasetIds)} ON ds.id = r.dataset_id
      JOIN datasets d ON d.id = r.dataset_id JOIN addresses a ON a.id = r.address_id${tree.values}
      WHERE ${tree.where} AND ${sql.join(exclusions, sql` AND `)}
      GROUP BY r.address_id, a.id`;
}

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
 * The address's exclusions for a narrow row `r` (a sel_multi row has them once): its flags, and
 * the held addresses' bitmap (`held`; undefined: the dynamic anti-joins and `dirty` instead).
 */
export function narrowExclusions(
  s: RunSettings,
  dirty: number[],
  held: HeldBitmap | null | undefined,
): SQL[] {
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
  return exclusions;
}

/**
 * The candidates read from sel_record and sel_multi (../shared/research/selection-engine.md §5, layouts B3 and B4), of the
 * addresses not in `dirty`: an address with one record is a candidate as its row stands, one with
 * two or three is one row of sel_multi (multiHitSql), and only the rows of addresses with more
 * (sel_record_multi) are grouped by address for the priority; the exclusions are the row's flags
 * and the held addresses' bitmap (narrowExclusions). With `sample` (an allocation's bounds) rows no
 * cell can take are left out first.
 */
function narrowHitSql(
  tree: CompiledQuery,
  s: RunSettings,
  allowed: AllowedDatasets,
  plan: Extract<RunPlan, { source: 'sel_record' }>,
  sample?: Sample,
): SQL {
  const { dirty, held } = plan;
  const exclusions = narrowExclusions(s, dirty, held);
  // A record's partner block is the record's (per position on sel_multi).
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
  const many = planParts(plan).map(
    (i) => sql`SELECT r.address_id, min(${rank}) AS rank, min(${code}) AS code
      FROM ${sql.raw(multiPart(i))} r${joins} WHERE ${addressSample}${where}
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
 * Per position k of a sel_multi row `r`: its test (the dataset allowed, with useBlacklist its
 * partner not blocking the address, and unless `positionFree` the tree for that position), and
 * `pick`, its rank among the allowed datasets when the test holds, else NULL.
 */
function positionMatches(
  tree: CompiledQuery,
  s: RunSettings,
  allowed: AllowedDatasets,
  positionFree: boolean,
): { pick: SQL; test: SQL }[] {
  const column = (k: number, name: string) => sql.raw(`r.${positionColumn(k, name)}`);
  return (tree.positions ?? []).map((at, i) => {
    const k = i + 1;
    const rank = rankOfNum(allowed.nums, column(k, 'ds'));
    const rest = [
      ...(s.useBlacklist ? [sql`NOT ${column(k, 'partner_blocked')}`] : []),
      ...(positionFree ? [] : [at.where]),
    ];
    // coalesce: a position without a record (p3 of an address with two) has rank NULL, and an AND
    // whose first operand is NULL goes on to evaluate the rest (it could still be FALSE).
    const test = sql.join([sql`coalesce(${rank}, 0) > 0`, ...rest], sql` AND `);
    // The rank looked up once: NULL (past the array's end) and 0 (not allowed) are no rank
    // (nullif), as the test's first operand says (1M, the empty query: 0.32 → 0.25 s).
    const best = sql`nullif(${rank}, 0)`;
    return {
      test,
      pick: rest.length > 0 ? sql`CASE WHEN ${sql.join(rest, sql` AND `)} THEN ${best} END` : best,
    };
  });
}

/** The LEFT JOINs of each position's dataset row `d<k>` of a sel_multi row, when the tree reads it. */
export function positionDatasets(tree: CompiledQuery): SQL {
  if (!tree.needsDataset) return sql``;
  return sql.join(
    (tree.positions ?? []).map((_, i) =>
      sql.raw(` LEFT JOIN datasets d${i + 1} ON d${i + 1}.num = r.${positionColumn(i + 1, 'ds')}`),
    ),
    sql``,
  );
}

/**
 * The candidates of sel_multi (../shared/research/selection-engine.md §5, layout B4): one row per address with 2..MULTI_POSITIONS
 * records, the tree evaluated for the record in each position (tree.positions). A position counts
 * when its dataset is allowed (and, with useBlacklist, its partner does not block the address) and
 * its record matches; the address takes the best rank among those (LEAST ignores the NULLs of the
 * others), so no GROUP BY. `exclusions`: the address's own, as for sel_record rows.
 */
function multiHitSql(tree: CompiledQuery, s: RunSettings, allowed: AllowedDatasets, exclusions: SQL[]): SQL {
  const positions = tree.positions ?? [];
  // A tree that reads no column of the record (its compilations for two positions are the same
  // statement: the empty tree, address fields, interests, a file of e-mail addresses) is evaluated
  // once a row, as a filter: per position it cost each of its file leaves a hash of the file in
  // every process (1M, a file of 100,000 e-mail addresses: 0.37 → 0.57 s).
  const positionFree = positions.length > 1 && sameStatement(positions[0].where, positions[1].where);
  const matches = positionMatches(tree, s, allowed, positionFree);
  const rank = sql`LEAST(${sql.join(
    matches.map((m) => m.pick),
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
      FROM sel_multi r${positionDatasets(tree)}${tree.values}
      WHERE ${sql.join(where, sql` AND `)}`;
}

/** Whether two SQL fragments render as the same statement with the same parameters. */
export function sameStatement(a: SQL, b: SQL): boolean {
  const [x, y] = [dialect.sqlToQuery(a), dialect.sqlToQuery(b)];
  return x.sql === y.sql && JSON.stringify(x.params) === JSON.stringify(y.params);
}
