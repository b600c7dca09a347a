// Benchmark of the import pipeline: generates a partner-like CSV of N rows, starts the
// real server as a child process, imports the file through the HTTP endpoint into a mapped
// dataset, re-imports it (all unchanged), remaps it, downloads its CSV, and compares with a bare
// `psql \copy` of the same file. Prints figures; never fails on slowness.
//
//   npx tsx bench/import.ts [rows=1000000]            embedded PostgreSQL (the README default)
//   DATABASE_URL=postgres://... npx tsx bench/import.ts   a PostgreSQL server (a fresh database is made)
//   BENCH_EXISTING_ADDRESSES=20000000 npx tsx bench/import.ts   with that many other addresses stored first
//   BENCH_EMAIL_ORDER=random npx tsx bench/import.ts   e-mails in an order unrelated to the file's
//   BENCH_LOG_LEVEL=debug npx tsx bench/import.ts     the server's log with each import step's time
//   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/import.ts   profile it
//   BENCH_KEEP_FILE=/tmp/partner.csv npx tsx bench/import.ts   keep the generated file there, or reuse it
//   BENCH_FIRST_ONLY=1 npx tsx bench/import.ts        only the first import (quicker runs to compare)
//   BENCH_FLOOR=1 npx tsx bench/import.ts            also what PostgreSQL alone takes to store the records and
//                                                     addresses of the first import (bench/write-floor.ts)
//   BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/import.ts   leave the benchmark's database (printed) on the server
//   BENCH_SUPPRESSIONS=1000 npx tsx bench/import.ts   that many e-mails of the file (evenly spread) erased first
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { BENCH_HEADERS, generatePartnerCsv } from './generate-partner-csv';
import { CpuMeter, postgresIsLocal } from './support/cpu';
import { createBenchDatabase } from './support/database';
import { spawnBenchServer } from './support/server';
import { storeSuppressions } from './support/suppressions';
import { measureWriteFloor } from './write-floor';

const rows = Number(process.argv[2] ?? 1_000_000);
const existing = Number(process.env.BENCH_EXISTING_ADDRESSES ?? 0);
const suppressions = Number(process.env.BENCH_SUPPRESSIONS ?? 0);
const shuffled = process.env.BENCH_EMAIL_ORDER === 'random';
const bench = await createBenchDatabase('import');
const { target, work, url: databaseUrl } = bench;
const keptFile = process.env.BENCH_KEEP_FILE;
const file = keptFile ?? path.join(work, 'partner.csv');
const firstOnly = process.env.BENCH_FIRST_ONLY === '1';
const floor = process.env.BENCH_FLOOR === '1';
const port = 18700 + Math.floor(Math.random() * 200);

if (keptFile && fs.existsSync(keptFile)) console.log(`Reusing ${keptFile}`);
else {
  console.log(`Generating ${rows.toLocaleString('en')} rows ...`);
  await generatePartnerCsv(file, rows, 1, shuffled);
}
const bytes = fs.statSync(file).size;
console.log(`  ${(bytes / 1e6).toFixed(1)} MB, Windows-1252, ';'-separated, ${BENCH_HEADERS.length} columns`);

// The bare reference: psql \copy of the same file into a table without indexes.
const COPY_OPTIONS = "FORMAT csv, HEADER true, DELIMITER ';', ENCODING 'WIN1252'";
const bare = new pg.Client({ connectionString: databaseUrl });
await bare.connect();
await bare.query(`CREATE TABLE bare (${BENCH_HEADERS.map((_, i) => `c${i} text`).join(', ')})`);
await bare.end();
const copyStart = performance.now();
execFileSync('psql', [databaseUrl, '-q', '-c', `\\copy bare FROM '${file}' WITH (${COPY_OPTIONS})`]);
const copySeconds = (performance.now() - copyStart) / 1000;

// BENCH_SERVER_NODE_ARGS: extra Node.js options for the server (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const server = spawnBenchServer(bench, { port, nodeArgs: serverNodeArgs });
const { client } = server;
const serverStatusKb = server.statusKb;
try {
  await server.ready();
  if (existing > 0) {
    // Addresses of other datasets, none of them in the file: the import must find its own among them.
    console.log(`Storing ${existing.toLocaleString('en')} other addresses ...`);
    const fill = new pg.Client({ connectionString: databaseUrl });
    await fill.connect();
    await fill.query(`INSERT INTO addresses (email, domain)
      SELECT 'klant' || g || '@domein' || (g % 1000) || '.nl', 'domein' || (g % 1000) || '.nl'
      FROM generate_series(1, ${existing}) g`);
    await fill.query('VACUUM ANALYZE addresses');
    await fill.end();
  }
  if (suppressions > 0) {
    // Erased addresses (AVG art. 17): every way in hashes its new addresses while any exists.
    const lines = fs.readFileSync(file, 'latin1').split('\r\n').slice(1, -1);
    const step = Math.max(1, Math.floor(lines.length / suppressions));
    // Half a step in: the file's repeats (bench/generate-partner-csv.ts) repeat the lines at a step's start.
    const emails = lines
      .filter((_, i) => i % step === Math.floor(step / 2))
      .map((l) => l.slice(0, l.indexOf(';')));
    console.log(
      `Erased ${await storeSuppressions(bench, emails.slice(0, suppressions))} e-mails of the file`,
    );
  }
  const { partnerId, datasetId, datasetName } = await client.makeMappedDataset();

  // Each phase's wall time, and the CPU seconds of the server and the database's backends (when
  // PostgreSQL runs here; parallel workers that end within the phase are not counted): on a busy
  // machine the CPU figure compares two runs where the wall time cannot.
  const monitor = new pg.Client({ connectionString: databaseUrl });
  await monitor.connect();
  const cpu = (await postgresIsLocal(monitor)) ? new CpuMeter(server.pid, monitor) : null;
  const phases: [string, number, Record<string, number>, number | null][] = [];
  const phase = async (name: string, run: () => Promise<Record<string, number>>) => {
    await cpu?.start();
    const t0 = performance.now();
    const result = await run();
    const seconds = (performance.now() - t0) / 1000;
    const use = cpu ? await cpu.stop() : null;
    phases.push([name, seconds, result, use ? use.server + use.postgres : null]);
  };
  await phase('first import', () => client.importFile(partnerId, datasetName, file));
  if (!firstOnly) {
    await phase('re-import (unchanged)', () => client.importFile(partnerId, datasetName, file));
    await phase('remap', () => client.remap(partnerId, datasetId));
  }
  await monitor.end();
  // The dataset's CSV streamed back, the server's resident memory sampled while it streams.
  let download:
    | { seconds: number; bytes: number; lines: number; rssBefore: number; rssPeak: number }
    | undefined;
  if (!firstOnly) {
    const rss = () => serverStatusKb('VmRSS');
    const rssBefore = rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rss());
    }, 50);
    const t0 = performance.now();
    const { bytes, lines } = await client.downloadCsv(partnerId, datasetId);
    download = { seconds: (performance.now() - t0) / 1000, bytes, lines, rssBefore, rssPeak };
    clearInterval(sampler);
  }

  const peakKb = serverStatusKb('VmHWM');
  const stored =
    (existing > 0 ? `, ${existing.toLocaleString('en')} other addresses stored` : '') +
    (suppressions > 0 ? `, ${suppressions.toLocaleString('en')} suppressions` : '') +
    (shuffled ? ', e-mails in random order' : '');
  console.log(
    `\nImport benchmark on ${target}, ${rows.toLocaleString('en')} rows${stored}, ${os.cpus().length} cores`,
  );
  console.log(
    `  psql \\copy into a bare table: ${copySeconds.toFixed(2)} s (${Math.round(rows / copySeconds).toLocaleString('en')} rows/s)`,
  );
  for (const [name, seconds, counters, cpuSeconds] of phases) {
    console.log(
      `  ${name.padEnd(22)} ${seconds.toFixed(2).padStart(7)} s  ${Math.round(rows / seconds)
        .toLocaleString('en')
        .padStart(9)} rows/s  ` +
        `ratio to \\copy ${(seconds / copySeconds).toFixed(2)}  ` +
        (cpuSeconds === null ? '' : `CPU ${cpuSeconds.toFixed(2)} s (server + PostgreSQL)  `) +
        JSON.stringify(counters),
    );
  }
  if (download) {
    const { seconds, bytes, lines, rssBefore, rssPeak } = download;
    console.log(
      `  CSV download           ${seconds.toFixed(2).padStart(7)} s  ${Math.round((lines - 1) / seconds)
        .toLocaleString('en')
        .padStart(9)} rows/s  ${(bytes / 1e6).toFixed(0)} MB, ${(lines - 1).toLocaleString('en')} rows; ` +
        `server memory (VmRSS) ${(rssBefore / 1024).toFixed(0)} MB before, at most ${(rssPeak / 1024).toFixed(0)} MB while streaming`,
    );
  }
  console.log(`  server peak memory (VmHWM): ${(peakKb / 1024).toFixed(0)} MB`);
  if (floor) {
    // The first import's records and addresses stored again, by PostgreSQL alone.
    const ratio = (s: number, copy: number) => `${s.toFixed(2)} s (${(s / copy).toFixed(2)}× \\copy)`;
    console.log('  PostgreSQL alone storing what the first import wrote (bench/write-floor.ts):');
    for (const r of measureWriteFloor(databaseUrl, datasetId, COPY_OPTIONS, file, work)) {
      console.log(
        `    \\copy ${r.copy.toFixed(2)} s; records ${ratio(r.records, r.copy)}; addresses ${ratio(r.addresses, r.copy)}; ` +
          `together ${ratio(r.records + r.addresses, r.copy)}, on two cores at best ${ratio((r.records + r.addresses) / 2, r.copy)}`,
      );
    }
  }
} finally {
  await server.stop();
  await bench.drop();
}
