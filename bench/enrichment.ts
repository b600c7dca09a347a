// Benchmark of enrichment files (issue 20): with A addresses stored, uploads an enrichment file of
// R rows (matched by e-mail, two Verrijk columns) through POST /api/enrichment/files and waits for
// its task, against a bare `psql \copy` of the same file in the same run (goal: within 4×). Then a
// second file over the same addresses (the latest wins) and the delete of the first (what it added
// is removed, the second file's values stay). Prints figures; never fails on slowness.
//
//   npx tsx bench/enrichment.ts [rows=1000000] [addresses=5000000]     embedded PostgreSQL
//   DATABASE_URL=postgres://... npx tsx bench/enrichment.ts              a PostgreSQL server (a fresh database is made)
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

const server = spawnBenchServer(bench, { port });
const { client } = server;
const db = new pg.Client({ connectionString: databaseUrl });
try {
  await server.ready();
  await db.connect();
  console.log(`Storing ${addressCount.toLocaleString('en')} addresses ...`);
  const fillStart = performance.now();
  await db.query(`INSERT INTO addresses (email, domain)
    SELECT 'klant.' || g || '@domein' || (g % 5000) || '.nl', 'domein' || (g % 5000) || '.nl'
    FROM generate_series(1, ${addressCount}) g`);
  await db.query('VACUUM ANALYZE addresses');
  console.log(`  ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);

  console.log(`Generating two files of ${rows.toLocaleString('en')} rows ...`);
  const first = path.join(work, 'verrijking-1.csv');
  const second = path.join(work, 'verrijking-2.csv');
  const bytes = await writeFile(first, (i) => ['goud', 'zilver', 'brons'][i % 3]);
  await writeFile(second, (i) => (i % 2 === 0 ? 'platina' : ['goud', 'zilver', 'brons'][i % 3]));

  // The bare reference: psql \copy of the same file into a table without indexes.
  await db.query('CREATE TABLE bare (email text, niveau text, regio text)');
  const copySeconds = psqlSeconds(
    databaseUrl,
    `\\copy bare FROM '${first}' WITH (FORMAT csv, HEADER true, DELIMITER ';')`,
  );

  const timed = async <T>(work: () => Promise<T>) => {
    const t0 = performance.now();
    const result = await work();
    return { seconds: (performance.now() - t0) / 1000, result };
  };
  const up1 = await timed(() => client.upload('/enrichment/files', first, { name: 'Eerste', mappings }));
  const up2 = await timed(() => client.upload('/enrichment/files', second, { name: 'Tweede', mappings }));
  const del = await timed(() => client.call('DELETE', `/enrichment/files/${encodeURIComponent('Eerste')}`));
  const check = await db.query<{ platina: number; enriched: number }>(`SELECT
    count(*) FILTER (WHERE attrs->>'niveau' = 'platina')::int AS platina,
    count(*)::int AS enriched FROM address_enrichment`);
  const steps = await db.query<{ staging: number; task: number }>(`
    SELECT extract(epoch FROM started_at - created_at)::float AS staging,
           extract(epoch FROM finished_at - started_at)::float AS task
    FROM tasks WHERE type = 'enrichment' ORDER BY created_at`);

  console.log(`\nEnrichment benchmark on ${target}, ${os.cpus().length} cores`);
  console.log(
    `  ${addressCount.toLocaleString('en')} addresses; file: ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB`,
  );
  console.log(`  psql \\copy into a bare table:      ${copySeconds.toFixed(2).padStart(6)} s`);
  for (const [name, run] of [
    ['first enrichment file', up1],
    ['second file (over the first)', up2],
  ] as const) {
    console.log(
      `  ${name.padEnd(33)} ${run.seconds.toFixed(2).padStart(6)} s  ratio to \\copy ${(run.seconds / copySeconds).toFixed(2)}  ${JSON.stringify(run.result)}`,
    );
  }
  for (const [i, r] of steps.rows.entries())
    console.log(
      `    file ${i + 1}: upload and staging ${r.staging.toFixed(2)} s, task ${r.task.toFixed(2)} s`,
    );
  console.log(
    `  delete of the first file:         ${del.seconds.toFixed(2).padStart(6)} s  ratio to \\copy ${(del.seconds / copySeconds).toFixed(2)}`,
  );
  console.log(
    `  afterwards: ${check.rows[0].enriched.toLocaleString('en')} addresses enriched, ${check.rows[0].platina.toLocaleString('en')} 'platina' (the second file's)`,
  );
} finally {
  await db.end().catch(() => {});
  await server.stop();
  await bench.drop();
}
