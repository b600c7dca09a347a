// Benchmark of what a person at the selection builder waits for, through HTTP against the real
// server: on the selection benchmark's world (bench/support/selection-world.ts: N addresses, 1.25·N
// records over D datasets) with its narrow tables built, a campaign and a draft mailing made through
// the API, then per tree
// - POST .../selections/live-count (the count with its funnel): from the request until the figures
//   are there, directly ({state:'done'}) or, when handed on after LIVE_COUNT_DIRECT_MS, polling
//   GET /api/tasks/{id} every BENCH_POLL_MS until done (the builder itself polls every
//   LIVE_COUNT_POLL_MS; the time it would show them is printed beside);
// - POST .../selections/preview (the first 25 addresses);
// and GET /api/count?useBlacklist=true&unique=true ('Bestandsaantallen'). p50 and max after one
// warm-up, each beside two bare counts timed in the same process right before each of its runs, as
// a ratio (the machine's speed swings, the ratio less): the floor, a bare `SELECT count(*)` of the
// narrow tables the count reads (sel_record and sel_multi, with the count's settings:
// bench/support/builder-engine.ts, narrowFloor), and one of records. Beside each live count, in the
// same runs (alternately before and after the request), the same count done in this process step
// by step (timeEngine: compile, plan, the statement, the result rows), and once its statement's
// EXPLAIN ANALYZE (planning, execution, workers, JIT). Prints figures; never fails on slowness.
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
import type { CountAnswer } from '../common/counts';
import {
  LIVE_COUNT_POLL_MS,
  type LiveCountAnswer,
  type Preview,
  SelectionDraftSchema,
} from '../common/live-count';
import type { LiveCount } from '../common/selections';
import { migrateDatabase, openDatabase } from '../server/db/client';
import { caseCollation } from '../server/features/selections/compile-context';
import { rebuildSelRecords } from '../server/features/selections/sel-record.sql';
import {
  type EngineSteps,
  engineContext,
  explainEngine,
  narrowFloor,
  timeEngine,
} from './support/builder-engine';
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
  /** A live count's: the same count in this process, step by step, one per run. */
  engine?: EngineSteps[];
  goal?: number;
  note: string;
}
/** The bare counts: the narrow tables' floor (narrowFloor) and records. */
type Table = 'floor' | 'records';
const figures: Figure[] = [];
/** A bare count of `table` (the floor: narrowFloor); returns its time (ms). */
async function bareCount(table: Table): Promise<number> {
  if (table === 'floor') return (await narrowFloor(db)).ms;
  const t0 = performance.now();
  await db.execute(sql`SELECT count(*)::int AS n FROM records`);
  return performance.now() - t0;
}
/**
 * Runs `work` once to warm up, then RUNS times, each run right after the floor and a bare count of
 * records (so each figure has its baseline of the same minute); with `engine`, that too each run,
 * alternately before and after `work`. Prints and keeps them.
 */
async function repeat(
  label: string,
  work: () => Promise<string>,
  goal?: number,
  engine?: () => Promise<EngineSteps>,
): Promise<Figure> {
  const figure: Figure = { label, times: [], bare: { floor: [], records: [] }, goal, note: '' };
  if (engine) figure.engine = [];
  for (let i = 0; i <= RUNS; i++) {
    const floor = await bareCount('floor');
    const records = await bareCount('records');
    const before = i % 2 === 1 && engine ? await engine() : undefined;
    const t0 = performance.now();
    figure.note = await work();
    const ms = performance.now() - t0;
    const steps = before ?? (engine ? await engine() : undefined);
    if (i === 0) continue;
    figure.times.push(ms);
    figure.bare.floor.push(floor);
    figure.bare.records.push(records);
    if (steps) figure.engine?.push(steps);
  }
  console.log(
    `  ${label.padEnd(72)} p50 ${seconds(p50(figure.times))}  max ${seconds(Math.max(...figure.times))}  ${figure.note}`,
  );
  if (figure.engine) {
    const step = (k: keyof EngineSteps) => seconds(p50(figure.engine?.map((e) => e[k]) ?? []));
    console.log(
      `    in this process: compile ${step('compile')}, plan ${step('plan')}, statement ${step('statement')}, result rows ${step('rows')}; all ${step('total')} (p50 each)`,
    );
    console.log(
      `    floor (bare count(*) of sel_record and sel_multi) p50 ${seconds(p50(figure.bare.floor))}: live ${(p50(figure.times) / p50(figure.bare.floor)).toFixed(2)}×, statement ${(p50(figure.engine.map((e) => e.statement)) / p50(figure.bare.floor)).toFixed(2)}× the floor`,
    );
  }
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
  const engineCtx = engineContext(database);
  console.log(`Through HTTP (${RUNS} runs each after one warm-up; p50, max):`);
  for (const [name, tree] of TREES) {
    if (only && !only.some((o) => name.includes(o))) continue;
    console.log(` ${name} (load ${loadNow()})`);
    const explained = await explainEngine(
      engineCtx,
      campaignId,
      mailing._id,
      SelectionDraftSchema.parse(draft(tree)),
    );
    console.log(
      `    EXPLAIN ANALYZE of its statement: planning ${seconds(explained.planningMs)}, execution ${seconds(explained.executionMs)}, workers ${explained.workersLaunched} of ${explained.workersPlanned} planned, jit ${explained.jitSetting}${explained.jit ? ' (JIT COMPILED)' : ''}`,
    );
    let httpFound = 0;
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
          const polls = Math.ceil((performance.now() - handed) / LIVE_COUNT_POLL_MS);
          uiMs.push(handed - t0 + polls * LIVE_COUNT_POLL_MS);
        }
        httpFound = count.funnel.total;
        const lines = count.funnel.lines.map((l) => l.remaining.toLocaleString('en')).join(' → ');
        return `(${count.funnel.total.toLocaleString('en')} addresses${lines ? `; funnel ${lines}` : ''}${answer.state === 'task' ? '; via a task' : ''})`;
      },
      GOALS.live,
      async () => {
        const steps = await timeEngine(
          engineCtx,
          campaignId,
          mailing._id,
          SelectionDraftSchema.parse(draft(tree)),
        );
        if (steps.found !== httpFound && httpFound > 0)
          throw new Error(`the engine found ${steps.found}, the request ${httpFound}`);
        return steps;
      },
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
  `Each figure against the bare counts timed right before its runs (p50 over the run: floor ${seconds(p50(all('floor')))}, records ${seconds(p50(all('records')))}):`,
);
const results = figures.map((f) => {
  const ratio = (table: Table) => Number((p50(f.times) / p50(f.bare[table])).toFixed(2));
  const step = (k: keyof EngineSteps) => Math.round(p50(f.engine?.map((e) => e[k]) ?? [0]));
  const out = {
    figure: f.label,
    p50: Math.round(p50(f.times)),
    max: Math.round(Math.max(...f.times)),
    floor: Math.round(p50(f.bare.floor)),
    perFloor: ratio('floor'),
    bareRecords: Math.round(p50(f.bare.records)),
    perRecords: ratio('records'),
    ...(f.engine && {
      engine: {
        compile: step('compile'),
        plan: step('plan'),
        statement: step('statement'),
        rows: step('rows'),
      },
      engineTotal: step('total'),
    }),
    goal: f.goal,
    note: f.note,
  };
  const goal =
    f.goal === undefined ? '' : `  goal ${f.goal} s: ${out.p50 <= f.goal * 1000 ? 'met' : 'NOT met'}`;
  const engine = f.engine ? `, statement ${seconds(step('statement'))}` : '';
  console.log(
    `  ${f.label.padEnd(72)} ${seconds(out.p50)}${engine} = ${out.perFloor}× floor (${seconds(out.floor)}), ${out.perRecords}× records (${seconds(out.bareRecords)})${goal}`,
  );
  return out;
});
console.log(
  JSON.stringify({
    addresses: N,
    datasets: DATASETS,
    target: bench.target,
    load: loadNow(),
    bare: { floor: Math.round(p50(all('floor'))), records: Math.round(p50(all('records'))) },
    handedOn,
    results,
  }),
);
await database.close();
await bench.drop();

/** The load average (1, 5 and 15 minutes). */
function loadNow(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}
