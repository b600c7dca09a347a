// Benchmark of mailings: imports a partner file of N rows into a mapped dataset, puts its
// addresses into mailings as the selection engine would, and times through the HTTP API: the
// mailing CSV with 10 export columns, a results import of N events against a bare `psql \copy` of
// the same file, a state change to Aangeboden and back, the pressure check and delete of N/2
// addresses (with their N/2 results), and limit removing N/2. Prints figures; never fails on slowness.
//
//   npx tsx bench/mailings.ts [rows=1000000]              embedded PostgreSQL 18
//   DATABASE_URL=postgres://... npx tsx bench/mailings.ts  a PostgreSQL server (a fresh database is made)
//   BENCH_KEEP_DB=1 DATABASE_URL=... npx tsx bench/mailings.ts   leave the database (printed) on the server
//   BENCH_FLOOR=1        also what PostgreSQL alone takes for the results' writes (insert, address update)
//   BENCH_BIG_ROWS=10000000   also a mailing CSV of that many addresses, the server's memory sampled
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { ExportColumn } from '../common/export-columns';
import { mailingSelect } from '../server/features/mailings/mailing-csv';
import { generatePartnerCsv } from './generate-partner-csv';
import { createBenchDatabase } from './support/database';
import { spawnBenchServer } from './support/server';

const rows = Number(process.argv[2] ?? 1_000_000);
const bench = await createBenchDatabase('mailings');
const { target, work, url: databaseUrl } = bench;
const port = 18900 + Math.floor(Math.random() * 90);

const partnerFile = path.join(work, 'partner.csv');
console.log(`Generating ${rows.toLocaleString('en')} rows ...`);
await generatePartnerCsv(partnerFile, rows, 1, false);

const server = spawnBenchServer(bench, { port });
const { client } = server;
const db = new pg.Client({ connectionString: databaseUrl });
const figures: string[] = [];
const time = async <T>(name: string, work: () => Promise<T>, per?: number): Promise<T> => {
  const t0 = performance.now();
  const result = await work();
  const s = (performance.now() - t0) / 1000;
  const rate = per ? `  ${Math.round(per / s).toLocaleString('en')} rows/s` : '';
  figures.push(`  ${name.padEnd(44)} ${s.toFixed(2).padStart(7)} s${rate}  ${JSON.stringify(result) ?? ''}`);
  return result;
};

try {
  await server.ready();
  await db.connect();
  const { partnerId, datasetName, datasetId } = await client.makeMappedDataset();
  console.log('Importing the partner file ...');
  await client.importFile(partnerId, datasetName, partnerFile);
  // The statistics autovacuum gathers within a minute of an import (the import does not).
  await db.query('ANALYZE addresses, records');
  const columns: [string, string][] = [
    ['firstName', 'string'],
    ['preposition', 'string'],
    ['lastName', 'string'],
    ['gender', 'string'],
    ['birthDate', 'date'],
    ['postcode', 'string'],
    ['pc4', 'number'],
    ['city', 'string'],
    ['optinDate', 'date'],
    ['domain', 'string'],
  ];
  for (const [column, type] of columns) await client.call('POST', '/export/columns', { column, type });
  const campaign = (await client.call<{ _id: string }>('POST', '/campaigns', { name: 'Bench' }))._id;
  const mailing = async (name: string, plannedSend: string) =>
    (await client.call<{ _id: string }>('POST', `/campaigns/${campaign}/mailings`, { name, plannedSend }))
      ._id;
  // Addresses into a mailing as the selection engine allocates them (one selection, set-based).
  const allocate = async (mailingId: string, where = 'true') => {
    const selection = crypto.randomBytes(12).toString('hex');
    await db.query(`INSERT INTO selections (id, mailing_id, campaign_id) VALUES ($1, $2, $3)`, [
      selection,
      mailingId,
      campaign,
    ]);
    await db.query(
      `INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
       SELECT $1, r.address_id, r.dataset_id, $2,
         (ARRAY['new', 'notOpenedOrClicked', 'opens', 'clicks'])[1 + r.address_id % 4]
       FROM records r WHERE r.dataset_id = $3 AND ${where}`,
      [mailingId, selection, datasetId],
    );
    await db.query(
      `UPDATE mailings SET record_count = (SELECT count(*) FROM mailing_addresses WHERE mailing_id = $1) WHERE id = $1`,
      [mailingId],
    );
  };
  const a = await mailing('A', '2031-03-12T09:00:00Z');
  await allocate(a);
  await db.query('VACUUM ANALYZE mailing_addresses');
  const base = (m: string) => `/campaigns/${campaign}/mailings/${m}`;

  // 1. The mailing CSV, read as it streams; the server's memory sampled while it streams. Then
  // PostgreSQL alone: the same COPY by psql into /dev/null.
  const exportColumns = columns.map(([column, type]) => ({ _id: column, type }) as ExportColumn);
  // Read by curl into wc (cheap C, as a browser on another machine would be): the figure is the
  // server's and PostgreSQL's, not a Node client's competing for the same two cores.
  const download = async (mailingId: string) => {
    const before = server.statusKb('VmRSS');
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, server.statusKb('VmRSS'));
    }, 50);
    try {
      const cookie = (client as unknown as { cookie: string }).cookie;
      const lines = await new Promise<number>((resolve, reject) =>
        execFile(
          'sh',
          ['-c', 'curl -sf -H "cookie: $COOKIE" "$URL" | wc -l'],
          {
            env: {
              ...process.env,
              COOKIE: cookie,
              URL: `http://127.0.0.1:${port}/api${base(mailingId)}/csv`,
            },
          },
          (err, out) => (err ? reject(err) : resolve(Number(out.trim()))),
        ),
      );
      return { rows: lines - 1, rssBeforeMb: Math.round(before / 1024), rssPeakMb: Math.round(peak / 1024) };
    } finally {
      clearInterval(sampler);
    }
  };
  const copyAlone = (mailingId: string) =>
    time('  PostgreSQL alone (psql COPY to /dev/null)', async () => {
      const select = mailingSelect(db, exportColumns, [datasetId], mailingId).replace(/\s+/g, ' ');
      execFileSync('psql', [
        databaseUrl,
        '-q',
        ...Object.entries({ work_mem: '256MB' }).flatMap(([k, v]) => ['-c', `SET ${k} = '${v}'`]),
        '-c',
        `\\copy (${select}) TO '/dev/null' WITH (FORMAT csv)`,
      ]);
    });
  await time('mailing CSV, 10 export columns', () => download(a), rows);
  await copyAlone(a);

  // 2. A results file of one event per address, against a bare \copy of the same file.
  const resultsFile = path.join(work, 'results.csv');
  const select = `SELECT a.email, (ARRAY['open','click','open','softBounce','open'])[1 + a.id % 5],
    to_char(timestamp '2031-03-12 10:00:00' + (a.id % 86400) * interval '1 second', 'YYYY-MM-DD HH24:MI:SS'),
    (ARRAY['iOS','Android','Windows',''])[1 + a.id % 4]
    FROM mailing_addresses ma JOIN addresses a ON a.id = ma.address_id WHERE ma.mailing_id = '${a}'`;
  execFileSync('psql', [
    databaseUrl,
    '-q',
    '-c',
    `\\copy (${select.replace(/\s+/g, ' ')}) TO '${resultsFile}' WITH (FORMAT csv, HEADER true)`,
  ]);
  fs.writeFileSync(
    resultsFile,
    fs.readFileSync(resultsFile, 'utf8').replace(/^[^\n]*/, 'email,event,date,os'),
  );
  await db.query('CREATE TABLE bare_results (email text, event text, date text, os text)');
  const copyStart = performance.now();
  execFileSync('psql', [
    databaseUrl,
    '-q',
    '-c',
    `\\copy bare_results FROM '${resultsFile}' WITH (FORMAT csv, HEADER true)`,
  ]);
  const copySeconds = (performance.now() - copyStart) / 1000;
  figures.push(`  ${'psql \\copy of the results file'.padEnd(44)} ${copySeconds.toFixed(2).padStart(7)} s`);
  // The phases of the latest results task: receiving and staging the file (created until claimed
  // by a worker), then applying it (claimed until finished).
  const phases = async () => {
    const { rows: t } = await db.query(
      `SELECT extract(epoch FROM started_at - created_at)::float AS staged,
         extract(epoch FROM finished_at - started_at)::float AS applied
       FROM tasks WHERE type = 'mailing-results' ORDER BY created_at DESC LIMIT 1`,
    );
    figures.push(
      `    upload and staging ${t[0].staged.toFixed(2)} s (${(t[0].staged / copySeconds).toFixed(2)}x \\copy), applying ${t[0].applied.toFixed(2)} s`,
    );
  };
  const r0 = performance.now();
  await time('results import', () => client.upload(`${base(a)}/results`, resultsFile), rows);
  figures.push(`    ratio to \\copy ${((performance.now() - r0) / 1000 / copySeconds).toFixed(2)}`);
  await phases();
  await time(
    'results import again (idempotent)',
    () => client.upload(`${base(a)}/results`, resultsFile),
    rows,
  );
  await phases();

  // BENCH_FLOOR=1: what PostgreSQL alone takes for the writes any results import must do, set
  // against the bare \copy: the mailing's stored results inserted again (already parsed and matched)
  // into an empty copy of mailing_results with its unique key, and one column of the mailing's
  // addresses updated (a new version of each row, as the engagement update writes). Rolled back;
  // before the pressure delete, which takes half of the mailing's addresses and their results.
  if (process.env.BENCH_FLOOR === '1') {
    const psqlSeconds = (...commands: string[]) => {
      const start = performance.now();
      execFileSync('psql', [
        databaseUrl,
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        ...commands.flatMap((c) => ['-c', c]),
      ]);
      return (performance.now() - start) / 1000;
    };
    psqlSeconds('CHECKPOINT');
    const insert = psqlSeconds(
      'BEGIN',
      'CREATE TABLE floor_results (LIKE mailing_results INCLUDING ALL)',
      `INSERT INTO floor_results SELECT * FROM mailing_results WHERE mailing_id = '${a}'`,
      'ROLLBACK',
    );
    psqlSeconds('CHECKPOINT');
    const update = psqlSeconds(
      'BEGIN',
      `UPDATE addresses x SET last_open_at = x.last_open_at + interval '1 second'
       FROM mailing_addresses ma WHERE ma.mailing_id = '${a}' AND x.id = ma.address_id`,
      'ROLLBACK',
    );
    figures.push(
      `  floor: insert of the results ${insert.toFixed(2)} s, update of the addresses ${update.toFixed(2)} s, with \\copy ${(copySeconds + insert + update).toFixed(2)} s (${((copySeconds + insert + update) / copySeconds).toFixed(2)}x \\copy)`,
    );
  }

  // 3. A state change of the whole mailing: Aangeboden and back.
  const state = async (to: string) =>
    ((await client.call('PUT', base(a), { name: 'A', state: to })) as { state: string }).state;
  await time('state change to Aangeboden', () => state('offered'));
  await time('state change back to Concept', () => state('draft'));

  // 4. Pressure: another Definitief mailing of the same week holds half of A's addresses; their
  // results in A (one each, A went Aangeboden and back) go with them.
  const b = await mailing('B', '2031-03-13T09:00:00Z');
  await client.call('PUT', base(b), { name: 'B', state: 'final' });
  await allocate(b, 'r.address_id % 2 = 0');
  await db.query('ANALYZE mailing_addresses');
  await time('pressure check', () => client.call('GET', `${base(a)}/pressure`));
  await time('pressure delete', () => client.call('DELETE', `${base(a)}/pressure`));

  // 5. Limit: a mailing of all addresses limited to half.
  const c = await mailing('C', '2031-04-12T09:00:00Z');
  await allocate(c);
  await db.query('ANALYZE mailing_addresses');
  await time('limit to half', () => client.call('POST', `${base(c)}/limit`, { limit: Math.floor(rows / 2) }));

  // 6. BENCH_BIG_ROWS=10000000: the dataset grows by copies of its addresses (new e-mails, the same
  // attributes) to that many records, all in one mailing, downloaded with the server's memory sampled.
  const big = Number(process.env.BENCH_BIG_ROWS ?? 0);
  if (big > rows) {
    console.log(`Growing the dataset to ${big.toLocaleString('en')} records ...`);
    const copies = Math.ceil(big / rows) - 1;
    await db.query("SET work_mem = '256MB'");
    await db.query(
      `WITH src AS (
         SELECT r.raw, r.attrs, a.email, a.domain FROM records r JOIN addresses a ON a.id = r.address_id
         WHERE r.dataset_id = $1
       ), added AS (
         INSERT INTO addresses (email, domain) SELECT 'bulk' || k || '~' || email, domain
         FROM src, generate_series(1, $2::int) k RETURNING id, email
       )
       INSERT INTO records (dataset_id, address_id, raw, attrs)
       SELECT $1, added.id, src.raw, src.attrs FROM added JOIN src ON src.email = split_part(added.email, '~', 2)`,
      [datasetId, copies],
    );
    const d = await mailing('D', '2031-05-12T09:00:00Z');
    await allocate(d);
    await db.query('VACUUM ANALYZE addresses, records, mailing_addresses');
    const { rows: n } = await db.query('SELECT record_count FROM mailings WHERE id = $1', [d]);
    await time(
      `mailing CSV of ${n[0].record_count.toLocaleString('en')} addresses`,
      () => download(d),
      n[0].record_count,
    );
    await copyAlone(d);
  }

  console.log(
    `\nMailings benchmark on ${target}, ${rows.toLocaleString('en')} addresses, ${os.cpus().length} cores`,
  );
  for (const f of figures) console.log(f);
} finally {
  await server.stop();
  await db.end().catch(() => {});
  await bench.drop();
}
