// Benchmark of the selection engine: generates, with SQL, N addresses and 1.25·N
// records over 500 datasets with realistic attributes (postcode, gender, birth date, city, income
// class) and engagement (a third of the addresses with results), blacklists (1% of the addresses
// by e-mail, 10% of 50,000 domains), 3 Definitief mailings in the week, and a 100,000-row line
// file; then times the counts of eight representative trees through the engine's own functions
// (compile, candidates, count) and the allocation of 100,000 addresses. Prints figures; never fails
// on slowness.
//
//   npx tsx bench/selection.ts [addresses=1000000]            embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/selection.ts     a PostgreSQL server (a fresh database is made)
//   BENCH_RUNS=7 npx tsx bench/selection.ts                    runs per tree (p50 and p95 of them)
//   BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/selection.ts  leave the database (printed) for another look
//   BENCH_REUSE_DB=postgres://.../lw_bench_selection_x npx tsx bench/selection.ts  time a kept database again
//     (no generation, no migration unless BENCH_MIGRATE=1; left as it was found)
//   BENCH_EXPLAIN=1 BENCH_REUSE_DB=... npx tsx bench/selection.ts   also print each tree's EXPLAIN (ANALYZE, BUFFERS)
//   BENCH_TREES="postcode,empty,allocation" ...               only the trees whose names contain one of these
//   BENCH_GENERATE_ONLY=1 BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/selection.ts  generate, keep, time nothing
//   BENCH_SOURCE=records|sel_record|records,sel_record (default)  where the counts read (see SOURCES)
//   BENCH_NARROW_FLOOR=1 ...                                   also time the floor of sel_record's layout (see below)
//   BENCH_FUNNEL=1 ...                                         also time each tree's count with its funnel (countFunnel)
//   BENCH_FLOOR=1 ...                                          also time the floor: the least work of an exact count
//     on a table with every join done at write time (see the comment at BENCH_FLOOR below)
import crypto from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import '../common/zod-setup';
import { pressureWindow } from '../common/pressure-date';
import { type QueryNode, QueryTreeSchema } from '../common/query-tree';
import { migrateDatabase, openDatabase } from '../server/db/client';
import { pressureConflictSql } from '../server/features/mailings/pressure.sql';
import { compileQuery } from '../server/features/selections/compile';
import { type CompileContext, caseCollation } from '../server/features/selections/compile-context';
import { loadSlots, rebuildSelRecords } from '../server/features/selections/sel-record.sql';
import { allocateCandidates } from '../server/features/selections/selection-allocate';
import { CellSizes, countCandidates, prepareCount } from '../server/features/selections/selection-count';
import { fileRowsSql, loadSelectionFiles } from '../server/features/selections/selection-file.queries';
import { countFunnel } from '../server/features/selections/selection-funnel';
import {
  allowedDatasets,
  NO_JIT,
  type RunSettings,
  type RunSource,
} from '../server/features/selections/selection-plan';
import { createBenchDatabase } from './support/database';
import { generateSelectionWorld } from './support/selection-world';

const N = Number(process.argv[2] ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? (N > 5_000_000 ? 3 : 7));
const DATASETS = 500;

const reuse = process.env.BENCH_REUSE_DB;
const bench = reuse
  ? { target: `kept database ${new URL(reuse).pathname.slice(1)}`, url: reuse, drop: async () => {} }
  : await createBenchDatabase('selection');
const { target } = bench;
const database = openDatabase(bench.url, 4);
if (!reuse || process.env.BENCH_MIGRATE === '1') await migrateDatabase(database);
const db = database.db;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await work();
  console.log(`  ${label}: ${seconds(performance.now() - t0)}`);
  return out;
}

console.log(`Selection benchmark: ${N.toLocaleString('en')} addresses, ${DATASETS} datasets, ${target}`);
if (!reuse) {
  console.log('Generating (SQL) ...');
  await generateSelectionWorld(db, N, DATASETS, timed);
}
const { rows: sizes } = await db.execute(sql`SELECT (SELECT count(*) FROM addresses)::int AS addresses,
  (SELECT count(*) FROM records)::int AS records, pg_size_pretty(pg_database_size(current_database())) AS size`);
console.log(`  ${JSON.stringify(sizes[0])}`);

if (process.env.BENCH_GENERATE_ONLY === '1') {
  await database.close();
  await bench.drop();
  process.exit(0);
}

const collation = await caseCollation(db);
const files = await loadSelectionFiles(db, 'sb');
const keys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };
const compileCtx = {
  keys: () => keys,
  encrypted: new Set<string>(),
  collation,
  now: new Date(),
  fileRows: (lineId: string, fields: string[], c: CompileContext) =>
    fileRowsSql(files, 'sb', lineId, fields, c),
};
const settings: RunSettings = {
  mailingId: 'mb',
  campaignType: 'lifestyle',
  useBlacklist: true,
  activeDatasetsOnly: true,
  useCampaignLabel: true,
  useDate: true,
  pressureAge: '2026-11-30',
  useDatasetsFrom: [],
  minMailings: 1,
};
const leaf10 = Array.from({ length: 10 }, (_, i) => ({ match: { postcode: `${1000 + i * 800}*` } }));
const TREES: [string, unknown][] = [
  ['postcode range', { range: { pc4: ['1000', '1999'] } }],
  [
    'gender + age band',
    { and: [{ match: { gender: 'M' } }, { dateRange: { birthDate: ['NOW-40YEARS', 'NOW-30YEARS'] } }] },
  ],
  [
    'two cities or a label',
    { or: [{ in: { city: ['Amsterdam', 'Rotterdam'] } }, { dataset: { type: 'senioren' } }] },
  ],
  ['not over interests', { not: { interests: { click: ['auto', 'reizen'] } } }],
  ['intersect 100k file', { intersect: { id: 'bench', name: 'klanten.csv', fields: ['gen_id'] } }],
  ['empty query', { and: [] }],
  ['wide or of ten leaves', { or: leaf10 }],
  [
    'deep and/or/not',
    {
      and: [
        { or: [{ match: { gender: 'V' } }, { not: { in: { city: ['Utrecht', 'Breda'] } } }] },
        { not: { and: [{ range: { income: ['4', '5'] } }, { contains: { os: ['ios'] } }] } },
        {
          or: [
            { dateRange: { birthDate: ['01-01-1950', '31-12-1990'] } },
            { interests: { open: ['wonen'] } },
          ],
        },
      ],
    },
  ],
  [
    'age, city begins, postcode',
    {
      and: [
        { age: { birthDate: [30, 50] } },
        { startsWith: { city: 'a' } },
        { empty: { postcode: false } },
        { not: { includes: { city: 'dam' } } },
      ],
    },
  ],
];

// BENCH_SOURCE: where the counts read (default both): records with addresses, as the app does
// today, and sel_record, the narrow tables (sel_record and sel_multi), built here from their definition when
// empty or with BENCH_REBUILD=1 (its build time printed; on a kept database it stays built).
const SOURCES = (process.env.BENCH_SOURCE ?? 'records,sel_record').split(',') as RunSource[];
if (SOURCES.includes('sel_record')) {
  const { rows } = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM sel_record) AS built`);
  if (!(rows[0] as { built: boolean }).built || process.env.BENCH_REBUILD === '1') {
    await timed('sel_record built from its definition', async () => {
      await rebuildSelRecords(database, collation);
      await db.execute(sql`VACUUM ANALYZE sel_record, sel_multi`);
    });
  }
}

// The cell sizes of the counts, which an allocation after a count of the same query takes its
// bounds from (as the app's AppContext.selectionRuns holds them).
const cellSizes = new CellSizes();
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
console.log(`Counts (${RUNS} runs each, after one warm-up):`);
const results: { source: RunSource; tree: string; p50: number; p95: number; addresses: number }[] = [];
const only = process.env.BENCH_TREES?.split(',');
const slots = await loadSlots(db);
const compileFor = (tree: unknown, source: RunSource) => {
  const compiled = compileQuery(QueryTreeSchema.parse(tree) as QueryNode, compileCtx, slots);
  if (source === 'sel_record' && !compiled.narrow)
    console.log('  (this tree cannot be read from sel_record)');
  return compiled;
};
for (const source of SOURCES) {
  console.log(`  from ${source}:`);
  for (const [name, tree] of TREES) {
    if (only && !only.some((o) => name.includes(o))) continue;
    const where = compileFor(tree, source);
    if (process.env.BENCH_EXPLAIN === '1') {
      // The statement the app runs, prepared as countCandidates prepares it.
      const { rows } = await db.transaction(async (tx) => {
        const { statement } = await prepareCount(tx, where, settings, source);
        return tx.execute(sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`);
      });
      console.log(
        `--- ${name}\n${(rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n')}`,
      );
    }
    let found = 0;
    const times: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const counts = await countCandidates(db, where, settings, { source, sizes: cellSizes });
      const ms = performance.now() - t0;
      found = counts.reduce((n, c) => n + c.new + c.notOpenedOrClicked + c.opens + c.clicks, 0);
      if (i > 0) times.push(ms);
    }
    results.push({ source, tree: name, p50: pct(times, 50), p95: pct(times, 95), addresses: found });
    console.log(
      `  ${name.padEnd(24)} p50 ${seconds(pct(times, 50))}  p95 ${seconds(pct(times, 95))}  (${found.toLocaleString('en')} addresses)`,
    );
    if (process.env.BENCH_FUNNEL === '1') await timeFunnel(where, source, found);
  }
}

/** Times a tree's count with its funnel (countFunnel) as the counts above are timed, and prints its figures. */
async function timeFunnel(where: ReturnType<typeof compileFor>, source: RunSource, found: number) {
  const times: number[] = [];
  let remaining: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    ({ remaining } = await countFunnel(db, where, settings, { source }));
    if (i > 0) times.push(performance.now() - t0);
  }
  const last = remaining.at(-1) ?? found;
  console.log(
    `    with its funnel        p50 ${seconds(pct(times, 50))}  p95 ${seconds(pct(times, 95))}  (${remaining.map((n) => n.toLocaleString('en')).join(' → ') || 'no lines'}${last === found ? '' : ', NOT the count'})`,
  );
}

// BENCH_FLOOR=1: the least work an exact count must do, whatever the schema. Every join done at
// write time: one narrow row per record with its dataset, its address's category and static
// exclusions (hard bounce, e-mail or domain blacklisted) and how many records its address has. On
// that table, times: reading every record once (count(*)); counting per dataset and category
// without priority; and the empty tree's exact count with priority (each address once, in its
// lowest-sort dataset), where only addresses with several records need a GROUP BY. The engine's
// empty-query time above against these is what structure could still win (docs/performance.md,
// Selection counts).
const floors: { step: string; p50: number; p95: number; rows: number }[] = [];
/** Times one floor step (RUNS runs after a warm-up, each in a transaction that first runs `setup`), prints and keeps it. */
async function timeFloorStep(step: string, query: SQL, setup: SQL, width: number): Promise<void> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    const res = await db.transaction(async (tx) => {
      await tx.execute(setup);
      return tx.execute(query);
    });
    if (i > 0) times.push(performance.now() - t0);
    rows = (res.rows as { n: number }[]).reduce((n, r) => n + Number(r.n), 0);
  }
  floors.push({ step, p50: pct(times, 50), p95: pct(times, 95), rows });
  console.log(
    `  ${step.padEnd(width)} p50 ${seconds(pct(times, 50))}  p95 ${seconds(pct(times, 95))}  (${rows.toLocaleString('en')})`,
  );
}
if (process.env.BENCH_FLOOR === '1') {
  console.log('Floor (a pre-joined narrow table, built once and not timed):');
  const built = performance.now();
  await db.execute(
    sql.raw(`DROP TABLE IF EXISTS bench_floor;
    CREATE UNLOGGED TABLE bench_floor AS
    SELECT r.address_id, r.dataset_id,
      CASE WHEN a.last_click_at IS NOT NULL THEN 3 WHEN a.last_open_at IS NOT NULL THEN 2
           WHEN a.sent_count >= 1 THEN 1 ELSE 0 END::smallint AS cat,
      (a.hard_bounced_at IS NOT NULL OR EXISTS (SELECT 1 FROM blacklist_emails be WHERE be.email = a.email)
        OR EXISTS (SELECT 1 FROM blacklist_domains bd WHERE bd.domain = a.domain)) AS excluded,
      count(*) OVER (PARTITION BY r.address_id)::smallint AS n_rec
    FROM records r JOIN addresses a ON a.id = r.address_id`),
  );
  await db.execute(sql.raw('VACUUM ANALYZE bench_floor'));
  console.log(`  built in ${seconds(performance.now() - built)}`);
  const { ids } = await allowedDatasets(db, settings);
  const ranked = sql`unnest(${`{${ids.join(',')}}`}::text[]) WITH ORDINALITY AS ds(id, rank)`;
  // What no table can hold ready: the pressure of the selection's week and the mailing's own addresses.
  const dynamicExclusions = sql`NOT ${pressureConflictSql(sql`f.address_id`, pressureWindow(settings.pressureAge), settings.mailingId)}
    AND NOT EXISTS (SELECT 1 FROM mailing_addresses own WHERE own.mailing_id = ${settings.mailingId}
      AND own.address_id = f.address_id)`;
  const steps: [string, ReturnType<typeof sql>][] = [
    ['read every record once', sql`SELECT count(*)::int AS n FROM bench_floor`],
    [
      'per dataset and category',
      sql`SELECT dataset_id, cat, count(*)::int AS n FROM bench_floor GROUP BY 1, 2`,
    ],
    [
      'empty tree, exact, priority',
      // Addresses with one record count where they are; only the others group by address.
      sql`SELECT ds.id, f.cat, count(*)::int AS n FROM bench_floor f JOIN ${ranked} ON ds.id = f.dataset_id
        WHERE f.n_rec = 1 AND NOT f.excluded AND ${dynamicExclusions} GROUP BY 1, 2
      UNION ALL
      SELECT ds.id, h.cat, count(*)::int FROM (
        SELECT min(ds.rank) AS rank, min(f.cat) AS cat FROM bench_floor f JOIN ${ranked} ON ds.id = f.dataset_id
        WHERE f.n_rec > 1 AND NOT f.excluded AND ${dynamicExclusions} GROUP BY f.address_id) h
      JOIN ${ranked} ON ds.rank = h.rank GROUP BY 1, 2`,
    ],
  ];
  for (const [step, query] of steps) {
    await timeFloorStep(step, query, NO_JIT, 28);
  }
  await db.execute(sql.raw('DROP TABLE bench_floor'));
}

// BENCH_NARROW_FLOOR=1: the least work of the empty tree's exact count on sel_record and sel_multi
// as they are laid out (migrations 0025, 0027), with no leaf, no exclusion but the row flags, no
// rank array and no join: the single rows and the sel_multi rows (the best of their positions by
// dataset number, LEAST as the count takes it) counted per dataset and category, each alone and
// both in one parallel statement (as the count runs them); and each part of sel_record_multi (the
// addresses with more than three records) grouped by address. The count's time above minus these
// is what the leaves, exclusions, ranks and plan add; these themselves are what the layout costs.
if (process.env.BENCH_NARROW_FLOOR === '1') {
  console.log('Floor of the sel_record layout (empty tree, flags only):');
  const category = sql.raw(
    `CASE WHEN clicked THEN 1 WHEN opened THEN 2 WHEN sent_count >= 1 THEN 3 ELSE 4 END`,
  );
  const flags = sql.raw('NOT hard_bounced AND NOT blacklisted');
  const best = sql.raw(
    `LEAST(${[1, 2, 3].map((k) => `CASE WHEN NOT p${k}_partner_blocked THEN p${k}_ds END`).join(', ')})`,
  );
  const singleRows = sql`SELECT ds, ${category} AS c FROM sel_record_single WHERE ${flags} AND NOT partner_blocked`;
  const multiRows = sql`SELECT ${best} AS ds, ${category} AS c FROM sel_multi WHERE ${flags}`;
  const perCell = (rows: ReturnType<typeof sql>) =>
    sql`SELECT ds, c, count(*)::int AS n FROM (${rows}) x GROUP BY 1, 2`;
  const steps: [string, ReturnType<typeof sql>][] = [
    ['single rows, per dataset and category', perCell(singleRows)],
    ['sel_multi rows, per best dataset and category', perCell(multiRows)],
    ['both, in one statement', perCell(sql`${singleRows} UNION ALL ${multiRows}`)],
    ...[0, 1, 2, 3].map(
      (i) =>
        [
          `sel_record_multi part ${i}, grouped by address`,
          sql`SELECT count(*)::int AS n FROM (SELECT address_id, min(ds) FROM ${sql.raw(`sel_record_multi_${i}`)}
            WHERE ${flags} AND NOT partner_blocked GROUP BY address_id) x`,
        ] as [string, ReturnType<typeof sql>],
    ),
  ];
  for (const [step, query] of steps) {
    await timeFloorStep(step, query, sql`SET LOCAL jit = off; SET LOCAL work_mem = '128MB'`, 40);
  }
  const many = floors.filter((f) => f.step.startsWith('sel_record_multi')).reduce((t, f) => t + f.p50, 0);
  const both = floors.find((f) => f.step.startsWith('both'))?.p50 ?? 0;
  console.log(
    `  floor of the empty tree: single and sel_multi ${seconds(both)} + sel_record_multi ${seconds(many)} / 2 cores = ${seconds(both + many / 2)}`,
  );
  // The least the wide or of ten leaves costs on these rows: its ten LIKEs on the postcode slot of
  // every single row and of every position of every sel_multi row, counted, with no flag, rank,
  // exclusion or aggregate per cell (what the count adds to this is its plan's own).
  const postcode = slots.get('postcode');
  if (postcode !== undefined) {
    const likes = (column: string) =>
      sql.raw(
        `(${leaf10.map((l) => `${column} LIKE '${l.match.postcode.toLowerCase().replace('*', '%')}'`).join(' OR ')})`,
      );
    const positions = sql.join(
      [1, 2, 3].map((k) => likes(`p${k}_t${postcode}`)),
      sql` OR `,
    );
    await timeFloorStep(
      "the wide or's ten leaves alone, all rows",
      sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM sel_record_single WHERE ${likes(`t${postcode}`)}
        UNION ALL SELECT 1 FROM sel_multi WHERE ${positions}) x`,
      sql`SET LOCAL jit = off`,
      40,
    );
  }
}

// With BENCH_TREES the allocation runs only when the list names it ('allocation').
const allocations: { source: RunSource; after: string; allocated: number; ms: number }[] = [];
for (const source of !only || only.includes('allocation') ? SOURCES : []) {
  let allocated = 0;
  let allocationMs = 0;
  console.log(`Allocation of 100,000 addresses from ${source} (empty query, spread over the cells):`);
  const where = compileFor({ and: [] }, source);
  const cells = await countCandidates(db, where, settings, { source, sizes: cellSizes });
  const total = cells.reduce((n, c) => n + c.new + c.notOpenedOrClicked + c.opens + c.clicks, 0);
  const want = Math.min(100_000, total);
  const quotas = cells.flatMap((c) =>
    (['new', 'notOpenedOrClicked', 'opens', 'clicks'] as const).map((category) => ({
      datasetId: c.datasetId,
      category,
      n: Math.floor((c[category] * want) / total),
    })),
  );
  // Timed up to the allocation's end, then rolled back: a kept database stays as it was generated.
  // First without the count's cell sizes (the allocation counts to size its cells), then as the
  // builder saves a table: right after the count above of the same query (CellSizes).
  class Rollback extends Error {}
  for (const after of ['no count before it', 'after a count of the same query'] as const) {
    const options = { source, sizes: after === 'no count before it' ? new CellSizes() : cellSizes };
    const t0 = performance.now();
    await db
      .transaction(async (tx) => {
        allocated = await allocateCandidates(tx, where, settings, 'sb', 12345, quotas, options);
        allocationMs = performance.now() - t0;
        throw new Rollback();
      })
      .catch((err) => {
        if (!(err instanceof Rollback)) throw err;
      });
    console.log(`  ${after}: ${allocated.toLocaleString('en')} addresses in ${seconds(allocationMs)}`);
    allocations.push({ source, after, allocated, ms: Math.round(allocationMs) });
  }
}
console.log(
  JSON.stringify({
    addresses: N,
    target,
    results,
    allocations,
    floors,
  }),
);
await database.close();
await bench.drop();
