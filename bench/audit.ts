// Benchmark of what the audit log adds to an import and to a partner API batch, in one run on one
// database. The app's server (a child process, as bench/import.ts starts it) on a fresh database
// holding E audit entries already (default 1,000,000: the table as a busy year leaves it):
// 1. the first import of a generated partner file of N rows (bench/generate-partner-csv.ts) through
//    the HTTP endpoint into a mapped dataset, upload to task done (it writes one audit entry);
// 2. B partner API batches of 1,000 records (a third of each updates records sent before) upserted
//    one after the other by one client through HTTP into a dataset with a key and a mapping, the
//    dataset's first batch (which makes its records table) not counted (each writes one entry);
// 3. the audit write on its own: recordAudit (the function both paths call) with an import's and a
//    partner API call's entry, each in a transaction of its own on a pooled connection as the
//    server's, timed from the call to its return; C calls of each shape, in turns between the
//    batches of step 2, so they meet the same machine.
// Then the share: the median audit write over the import's time and over the median batch. It
// checks that the import and every batch left their entry (exits 1 otherwise); prints figures and
// never fails on slowness.
//
//   DATABASE_URL=postgres://... npx tsx bench/audit.ts [rows=1000000] [batches=30] [calls=1000]
//   npx tsx bench/audit.ts 200000                      embedded PostgreSQL, 200,000 rows
//   BENCH_AUDIT_ENTRIES=0 ...                          start with an empty audit table
//   BENCH_KEEP_FILE=/tmp/partner.csv ...               keep the generated file there, or reuse it
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { columnMapping } from '../common/mappings';
import { PARTNER_API_BASE } from '../common/partner-api';
import { clientDb } from '../server/db/client';
import { type AuditInput, recordAudit } from '../server/features/audit/audit';
import { generatePartnerCsv } from './generate-partner-csv';
import { createBenchDatabase } from './support/database';
import { spawnBenchServer } from './support/server';

const rows = Number(process.argv[2] ?? 1_000_000);
const batches = Number(process.argv[3] ?? 30);
const calls = Number(process.argv[4] ?? 1000);
const entries = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const BATCH = 1000;

const bench = await createBenchDatabase('audit');
const keptFile = process.env.BENCH_KEEP_FILE;
const file = keptFile ?? path.join(bench.work, 'partner.csv');
const port = 19200 + Math.floor(Math.random() * 200);
const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(', ');
const loadBefore = load();

if (keptFile && fs.existsSync(keptFile)) console.log(`Reusing ${keptFile}`);
else {
  console.log(`Generating ${rows.toLocaleString('en')} rows ...`);
  await generatePartnerCsv(file, rows, 1, false);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v: number) => `${v.toFixed(2)} ms`;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const spread = (v: number[]) =>
  `median ${ms(median(v))}, mean ${ms(mean(v))} (p10 ${ms(percentile(v, 10))}, p90 ${ms(percentile(v, 90))}, ${v.length} calls)`;
const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(3)}%`;

const cities = ['Amsterdam', 'Rotterdam', 'Utrecht', 'Groningen', 'Zwolle', 'Eindhoven'];
/** A partner's record as bench/partner-api.ts sends it (mapped: voornaam, postcode, plaats, geslacht). */
function record(n: number, version: number) {
  return {
    email: `a${n}@example.nl`,
    voornaam: `Naam${n % 997}-${version}`,
    achternaam: `Achter${n % 1733}`,
    postcode: `${1000 + (n % 8999)}AB`,
    huisnummer: (n % 300) + 1,
    plaats: cities[n % cities.length],
    geslacht: n % 2 ? 'man' : 'vrouw',
    nieuwsbrief: n % 3 === 0,
  };
}

/** Batch `version` of 1,000 records after `sent` new ones: a third updates records sent before, with new values. */
function makeBatch(sent: number, version: number) {
  const old = Math.min(sent, Math.floor(BATCH / 3));
  const batch = Array.from({ length: old }, () => record(Math.floor(Math.random() * sent), version));
  for (let n = sent; batch.length < BATCH; n++) batch.push(record(n, version));
  return { batch, fresh: BATCH - old };
}

const server = spawnBenchServer(bench, { port, env: { PARTNER_API_RATE_MAX: '100000000' } });
const pool = new pg.Pool({ connectionString: bench.url, max: 2 });
let failed = false;
try {
  await server.ready();
  const { client } = server;
  if (entries > 0) {
    const t0 = performance.now();
    await pool.query(
      `INSERT INTO audit_log (at, username, ip, kind, subject, rows, details)
       SELECT now() - make_interval(secs => g * 30), CASE WHEN g % 3 = 0 THEN NULL ELSE 'user' || g % 20 END,
              '10.0.' || g % 250 || '.' || g % 200, (ARRAY['login', 'import', 'download', 'partner-api-write'])[1 + g % 4],
              'ds' || g % 500, g % 1000, jsonb_build_object('operation', 'upsert', 'received', 1000, 'saved', g % 1000)
       FROM generate_series(1, $1::int) g`,
      [entries],
    );
    await pool.query('VACUUM ANALYZE audit_log');
    console.log(
      `  ${entries.toLocaleString('en')} audit entries stored first (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }

  // 1. The import.
  const { partnerId, datasetId, datasetName } = await client.makeMappedDataset();
  const t0 = performance.now();
  const result = await client.importFile(partnerId, datasetName, file);
  const importMs = performance.now() - t0;

  // 2 and 3. The batches, and the audit writes in turns between them.
  const apiPartner = `bench_audit_${Date.now()}`;
  await client.call('POST', '/crud-partner', { id: apiPartner, name: 'Benchmark audit' });
  const made = await client.call<{ _id: string }>('POST', `/datasets/${apiPartner}`, { name: 'api' });
  const { key } = await client.call<{ key: string }>('GET', `/datasets/${apiPartner}/${made._id}`);
  await client.call('PUT', `/datasets/${apiPartner}/${made._id}/mappings`, [
    columnMapping('voornaam', 'firstName'),
    columnMapping('postcode', 'postcode', { strip: true }),
    columnMapping('plaats', 'city'),
    columnMapping('geslacht', 'gender', {
      values: [
        { original: 'man', mapped: 'M', insensitive: true },
        { original: 'vrouw', mapped: 'F', insensitive: true },
      ],
    }),
  ]);
  const upsert = async (batch: unknown[]) => {
    const start = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${PARTNER_API_BASE}/partnerlist/upsert`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`batch: ${res.status} ${text.slice(0, 200)}`);
    return performance.now() - start;
  };
  // The entries as the import task and a partner API call write them (import-task.ts, partner-api.service.ts).
  const importEntry: AuditInput = {
    kind: 'import',
    username: 'bench',
    ip: null,
    subject: datasetId,
    rows,
    details: {
      partnerId,
      dataset: datasetId,
      file: 'partner.csv',
      read: rows,
      saved: rows,
      skipped: 0,
      deleted: 0,
      unchanged: 0,
    },
  };
  const apiEntry: AuditInput = {
    kind: 'partner-api-write',
    username: null,
    ip: null,
    subject: made._id,
    rows: BATCH,
    details: { operation: 'upsert', received: BATCH, saved: BATCH, skipped: 0 },
  };
  const auditMs = { import: [] as number[], api: [] as number[] };
  const conn = await pool.connect();
  const auditWrites = async (count: number) => {
    for (let i = 0; i < count; i++) {
      for (const [shape, entry] of [
        ['import', importEntry],
        ['api', apiEntry],
      ] as const) {
        await conn.query('BEGIN');
        const start = performance.now();
        await recordAudit(clientDb(conn), entry);
        auditMs[shape].push(performance.now() - start);
        await conn.query('COMMIT');
      }
    }
  };
  const first = makeBatch(0, 0);
  await upsert(first.batch); // the dataset's first write: makes its records table
  let sent = first.fresh;
  const batchMs: number[] = [];
  for (let b = 1; b <= batches; b++) {
    const { batch, fresh } = makeBatch(sent, b);
    sent += fresh;
    batchMs.push(await upsert(batch));
    await auditWrites(Math.ceil((calls * b) / batches) - auditMs.import.length);
  }
  conn.release();

  // The check: the import's entry and one per batch (the first included) beside the ones written here.
  const { rows: found } = await pool.query<{ imports: number; writes: number }>(
    `SELECT count(*) FILTER (WHERE kind = 'import' AND username = 'bench')::int AS imports,
            count(*) FILTER (WHERE kind = 'partner-api-write' AND username IS NULL)::int AS writes
     FROM audit_log WHERE subject = ANY($1)`,
    [[datasetId, made._id]],
  );
  const importEntries = found[0].imports - auditMs.import.length;
  const apiEntries = found[0].writes - auditMs.api.length;
  failed = importEntries !== 1 || apiEntries !== batches + 1;

  const auditImport = median(auditMs.import);
  const auditApi = median(auditMs.api);
  const batchMedian = median(batchMs);
  console.log(
    `\nAudit log benchmark on ${bench.target}, ${os.cpus().length} cores; load average ${loadBefore} before, ${load()} after`,
  );
  console.log(
    `  first import of ${rows.toLocaleString('en')} rows: ${(importMs / 1000).toFixed(2)} s ${JSON.stringify(result)}`,
  );
  console.log(`  partner API batch of ${BATCH.toLocaleString('en')} records, one client: ${spread(batchMs)}`);
  console.log(`  audit write, an import's entry: ${spread(auditMs.import)}`);
  console.log(`  audit write, a partner API call's entry: ${spread(auditMs.api)}`);
  console.log(
    `  share: ${share(auditImport, importMs)} of the import (one entry), ${share(auditApi, batchMedian)} of the median batch (one entry); ` +
      `by the means ${share(mean(auditMs.import), importMs)} and ${share(mean(auditMs.api), mean(batchMs))}`,
  );
  console.log(
    `  check: ${importEntries} import entry, ${apiEntries} partner API entries for ${batches + 1} batches${failed ? ' WRONG' : ', as expected'}`,
  );
} finally {
  await pool.end();
  await server.stop();
  await bench.drop();
}
if (failed) process.exitCode = 1;
