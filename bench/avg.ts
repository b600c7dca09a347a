// Benchmark of the AVG desk through HTTP against the real server, on the selection benchmark's world
// (bench/support/selection-world.ts: N addresses, 1.25·N records over D datasets, blacklists,
// mailings, a line file) with enrichment values for a fifth of the addresses and 200,000 skipped
// rows of 20 import tasks added (what an erasure searches besides the records):
// - GET /api/avg/lookup of random held addresses (everything held on one address);
// - POST /api/avg/erase of random held addresses (one address erased, in one transaction);
// - POST /api/avg/erase-file of B addresses (default 100,000: nine in ten held, the rest not), from
//   the upload until its avg-erase task is done;
// each beside the cheapest authenticated call (GET /api/auth/me) of the same run, and afterwards a
// check that no erased address kept a record, an enrichment value or a narrow row.
// Prints figures; never fails on slowness (exits 1 only when the check finds something left).
//
//   npx tsx bench/avg.ts [addresses=1000000] [datasets=500] [bulk=100000]   embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/avg.ts                         a PostgreSQL server
//   BENCH_RUNS=50   look-ups and single erasures timed (after five warm-ups)
//   BENCH_REUSE_DB=postgres://.../lw_bench_x npx tsx bench/avg.ts 20000000   a kept world of bench/selection.ts
//     or bench/builder.ts (its enrichment and skipped rows added once); it keeps the erasures made here
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import '../common/zod-setup';
import type { AvgErasure } from '../common/avg-erasure';
import { migrateDatabase, openDatabase } from '../server/db/client';
import { caseCollation } from '../server/features/selections/compile-context';
import { rebuildSelRecords } from '../server/features/selections/sel-record.sql';
import { benchDatabase, seconds, timed } from './support/database';
import { generateSelectionWorld } from './support/selection-world';
import { spawnBenchServer } from './support/server';

const N = Number(process.argv[2] ?? 1_000_000);
const DATASETS = Number(process.argv[3] ?? 500);
const BULK = Number(process.argv[4] ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const WARM = 5;
const PORT = 19_000 + Math.floor(Math.random() * 1000);
/** The goals (ms): a look-up, one erasure, a bulk erasure of 100,000 addresses. */
const GOALS = { lookup: 200, erase: 1000, bulk: 60_000 };

const bench = await benchDatabase('avg');
const database = openDatabase(bench.url, 2);
await migrateDatabase(database);
const db = database.db;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

console.log(
  `AVG benchmark: ${N.toLocaleString('en')} addresses, ${DATASETS} datasets, bulk ${BULK.toLocaleString('en')}, ${bench.target}`,
);
if (!bench.reused) {
  console.log('Generating (SQL) ...');
  await generateSelectionWorld(db, N, DATASETS, timed);
}
// A kept world of bench/selection.ts or bench/builder.ts has none yet: added once, kept with it.
const { rows: enriched } = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM enrichment_files) AS done`);
if (!(enriched[0] as { done: boolean }).done) {
  await timed('enrichment (a fifth of the addresses, two files) and 200,000 skipped rows', () =>
    db.execute(
      sql.raw(`
    INSERT INTO enrichment_files (id, name, columns, record_count) VALUES
      ('ef1', 'verrijking-1.csv', '[]', 0), ('ef2', 'verrijking-2.csv', '[]', 0);
    INSERT INTO enrichment_values (file_id, address_id, attrs)
      SELECT 'ef' || (1 + id % 2), id, jsonb_build_object('income', (id % 5)::text) FROM addresses WHERE id % 5 = 0;
    INSERT INTO address_enrichment (address_id, attrs)
      SELECT id, jsonb_build_object('income', (id % 5)::text) FROM addresses WHERE id % 5 = 0;
    UPDATE enrichment_files f SET record_count = (SELECT count(*) FROM enrichment_values v WHERE v.file_id = f.id);
    INSERT INTO tasks (id, type, state, file) SELECT 'imp' || i, 'import', 'done', 'bestand' || i || '.csv'
      FROM generate_series(1, 20) i;
    INSERT INTO import_skipped_rows (task_id, row, reason, email)
      SELECT 'imp' || (1 + g % 20), g, 'repeated', 'u' || (g * 7 % ${N}) || '@gmail.com'
      FROM generate_series(1, 200000) g;
    ANALYZE;`),
    ),
  );
}
const { rows: built } = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM sel_record) AS built`);
if (!(built[0] as { built: boolean }).built) {
  await timed('narrow tables built from their definition', async () => {
    await rebuildSelRecords(database, await caseCollation(db));
    await db.execute(sql`VACUUM ANALYZE sel_record, sel_multi, sel_count`);
  });
}

// Held addresses in random order, none erased yet: the look-ups, then the single erasures, then
// nine in ten of the bulk file (the rest of it addresses never held).
const wanted = WARM * 2 + RUNS * 2 + BULK;
const { rows: picked } = await db.execute<{ email: string }>(
  sql`SELECT a.email FROM addresses a WHERE a.erased_at IS NULL
    AND EXISTS (SELECT 1 FROM records r WHERE r.address_id = a.id)
    ORDER BY hashint8(a.id * 7919) LIMIT ${wanted}`,
);
const emails = picked.map((r) => r.email);
const lookups = emails.slice(0, WARM + RUNS);
const singles = emails.slice(WARM + RUNS, 2 * (WARM + RUNS));
const bulkHeld = emails.slice(2 * (WARM + RUNS), 2 * (WARM + RUNS) + Math.floor(BULK * 0.9));
const bulkFile = path.join(bench.work, 'verwijderen.csv');
const unknown = Array.from({ length: BULK - bulkHeld.length }, (_, i) => `nooit${i}@elders.nl`);
fs.writeFileSync(bulkFile, `email\n${[...bulkHeld, ...unknown].join('\n')}\n`);

const server = spawnBenchServer(bench, { port: PORT });
const figures: Record<string, unknown> = {};
try {
  await server.ready();
  const api = server.client;
  /** Times `work` for each item after WARM warm-ups; prints p50, p95 and max beside `goal`. */
  async function each(label: string, items: string[], work: (x: string) => Promise<unknown>, goal?: number) {
    const times: number[] = [];
    for (const [i, item] of items.entries()) {
      const t0 = performance.now();
      await work(item);
      if (i >= WARM) times.push(performance.now() - t0);
    }
    const out = { p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times) };
    const verdict =
      goal === undefined ? '' : `  goal ${seconds(goal)}: ${out.p95 <= goal ? 'met (p95)' : 'NOT met (p95)'}`;
    console.log(
      `  ${label.padEnd(44)} p50 ${seconds(out.p50)}  p95 ${seconds(out.p95)}  max ${seconds(out.max)}${verdict}`,
    );
    figures[label] = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Math.round(v * 10) / 10]));
    return out;
  }
  console.log(`Through HTTP (${RUNS} each after ${WARM} warm-ups):`);
  await each('GET /api/auth/me (the floor of a call)', lookups, () => api.call('GET', '/auth/me'));
  let found = 0;
  await each(
    'GET /api/avg/lookup',
    lookups,
    async (email) => {
      const answer = await api.call<{ records: unknown[] }>(
        'GET',
        `/avg/lookup?email=${encodeURIComponent(email)}`,
      );
      if (answer.records.length > 0) found++;
    },
    GOALS.lookup,
  );
  let erasedRecords = 0;
  await each(
    'POST /api/avg/erase',
    singles,
    async (email) => {
      const answer = await api.call<AvgErasure>('POST', '/avg/erase', { email });
      erasedRecords += answer.records;
    },
    GOALS.erase,
  );
  console.log(
    `  (look-ups that found records: ${found} of ${lookups.length}; records erased singly: ${erasedRecords})`,
  );
  const t0 = performance.now();
  const result = await api.upload('/avg/erase-file', bulkFile);
  const bulkMs = performance.now() - t0;
  const met =
    BULK === 100_000 ? `  goal ${seconds(GOALS.bulk)}: ${bulkMs <= GOALS.bulk ? 'met' : 'NOT met'}` : '';
  console.log(
    `  POST /api/avg/erase-file of ${BULK.toLocaleString('en')} addresses until done: ${seconds(bulkMs)}${met}`,
  );
  console.log(`    ${JSON.stringify(result)}`);
  figures.bulk = { ms: Math.round(bulkMs), result };
} finally {
  await server.stop();
}

// Nothing of an erased address is left where the engine or a person could read it.
const { rows: left } = await db.execute<{
  records: number;
  enrichment: number;
  narrow: number;
  erased: number;
}>(sql`
  SELECT (SELECT count(*) FROM records r JOIN addresses a ON a.id = r.address_id WHERE a.erased_at IS NOT NULL)::int AS records,
    (SELECT count(*) FROM enrichment_values v JOIN addresses a ON a.id = v.address_id WHERE a.erased_at IS NOT NULL)::int AS enrichment,
    (SELECT count(*) FROM sel_record s JOIN addresses a ON a.id = s.address_id WHERE a.erased_at IS NOT NULL)::int AS narrow,
    (SELECT count(*) FROM addresses WHERE erased_at IS NOT NULL)::int AS erased`);
console.log(
  `Check: ${JSON.stringify(left[0])} (records, enrichment and narrow rows of erased addresses must be 0)`,
);
const bad = left[0].records + left[0].enrichment + left[0].narrow > 0;
console.log(
  JSON.stringify({
    addresses: N,
    datasets: DATASETS,
    target: bench.target,
    load: os.loadavg().map((x) => x.toFixed(2)),
    figures,
  }),
);
await database.close();
await bench.drop();
if (bad) process.exit(1);
