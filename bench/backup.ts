// Benchmark of `npm run cli -- backup` and `restore` (server/features/backup): a database with N
// addresses and N records in one dataset (default 1,000,000; each record ten attributes, one of
// them ciphertext-sized, and its raw file row), backed up into a file (createBackup, what the CLI
// calls) and restored into a fresh, empty database on the same server (restoreBackup). Prints the
// rows, the file's size and both times; checks the restored counts (exits 1 otherwise) and never
// fails on slowness. The selection engine's narrow tables (sel_record) stay empty here: on a
// database whose refresher ran, they add about as many rows again.
//
//   DATABASE_URL=postgres://... npx tsx bench/backup.ts [rows=1000000]
//   npx tsx bench/backup.ts 1000000                    embedded PostgreSQL 18
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { clientDb, migrateDatabase, openDatabase } from '../server/db/client';
import { createBackup } from '../server/features/backup/backup';
import { restoreBackup } from '../server/features/backup/restore';
import { attachPartition, createDetachedPartition } from '../server/features/records/records.queries';
import { createBenchDatabase, seconds } from './support/database';

const rows = Number(process.argv[2] ?? 1_000_000);

/** A progress callback that prints each table that took a second or more, with its time. */
function slowTables() {
  let last = performance.now();
  return ({ table, rows: n }: { table: string; rows: number }) => {
    const now = performance.now();
    if (now - last >= 1000) console.log(`    ${table}: ${n} rows, ${seconds(now - last)}`);
    last = now;
  };
}
const bench = await createBenchDatabase('backup');
const source = openDatabase(bench.url, 4);
const targetName = `${new URL(bench.url).pathname.slice(1)}_dst`;
const admin = new pg.Client({ connectionString: bench.url });
await admin.connect();
await admin.query(`CREATE DATABASE ${targetName}`);
const targetUrl = new URL(bench.url);
targetUrl.pathname = `/${targetName}`;
const target = openDatabase(targetUrl.toString(), 4);
let failed = false;

try {
  console.log(`Backup and restore of ${rows} records and addresses on ${bench.target}`);
  await migrateDatabase(source);
  const t0 = performance.now();
  const client = await source.pool.connect();
  try {
    await client.query(`INSERT INTO partners (id, name) VALUES ('p_bench', 'Bench')`);
    await client.query(
      `INSERT INTO datasets (id, partner_id, name, sort, types, active, config) VALUES ('ds_bench', 'p_bench', 'bench', 0, '{}', true, '{}')`,
    );
    await client.query(`
      INSERT INTO addresses (email, domain)
      SELECT 'persoon' || i || '@domein' || (i % 500) || '.nl', 'domein' || (i % 500) || '.nl'
      FROM generate_series(1, ${rows}) i`);
    await client.query('BEGIN');
    const table = await createDetachedPartition(client, 'ds_bench');
    await client.query(`
      INSERT INTO "${table}" (dataset_id, address_id, raw, attrs, row_hash, raw_hash)
      SELECT 'ds_bench', a.id,
        ARRAY[a.email, 'Voornaam' || a.id, 'Achternaam', (1000 + a.id % 9000) || 'AB', 'Amsterdam',
              'M', '1980-05-17', 'Straat ' || a.id, md5(a.id::text), '06' || (10000000 + a.id)],
        jsonb_build_object('voornaam', 'Voornaam' || a.id, 'achternaam', 'Achternaam',
          'postcode', (1000 + a.id % 9000) || 'AB', 'city', 'Amsterdam', 'gender', 'M',
          'birthDate', '1980-05-17', 'straat', 'Straat ' || a.id, 'telefoon', '06' || (10000000 + a.id),
          'bsn', 'enc:v1:' || encode(sha512(a.id::text::bytea), 'base64'),
          'bsn__bi', md5(a.email) || md5(a.id::text)),
        md5(a.email), md5(a.id::text)
      FROM addresses a`);
    await attachPartition(clientDb(client), 'ds_bench');
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE');
  } finally {
    client.release();
  }
  console.log(`  generated: ${seconds(performance.now() - t0)}`);

  const file = path.join(bench.work, 'bench.backup.gz');
  const t1 = performance.now();
  const { header, bytes } = await createBackup(source.pool, file, {
    keyFingerprint: null,
    onTable: slowTables(),
  });
  const backupMs = performance.now() - t1;
  const total = header.tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(`  backup: ${seconds(backupMs)} (${total} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB file)`);

  const t2 = performance.now();
  await restoreBackup(target.pool, file, { onTable: slowTables() });
  const restoreMs = performance.now() - t2;
  console.log(`  restore: ${seconds(restoreMs)} (${Math.round(total / (restoreMs / 1000))} rows/s)`);

  const { rows: counted } = await target.pool.query<{ records: number; addresses: number }>(
    'SELECT (SELECT count(*) FROM records)::int AS records, (SELECT count(*) FROM addresses)::int AS addresses',
  );
  if (counted[0].records !== rows || counted[0].addresses !== rows) {
    console.error(`  restored counts differ: ${JSON.stringify(counted[0])}`);
    failed = true;
  }
  fs.rmSync(file, { force: true });
} finally {
  await source.close();
  await target.close();
  await admin.query(`DROP DATABASE IF EXISTS ${targetName} WITH (FORCE)`).catch(() => {});
  await admin.end();
  await bench.drop();
}
process.exit(failed ? 1 : 0);
