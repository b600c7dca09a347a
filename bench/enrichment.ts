// Benchmark of enrichment files: with A addresses stored, uploads an enrichment file of
// R rows (matched by e-mail, two Verrijk columns) through POST /api/enrichment/files and waits for
// its task, against a bare `psql \copy` of the same file in the same run (goal: within 4×). Then a
// second file over the same addresses (the latest wins) and the delete of the first (what it added
// is removed, the second file's values stay). Prints figures, the task's steps (from the server's
// log line 'enrichment file applied') and the load average; never fails on slowness.
//
//   npx tsx bench/enrichment.ts [rows=1000000] [addresses=5000000]     embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/enrichment.ts              a PostgreSQL server (a fresh database is made)
//
// BENCH_ROUNDS=n repeats the measurements n times on the same addresses (the second file is
// deleted too at the end of a round, and the tables vacuumed, so each round starts without
// enrichment). BENCH_FLOOR=1 adds,
// in each round, the least work any enrichment must do, in plain SQL through psql: the file into a
// staging table (`\copy`), then one statement that joins it with the addresses by e-mail (trimmed,
// lower case) and writes one row per matched address (CREATE TABLE AS, so PostgreSQL may use
// parallel workers); the app's time is printed as a ratio to it as well.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createBenchDatabase, psqlSeconds } from './support/database';
import { spawnBenchServer } from './support/server';

const rows = Number(process.argv[2] ?? 1_000_000);
const addressCount = Number(process.argv[3] ?? 5_000_000);
const bench = await createBenchDatabase('enrichment');
const { target, work, url: databaseUrl } = bench;
const port = 19000 + Math.floor(Math.random() * 100);
const stride = Math.max(1, Math.floor(addressCount / rows));

/** Writes an enrichment file: e-mail (1 in 10 in capitals with spaces, 1 in 100 unknown), level and region. */
async function writeFile(file: string, level: (i: number) => string): Promise<number> {
  const out = fs.createWriteStream(file);
  let block = 'E-mail;Niveau;Regio\n';
  for (let i = 0; i < rows; i++) {
    const n = i * stride + 1;
    const email =
      i % 100 === 42
        ? `onbekend.${i}@nergens.nl`
        : i % 10 === 3
          ? ` Klant.${n}@Domein${n % 5000}.NL `
          : `klant.${n}@domein${n % 5000}.nl`;
    block += `${email};${level(i)};Regio ${i % 12}\n`;
    if (block.length > 1 << 20) {
      if (!out.write(block)) await new Promise((r) => out.once('drain', r));
      block = '';
    }
  }
  out.end(block);
  await new Promise((r) => out.once('finish', r));
  return fs.statSync(file).size;
}

const mappings = JSON.stringify([
  { field: 'E-mail', mapped: 'email', match: true },
  { field: 'Niveau', mapped: 'niveau', match: false },
  { field: 'Regio', mapped: 'regio', match: false },
]);

const roundsWanted = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const withFloor = process.env.BENCH_FLOOR === '1';

// The task's steps come from its log line (info), the rest of the log shows from warn up as usual.
const taskSteps: Record<string, number>[] = [];
const shownLevel = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 }[
  (process.env.BENCH_LOG_LEVEL ?? 'warn') as 'warn'
];
const server = spawnBenchServer(bench, {
  port,
  env: { LOG_LEVEL: 'info' },
  onLine(line) {
    let entry: { level?: number; msg?: string; steps?: Record<string, number> } | undefined;
    try {
      entry = JSON.parse(line);
    } catch {
      console.log(line);
      return;
    }
    if (entry?.msg === 'enrichment file applied' && entry.steps) taskSteps.push(entry.steps);
    if ((entry?.level ?? 60) >= (shownLevel ?? 40)) console.log(line);
  },
});
const { client } = server;
const db = new pg.Client({ connectionString: databaseUrl });
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const s2 = (seconds: number) => `${seconds.toFixed(2).padStart(6)} s`;
try {
  await server.ready();
  await db.connect();
  console.log(`Storing ${addressCount.toLocaleString('en')} addresses ...`);
  const fillStart = performance.now();
  await db.query(`INSERT INTO addresses (email, domain)
    SELECT 'klant.' || g || '@domein' || (g % 5000) || '.nl', 'domein' || (g % 5000) || '.nl'
    FROM generate_series(1, ${addressCount}) g`);
  await db.query('VACUUM ANALYZE addresses');
  await db.query('CHECKPOINT');
  console.log(`  ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);

  console.log(`Generating two files of ${rows.toLocaleString('en')} rows ...`);
  const first = path.join(work, 'verrijking-1.csv');
  const second = path.join(work, 'verrijking-2.csv');
  const bytes = await writeFile(first, (i) => ['goud', 'zilver', 'brons'][i % 3]);
  await writeFile(second, (i) => (i % 2 === 0 ? 'platina' : ['goud', 'zilver', 'brons'][i % 3]));

  const timed = async <T>(work: () => Promise<T>) => {
    const t0 = performance.now();
    const result = await work();
    return { seconds: (performance.now() - t0) / 1000, result };
  };
  const copyOptions = `WITH (FORMAT csv, HEADER true, DELIMITER ';')`;

  console.log(`\nEnrichment benchmark on ${target}, ${os.cpus().length} cores`);
  console.log(
    `  ${addressCount.toLocaleString('en')} addresses; file: ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB`,
  );
  const summary: { copy: number; floor?: number; first: number }[] = [];
  for (let round = 1; round <= roundsWanted; round++) {
    // Each round starts alike: the previous round's deletes vacuumed away (as autovacuum would)
    // and its writes checkpointed, untimed.
    if (round > 1) await db.query('VACUUM address_enrichment, enrichment_values');
    await db.query('CHECKPOINT');
    console.log(`\n  round ${round} (load average ${load()})`);
    // The bare reference: psql \copy of the same file into a table without indexes.
    await db.query('DROP TABLE IF EXISTS bare; CREATE TABLE bare (email text, niveau text, regio text)');
    const copySeconds = psqlSeconds(databaseUrl, `\\copy bare FROM '${first}' ${copyOptions}`);
    await db.query('DROP TABLE bare');
    console.log(`  psql \\copy into a bare table:      ${s2(copySeconds)}`);

    let floorSeconds: number | undefined;
    if (withFloor) {
      await db.query(`DROP TABLE IF EXISTS floor_staging, floor_out;
        CREATE UNLOGGED TABLE floor_staging (ln bigint GENERATED ALWAYS AS IDENTITY, c1 text, c2 text, c3 text)`);
      const stage = psqlSeconds(
        databaseUrl,
        `\\copy floor_staging (c1, c2, c3) FROM '${first}' ${copyOptions}`,
      );
      const join = psqlSeconds(
        databaseUrl,
        `CREATE TABLE floor_out AS SELECT a.id AS address_id, s.c2 AS niveau, s.c3 AS regio
         FROM floor_staging s JOIN addresses a ON a.email = lower(btrim(s.c1))`,
      );
      const { rows: out } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM floor_out');
      await db.query('DROP TABLE floor_staging, floor_out');
      floorSeconds = stage + join;
      console.log(
        `  floor (staging \\copy + join and write in one CREATE TABLE AS): ${s2(floorSeconds)} (staging ${stage.toFixed(2)} s, join and write ${join.toFixed(2)} s, ${out[0].n.toLocaleString('en')} rows); ratio to \\copy ${(floorSeconds / copySeconds).toFixed(2)}`,
      );
    }

    const stepsBefore = taskSteps.length;
    const up1 = await timed(() => client.upload('/enrichment/files', first, { name: 'Eerste', mappings }));
    const up2 = await timed(() => client.upload('/enrichment/files', second, { name: 'Tweede', mappings }));
    const del = await timed(() => client.call('DELETE', `/enrichment/files/${encodeURIComponent('Eerste')}`));
    const check = await db.query<{ platina: number; enriched: number }>(`SELECT
      count(*) FILTER (WHERE attrs->>'niveau' = 'platina')::int AS platina,
      count(*)::int AS enriched FROM address_enrichment`);
    const staging = await db.query<{ staging: number; task: number }>(`
      SELECT extract(epoch FROM started_at - created_at)::float AS staging,
             extract(epoch FROM finished_at - started_at)::float AS task
      FROM tasks WHERE type = 'enrichment' ORDER BY created_at DESC LIMIT 2`);
    const del2 = await timed(() =>
      client.call('DELETE', `/enrichment/files/${encodeURIComponent('Tweede')}`),
    );

    const floorRatio = (seconds: number) =>
      floorSeconds === undefined ? '' : `  to the floor ${(seconds / floorSeconds).toFixed(2)}`;
    for (const [i, [name, run]] of (
      [
        ['first enrichment file', up1],
        ['second file (over the first)', up2],
      ] as const
    ).entries()) {
      const st = staging.rows[1 - i];
      const steps = taskSteps[stepsBefore + i];
      console.log(
        `  ${name.padEnd(33)} ${s2(run.seconds)}  ratio to \\copy ${(run.seconds / copySeconds).toFixed(2)}${floorRatio(run.seconds)}  ${JSON.stringify(run.result)}`,
      );
      console.log(
        `    upload and staging ${st.staging.toFixed(2)} s, task ${st.task.toFixed(2)} s; steps ${JSON.stringify(steps ?? {})}`,
      );
    }
    console.log(
      `  delete of the first file:         ${s2(del.seconds)}  ratio to \\copy ${(del.seconds / copySeconds).toFixed(2)}`,
    );
    console.log(
      `  afterwards: ${check.rows[0].enriched.toLocaleString('en')} addresses enriched, ${check.rows[0].platina.toLocaleString('en')} 'platina' (the second file's)`,
    );
    console.log(`  delete of the second file (the last): ${s2(del2.seconds)}; load average ${load()}`);
    summary.push({ copy: copySeconds, floor: floorSeconds, first: up1.seconds });
  }
  if (summary.length > 1) {
    const list = (f: (r: (typeof summary)[number]) => number | undefined) =>
      summary.map((r) => f(r)?.toFixed(2) ?? '-').join(', ');
    console.log(`\n  first file, ratio to \\copy per round: ${list((r) => r.first / r.copy)}`);
    if (withFloor) {
      console.log(`  floor, ratio to \\copy per round:      ${list((r) => (r.floor ?? 0) / r.copy)}`);
      console.log(`  first file, ratio to the floor:        ${list((r) => r.first / (r.floor ?? 1))}`);
    }
  }
} finally {
  await db.end().catch(() => {});
  await server.stop();
  await bench.drop();
}
