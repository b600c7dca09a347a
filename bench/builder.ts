// Benchmark of what a person at the selection builder waits for, through HTTP against the real
// server: on the selection benchmark's world (bench/support/selection-world.ts: N addresses, 1.25·N
// records over D datasets) with its narrow tables built, a campaign and a draft mailing made through
// the API, then per tree
// - POST .../selections/live-count (the count with its funnel): from the request until the figures
//   are there, directly ({state:'done'}) or, when handed on after LIVE_COUNT_DIRECT_MS, polling
//   GET /api/tasks/{id} every BENCH_POLL_MS until done (the builder itself polls every
//   SELECTION_TASK_POLL_MS; the time it would show them is printed beside);
// - POST .../selections/preview (the first 25 addresses);
// and GET /api/count?useBlacklist=true&unique=true ('Bestandsaantallen'). p50 and max after one
// warm-up, each beside a bare `SELECT count(*)` of records and of addresses timed in the same
// process right before each of its runs, as a ratio: the machine's speed swings, the ratio less.
// Prints figures; never fails on slowness.
//
//   npx tsx bench/builder.ts [addresses=1000000] [datasets=500]        embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/builder.ts 20000000      a PostgreSQL server (a fresh database)
//   BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/builder.ts          leave the database (printed)
//   BENCH_REUSE_DB=postgres://.../lw_bench_x npx tsx bench/builder.ts  a kept database of this benchmark,
//     bench/selection.ts or bench/counts.ts (migrated; its narrow tables built when empty); the campaign
//     and mailing made here are deleted at the end
//   BENCH_RUNS=5       runs per figure (after one warm-up)
//   BENCH_POLL_MS=50   how often a handed-on count's task is polled
//   BENCH_TREES="broad,and"  only the trees whose names contain one of these
import os from 'node:os';
import { sql } from 'drizzle-orm';
import '../common/zod-setup';
import { SELECTION_TASK_POLL_MS } from '../common/constants';
import type { CountAnswer } from '../common/counts';
import type { LiveCountAnswer, Preview } from '../common/live-count';
import type { LiveCount } from '../common/selections';
import { migrateDatabase, openDatabase } from '../server/db/client';
import { caseCollation } from '../server/features/selections/compile-context';
import { rebuildSelRecords } from '../server/features/selections/sel-record.sql';
import { benchDatabase, seconds, timed } from './support/database';
import { generateSelectionWorld } from './support/selection-world';
import { spawnBenchServer } from './support/server';

const N = Number(process.argv[2] ?? 1_000_000);
const DATASETS = Number(process.argv[3] ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 50);
const PORT = 19_000 + Math.floor(Math.random() * 1000);
/** The goals (s): the live count's figures at 1M and at 20M, the preview and /api/count at 20M. */
const GOALS = { live: N <= 1_000_000 ? 0.5 : 3.5, preview: 0.5, count: 1 };

const bench = await benchDatabase('builder');
const reuse = bench.reused;
const database = openDatabase(bench.url, 2);
await migrateDatabase(database);
const db = database.db;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1];

console.log(`Builder benchmark: ${N.toLocaleString('en')} addresses, ${DATASETS} datasets, ${bench.target}`);
if (!reuse) {
  console.log('Generating (SQL) ...');
  await generateSelectionWorld(db, N, DATASETS, timed);
}
const { rows: built } = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM sel_record) AS built`);
if (!(built[0] as { built: boolean }).built) {
  await timed('narrow tables built from their definition (sel_count by its triggers)', async () => {
    await rebuildSelRecords(database, await caseCollation(db));
    await db.execute(sql`VACUUM ANALYZE sel_record, sel_multi, sel_count`);
  });
}
const { rows: sizes } = await db.execute(sql`SELECT (SELECT count(*) FROM addresses)::int AS addresses,
  (SELECT count(*) FROM records)::int AS records, (SELECT count(*) FROM sel_dirty)::int AS dirty,
  pg_size_pretty(pg_database_size(current_database())) AS size`);
console.log(`  ${JSON.stringify(sizes[0])}`);

/** One timed figure: its times (ms), the bare counts timed right before each run (ms), what the last run found. */
interface Figure {
  label: string;
  times: number[];
  bare: Record<Table, number[]>;
  goal?: number;
  note: string;
}
type Table = 'records' | 'addresses';
const figures: Figure[] = [];
/** A bare `SELECT count(*)` of `table`; returns its time (ms). */
async function bareCount(table: Table): Promise<number> {
  const t0 = performance.now();
  await db.execute(sql`SELECT count(*)::int AS n FROM ${sql.raw(table)}`);
  return performance.now() - t0;
}
/**
 * Runs `work` once to warm up, then RUNS times, each run right after a bare count of records and
 * one of addresses (so each figure has its baseline of the same minute); prints and keeps them.
 */
async function repeat(label: string, work: () => Promise<string>, goal?: number): Promise<Figure> {
  const figure: Figure = { label, times: [], bare: { records: [], addresses: [] }, goal, note: '' };
  for (let i = 0; i <= RUNS; i++) {
    const records = await bareCount('records');
    const addresses = await bareCount('addresses');
    const t0 = performance.now();
    figure.note = await work();
    if (i === 0) continue;
    figure.times.push(performance.now() - t0);
    figure.bare.records.push(records);
    figure.bare.addresses.push(addresses);
  }
  console.log(
    `  ${label.padEnd(72)} p50 ${seconds(p50(figure.times))}  max ${seconds(Math.max(...figure.times))}  ${figure.note}`,
  );
  figures.push(figure);
  return figure;
}

const leaf10 = Array.from({ length: 10 }, (_, i) => ({ match: { postcode: `${1000 + i * 800}*` } }));
const TREES: [string, unknown][] = [
  ['broad: women', { and: [{ match: { gender: 'V' } }] }],
  ['broad: empty query', { and: [] }],
  ['selective: or of ten postcodes', { or: leaf10 }],
  [
    'and of 4 lines: age, begins, empty, includes',
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
const only = process.env.BENCH_TREES?.split(',');

const server = spawnBenchServer(bench, { port: PORT, env: { SEL_REFRESHER: 'off' } });
let campaignId = '';
const handedOn: Record<string, number> = {};
try {
  await server.ready();
  const api = server.client;
  ({ _id: campaignId } = await api.call<{ _id: string }>('POST', '/campaigns', {
    name: 'Bench builder',
    type: 'lifestyle',
  }));
  const mailing = await api.call<{ _id: string }>('POST', `/campaigns/${campaignId}/mailings`, {
    name: 'Bench builder',
    plannedSend: '2026-11-25T09:00:00Z',
  });
  const url = `/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  const draft = (query: unknown) => ({
    query,
    useBlacklist: true,
    activeDatasetsOnly: true,
    useCampaignLabel: true,
    useDate: true,
    pressure: { age: '2026-11-30' },
    useDatasetsFrom: [],
    selectionId: null,
  });
  console.log(`Through HTTP (${RUNS} runs each after one warm-up; p50, max):`);
  for (const [name, tree] of TREES) {
    if (only && !only.some((o) => name.includes(o))) continue;
    console.log(` ${name}`);
    const label = (what: string) => `${name}: ${what}`;
    let uiMs: number[] = [];
    const live = await repeat(
      label('live count with its funnel'),
      async () => {
        const t0 = performance.now();
        const answer = await api.call<LiveCountAnswer>('POST', `${url}/live-count`, draft(tree));
        let count: LiveCount;
        if (answer.state === 'done') count = answer.count;
        else {
          const handed = performance.now();
          handedOn[name] = (handedOn[name] ?? 0) + 1;
          count = await pollTask(answer.task._id);
          // The builder sees it at its first poll after the count ended.
          const polls = Math.ceil((performance.now() - handed) / SELECTION_TASK_POLL_MS);
          uiMs.push(handed - t0 + polls * SELECTION_TASK_POLL_MS);
        }
        const lines = count.funnel.lines.map((l) => l.remaining.toLocaleString('en')).join(' → ');
        return `(${count.funnel.total.toLocaleString('en')} addresses${lines ? `; funnel ${lines}` : ''}${answer.state === 'task' ? '; via a task' : ''})`;
      },
      GOALS.live,
    );
    uiMs = uiMs.slice(-RUNS);
    if (uiMs.length) live.note += `; the builder's poll shows them at p50 ${seconds(p50(uiMs))}`;
    await repeat(
      label('preview (first 25 addresses)'),
      async () => {
        const preview = await api.call<Preview>('POST', `${url}/preview`, draft(tree));
        return `(${preview.rows.length} rows)`;
      },
      GOALS.preview,
    );
  }
  console.log(' /counts');
  await repeat(
    'GET /api/count?useBlacklist=true&unique=true',
    async () => {
      const answer = await api.call<CountAnswer>('GET', '/count?useBlacklist=true&unique=true');
      return `(${answer.rows.length} datasets)`;
    },
    GOALS.count,
  );
} finally {
  if (campaignId) await server.client.call('DELETE', `/campaigns/${campaignId}`).catch(() => {});
  await server.stop();
}

/** Polls a handed-on live count's task every POLL_MS until done; returns its count, throws when it failed. */
async function pollTask(id: string): Promise<LiveCount> {
  for (;;) {
    const task = await server.client.call<{ state: string; error: string | null; result: LiveCount }>(
      'GET',
      `/tasks/${id}`,
    );
    if (task.state === 'done') return task.result;
    if (task.state === 'failed') throw new Error(`task failed: ${task.error}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const all = (table: Table) => figures.flatMap((f) => f.bare[table]);
console.log(
  `Each figure against the bare counts timed right before its runs (p50 over the run: records ${seconds(p50(all('records')))}, addresses ${seconds(p50(all('addresses')))}):`,
);
const results = figures.map((f) => {
  const ratio = (table: Table) => Number((p50(f.times) / p50(f.bare[table])).toFixed(2));
  const out = {
    figure: f.label,
    p50: Math.round(p50(f.times)),
    max: Math.round(Math.max(...f.times)),
    bareRecords: Math.round(p50(f.bare.records)),
    perRecords: ratio('records'),
    perAddresses: ratio('addresses'),
    goal: f.goal,
    note: f.note,
  };
  const goal =
    f.goal === undefined ? '' : `  goal ${f.goal} s: ${out.p50 <= f.goal * 1000 ? 'met' : 'NOT met'}`;
  console.log(
    `  ${f.label.padEnd(72)} ${seconds(out.p50)} = ${out.perRecords}× records (${seconds(out.bareRecords)}), ${out.perAddresses}× addresses${goal}`,
  );
  return out;
});
const load = os.loadavg().map((x) => x.toFixed(2));
console.log(
  JSON.stringify({
    addresses: N,
    datasets: DATASETS,
    target: bench.target,
    load,
    bare: { records: Math.round(p50(all('records'))), addresses: Math.round(p50(all('addresses'))) },
    handedOn,
    results,
  }),
);
await database.close();
await bench.drop();
