// Benchmark of GET /api/count (/counts 'Bestandsaantallen'): on the selection benchmark's world
// (bench/support/selection-world.ts: N addresses, 1.25·N records over D datasets) with its narrow
// tables built, times the count through HTTP against the real server, p50 / p95 after one warm-up,
// beside a bare `SELECT count(*)` of the tables the answer is about (records; sel_record and
// sel_multi) in the same run. Then the same with some addresses dirty (read from records, as after
// a write the refresher has not reached), and checks the figures against an independent GROUP BY
// over records. Prints figures; never fails on slowness.
//
//   npx tsx bench/counts.ts [addresses=1000000] [datasets=500]      embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/counts.ts 20000000    a PostgreSQL server (a fresh database)
//   BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/counts.ts        leave the database (printed)
//   BENCH_REUSE_DB=postgres://.../lw_bench_x npx tsx bench/counts.ts  a kept database (of this benchmark
//     or of bench/selection.ts), migrated and its narrow tables built when empty
//   BENCH_RUNS=7                 runs per figure (default 7, 3 above 5M addresses)
//   BENCH_DIRTY=1000             how many addresses are marked dirty for the second figure (0: none)
//   BENCH_VERIFY=0               skip the independent GROUP BY over records (minutes at 20M)
//   BENCH_TRIGGER_COST=1         also time a refresh and a rebuild with sel_count's triggers off and on
//     (=refresh: the refreshes only, then the counters counted again from the rows)
import os from 'node:os';
import { sql } from 'drizzle-orm';
import '../common/zod-setup';
import type { CountAnswer } from '../common/counts';
import type { CategoryCounts } from '../common/extra-inzet';
import { migrateDatabase, openDatabase } from '../server/db/client';
import { notBlacklistedSql } from '../server/features/blacklists/blacklist.sql';
import { narrowUnitsSql } from '../server/features/counts/sel-count.sql';
import { categorySql } from '../server/features/mailings/engagement.sql';
import { caseCollation } from '../server/features/selections/compile-context';
import { rebuildSelRecords, refreshDirtyBatch } from '../server/features/selections/sel-record.sql';
import { benchDatabase, seconds, timed } from './support/database';
import { generateSelectionWorld } from './support/selection-world';
import { spawnBenchServer } from './support/server';

const N = Number(process.argv[2] ?? 1_000_000);
const DATASETS = Number(process.argv[3] ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? (N > 5_000_000 ? 3 : 7));
const DIRTY = Number(process.env.BENCH_DIRTY ?? 1000);
const PORT = 18_000 + Math.floor(Math.random() * 1000);

const bench = await benchDatabase('counts');
const reuse = bench.reused;
const database = openDatabase(bench.url, 4);
await migrateDatabase(database);
const db = database.db;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
/** Times `work` RUNS times after a warm-up; prints and returns p50 and p95 (ms). */
async function repeat(label: string, work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    await work();
    if (i > 0) times.push(performance.now() - t0);
  }
  const out = { p50: pct(times, 50), p95: pct(times, 95) };
  console.log(`  ${label.padEnd(52)} p50 ${seconds(out.p50)}  p95 ${seconds(out.p95)}`);
  return out;
}

console.log(`Counts benchmark: ${N.toLocaleString('en')} addresses, ${DATASETS} datasets, ${bench.target}`);
if (!reuse) {
  console.log('Generating (SQL) ...');
  await generateSelectionWorld(db, N, DATASETS, timed);
}
const collation = await caseCollation(db);
const { rows: built } = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM sel_record) AS built`);
if (!(built[0] as { built: boolean }).built) {
  await timed('narrow tables built from their definition (sel_count by its triggers)', async () => {
    await rebuildSelRecords(database, collation);
    await db.execute(sql`VACUUM ANALYZE sel_record, sel_multi, sel_count`);
  });
}
const { rows: sizes } = await db.execute(sql`SELECT (SELECT count(*) FROM addresses)::int AS addresses,
  (SELECT count(*) FROM records)::int AS records, (SELECT count(*) FROM sel_count)::int AS counters,
  pg_size_pretty(pg_database_size(current_database())) AS size`);
console.log(`  ${JSON.stringify(sizes[0])}`);

// A statement timeout far past any figure here: the records path at 20M is timed, not cut off.
const server = spawnBenchServer(bench, {
  port: PORT,
  env: { STATEMENT_TIMEOUT_MS: '3600000', SEL_REFRESHER: 'off' },
});
const results: Record<string, { p50: number; p95: number }> = {};
let answer: CountAnswer | undefined;
try {
  await server.ready();
  const count = async () => {
    answer = await server.client.call<CountAnswer>('GET', '/count?useBlacklist=true&unique=true');
  };
  console.log(`GET /api/count (${RUNS} runs each, after one warm-up):`);
  await db.execute(sql`DELETE FROM sel_dirty`);
  results.clean = await repeat('no address dirty (the counters)', count);
  results.spec = await repeat('the spec list (no unique row)', () =>
    server.client.call('GET', '/count?useBlacklist=false'),
  );
  if (DIRTY > 0) {
    // Marked as a writer marks them; their narrow rows stay as they are (the refresher is off).
    await db.execute(sql`INSERT INTO sel_dirty (address_id)
      SELECT id FROM addresses ORDER BY hashint8(id) LIMIT ${DIRTY}`);
    results.dirty = await repeat(`${DIRTY.toLocaleString('en')} addresses dirty (read from records)`, count);
    await db.execute(sql`DELETE FROM sel_dirty`);
  }
  console.log('Bare counts of the same tables (same run):');
  for (const table of ['records', 'sel_record', 'sel_multi'] as const) {
    results[`count(*) ${table}`] = await repeat(`SELECT count(*) FROM ${table}`, () =>
      db.execute(sql`SELECT count(*) FROM ${sql.raw(table)}`),
    );
  }
} finally {
  await server.stop();
}

// BENCH_TRIGGER_COST=1: what keeping sel_count costs the writers of the narrow tables, its triggers
// off and on in turn (then on): a refresh of 10,000 marked records RUNS times each, and a rebuild of
// both tables once each (BENCH_TRIGGER_COST=refresh: the refreshes only). With them off the counters
// go wrong; the rebuild with them on, last, or a count of the rows makes them exact again.
if (process.env.BENCH_TRIGGER_COST) {
  const triggers = (on: boolean) =>
    db.execute(
      sql.raw(
        ['sel_record', 'sel_multi']
          .flatMap((t) =>
            ['insert', 'delete', 'update', 'truncate'].map(
              (op) => `ALTER TABLE ${t} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${t}_count_${op}`,
            ),
          )
          .join('; '),
      ),
    );
  console.log('What the sel_count triggers cost (off, then on, in turn):');
  const refresh: Record<string, number[]> = { off: [], on: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const on of [false, true]) {
      await triggers(on);
      await db.execute(sql`INSERT INTO sel_dirty (address_id, dataset_id)
        SELECT address_id, dataset_id FROM records
        WHERE address_id >= (SELECT (random() * max(id))::bigint FROM addresses) ORDER BY address_id LIMIT 10000`);
      const t0 = performance.now();
      await refreshDirtyBatch(database, collation, 10_000);
      refresh[on ? 'on' : 'off'].push(performance.now() - t0);
    }
  }
  for (const k of ['off', 'on'])
    console.log(`  refresh of 10,000 marks, triggers ${k}: p50 ${seconds(pct(refresh[k], 50))}`);
  results['refresh 10,000 marks, triggers off'] = { p50: pct(refresh.off, 50), p95: pct(refresh.off, 95) };
  results['refresh 10,000 marks, triggers on'] = { p50: pct(refresh.on, 50), p95: pct(refresh.on, 95) };
  for (const on of process.env.BENCH_TRIGGER_COST === 'refresh' ? [] : [false, true]) {
    await triggers(on);
    const t0 = performance.now();
    await rebuildSelRecords(database, collation);
    const ms = performance.now() - t0;
    console.log(`  rebuild of the narrow tables, triggers ${on ? 'on' : 'off'}: ${seconds(ms)}`);
    results[`rebuild, triggers ${on ? 'on' : 'off'}`] = { p50: ms, p95: ms };
  }
  await triggers(true);
  if (process.env.BENCH_TRIGGER_COST === 'refresh') {
    // The counters counted again from the rows, as migration 0029 first counted them.
    const key = sql.raw(
      'src, kind, ds, clicked, opened, sent_count, hard_bounced, blacklisted, partner_blocked',
    );
    await db.execute(sql`DELETE FROM sel_count`);
    await db.execute(sql`INSERT INTO sel_count (${key}, n) SELECT ${key}, count(*) FROM
      (${narrowUnitsSql('sel_record', null)} UNION ALL ${narrowUnitsSql('sel_multi', null)}) u GROUP BY ${key}`);
  }
}

// Independent of the counters: the definition (DESIGN §4 Counts) as one GROUP BY over records.
if (process.env.BENCH_VERIFY !== '0' && answer) {
  const got = answer;
  await timed('independent GROUP BY over records, compared', async () => {
    const { rows } = await db.execute(sql`WITH c AS MATERIALIZED (
        SELECT r.dataset_id, a.id, ${categorySql('a', 1)} AS category FROM records r
        JOIN datasets d ON d.id = r.dataset_id JOIN addresses a ON a.id = r.address_id
        WHERE a.hard_bounced_at IS NULL AND ${notBlacklistedSql('a', 'd')})
      SELECT dataset_id, category, count(*)::int AS n FROM c GROUP BY 1, 2
      UNION ALL SELECT NULL, category, count(DISTINCT id)::int FROM c GROUP BY 2`);
    const want = new Map<string, number>();
    for (const r of rows as { dataset_id: string | null; category: string; n: number }[])
      want.set(`${r.dataset_id ?? '*'} ${r.category}`, r.n);
    const cells: [string, CategoryCounts][] = [
      ...got.rows.map((r): [string, CategoryCounts] => [r.dataset.id, r]),
      ['*', got.unique],
    ];
    let differ = 0;
    for (const [id, c] of cells)
      for (const k of ['new', 'notOpenedOrClicked', 'opens', 'clicks'] as const)
        if ((want.get(`${id} ${k}`) ?? 0) !== c[k]) differ++;
    console.log(`  ${differ === 0 ? 'every cell equal' : `${differ} cells differ`} (${cells.length} rows)`);
  });
}
const load = os.loadavg().map((x) => x.toFixed(2));
console.log(JSON.stringify({ addresses: N, datasets: DATASETS, target: bench.target, load, results }));
await database.close();
await bench.drop();
