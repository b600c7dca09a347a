// Benchmark of the blacklists and the DNS check: imports N e-mail addresses into the
// e-mail blacklist through the HTTP endpoint (first, then again: all unchanged) against a bare
// `psql \copy` of the same file in the same run, and runs the DNS check over D distinct domains,
// then 10× D, against a DNS server on loopback (server/test/dns-server.ts), sampling the server's
// memory. Prints figures; never fails on slowness.
//
//   npx tsx bench/blacklist.ts [emails=1000000] [domains=5000]     embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/blacklist.ts           a PostgreSQL server (a fresh database is made)
//   BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/blacklist.ts      leave the database (printed) on the server
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startTestDnsServer } from '../server/test/dns-server';
import { createBenchDatabase, psqlSeconds } from './support/database';
import { spawnBenchServer } from './support/server';

const emails = Number(process.argv[2] ?? 1_000_000);
const smallDomains = Number(process.argv[3] ?? 5_000);
const bench = await createBenchDatabase('blacklist');
const { target, work, url: databaseUrl } = bench;
const file = path.join(work, 'blacklist.csv');
const port = 18900 + Math.floor(Math.random() * 100);

// A blacklist as partners send one: e-mail and a name, ';'-separated, some addresses in capitals
// or with spaces around them, 1 in 200 not an address.
console.log(`Generating ${emails.toLocaleString('en')} e-mail addresses ...`);
{
  const out = fs.createWriteStream(file);
  let block = 'naam;email\n';
  for (let i = 0; i < emails; i++) {
    const email =
      i % 200 === 7
        ? `geen-adres-${i}`
        : i % 10 === 3
          ? ` Klant.${i}@Domein${i % 5000}.NL `
          : `klant.${i}@domein${i % 5000}.nl`;
    block += `Klant ${i};${email}\n`;
    if (block.length > 1 << 20) {
      if (!out.write(block)) await new Promise((r) => out.once('drain', r));
      block = '';
    }
  }
  out.end(block);
  await new Promise((r) => out.once('finish', r));
}
const bytes = fs.statSync(file).size;

// The bare reference: psql \copy of the same file into a table without indexes.
const bare = new pg.Client({ connectionString: databaseUrl });
await bare.connect();
await bare.query('CREATE TABLE bare (naam text, email text)');
await bare.end();
const copySeconds = psqlSeconds(
  databaseUrl,
  `\\copy bare FROM '${file}' WITH (FORMAT csv, HEADER true, DELIMITER ';')`,
);
// What storing the addresses with a unique index costs PostgreSQL alone: \copy of the same file
// into a table whose e-mail is its primary key (the blacklist's shape, values as in the file).
const keyed = new pg.Client({ connectionString: databaseUrl });
await keyed.connect();
await keyed.query('CREATE TABLE bare_keyed (naam text, email text COLLATE "C" PRIMARY KEY)');
await keyed.end();
const keyedSeconds = psqlSeconds(
  databaseUrl,
  `\\copy bare_keyed FROM '${file}' WITH (FORMAT csv, HEADER true, DELIMITER ';')`,
);

const dns = await startTestDnsServer();
const server = spawnBenchServer(bench, { port, env: { DNS_SERVER: dns.address, DNS_TIMEOUT_MS: '1000' } });
const { client } = server;
const serverStatusKb = server.statusKb;
/** Runs `work` while sampling the server's VmRSS every 50 ms; returns seconds, result, RSS before and at most. */
async function measured<T>(work: () => Promise<T>) {
  const rssBefore = serverStatusKb('VmRSS');
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, serverStatusKb('VmRSS'));
  }, 50);
  const t0 = performance.now();
  try {
    const result = await work();
    return { seconds: (performance.now() - t0) / 1000, result, rssBefore, rssPeak };
  } finally {
    clearInterval(sampler);
  }
}
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

try {
  await server.ready();
  const first = await measured(() => client.upload('/blacklist/emailimport', file));
  const again = await measured(() => client.upload('/blacklist/emailimport', file));
  const importPeakKb = serverStatusKb('VmHWM');

  // Distinct domains of stored addresses, answered by the loopback server: a quarter each with an
  // MX, only an A record (implicit MX), nothing (NODATA), and not existing (NXDOMAIN).
  const fill = new pg.Client({ connectionString: databaseUrl });
  await fill.connect();
  const addDomains = (from: number, to: number) =>
    fill.query(`INSERT INTO addresses (email, domain)
      SELECT 'info@' || d, d FROM (
        SELECT (ARRAY['mx-', 'a-', 'nodata-', 'x'])[g % 4 + 1] || g || '.bench' AS d
        FROM generate_series(${from}, ${to}) g) s`);
  const checks: {
    domains: number;
    seconds: number;
    result: Record<string, number>;
    rssBefore: number;
    rssPeak: number;
  }[] = [];
  await addDomains(1, smallDomains);
  checks.push({ domains: smallDomains, ...(await measured(() => client.dnsCheck())) });
  await addDomains(smallDomains + 1, smallDomains * 10);
  checks.push({ domains: smallDomains * 10, ...(await measured(() => client.dnsCheck())) });

  console.log(`\nBlacklist benchmark on ${target}, ${os.cpus().length} cores`);
  console.log(`  file: ${emails.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB`);
  console.log(
    `  psql \\copy into a bare table:   ${copySeconds.toFixed(2).padStart(6)} s (${Math.round(emails / copySeconds).toLocaleString('en')} rows/s)`,
  );
  console.log(
    `  psql \\copy into a keyed table:  ${keyedSeconds.toFixed(2).padStart(6)} s (${(keyedSeconds / copySeconds).toFixed(2)}× the bare \\copy)`,
  );
  for (const [name, run] of [
    ['e-mail blacklist import', first],
    ['re-import (all unchanged)', again],
  ] as const) {
    console.log(
      `  ${name.padEnd(30)} ${run.seconds.toFixed(2).padStart(6)} s  ratio to \\copy ${(run.seconds / copySeconds).toFixed(2)}  ` +
        `${JSON.stringify(run.result)}; server memory ${mb(run.rssBefore)} before, at most ${mb(run.rssPeak)}`,
    );
  }
  console.log(`  server peak memory after the imports (VmHWM): ${mb(importPeakKb)}`);
  // Where an import's time goes: receiving and staging the file (until a worker takes the task),
  // then the task (normalising and adding).
  const steps = await fill.query<{ staging: number; task: number }>(`
    SELECT extract(epoch FROM started_at - created_at)::float AS staging,
           extract(epoch FROM finished_at - started_at)::float AS task
    FROM tasks WHERE type = 'blacklist-email' ORDER BY created_at`);
  for (const [i, r] of steps.rows.entries())
    console.log(
      `    import ${i + 1}: upload and staging ${r.staging.toFixed(2)} s, task ${r.task.toFixed(2)} s`,
    );
  for (const c of checks) {
    console.log(
      `  DNS check of ${c.domains.toLocaleString('en').padStart(6)} domains: ${c.seconds.toFixed(2).padStart(6)} s ` +
        `(${Math.round(c.domains / c.seconds).toLocaleString('en')} domains/s) ${JSON.stringify(c.result)}; ` +
        `server memory ${mb(c.rssBefore)} before, at most ${mb(c.rssPeak)} (+${mb(c.rssPeak - c.rssBefore)})`,
    );
  }
  console.log(`  DNS queries answered by the loopback server: ${dns.queries().toLocaleString('en')}`);
  console.log(`  server peak memory (VmHWM): ${mb(serverStatusKb('VmHWM'))}`);
  await fill.end();
} finally {
  await server.stop();
  await dns.close();
  await bench.drop();
}
