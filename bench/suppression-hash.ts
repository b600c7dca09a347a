// What an import pays for erased addresses (AVG art. 17) while any exists: the statement that hashes
// the e-mails of a file's new addresses and joins them with avg_suppressions, against the statement
// every first import already runs to find its first rows (the same staged e-mails grouped). Both
// run alternately on one connection; the figure is that backend's CPU time from /proc (PostgreSQL
// must run on this machine), which a busy machine inflates far less than wall time. Parallel query
// is off so that no worker's CPU goes uncounted.
//
//   DATABASE_URL=postgres://... npx tsx bench/suppression-hash.ts [new addresses=200000] [suppressions=1000]
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { suppressedSql, suppressionHash } from '../server/features/avg/suppression';
import { backendCpuClock } from './support/cpu';
import { createBenchDatabase } from './support/database';

const rows = Number(process.argv[2] ?? 200_000);
const suppressions = Number(process.argv[3] ?? 1_000);
const pairs = 7;
const keys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };
const email = (i: number) => `persoon${i}@voorbeeld${i % 50}.nl`;

const bench = await createBenchDatabase('suppression_hash');
const client = new pg.Client({ connectionString: bench.url });
await client.connect();
try {
  const db = drizzle(client);
  const cpu = await backendCpuClock(client);
  await client.query(`CREATE UNLOGGED TABLE stg AS
    SELECT g AS ln, ' Persoon' || g || '@voorbeeld' || (g % 50) || '.nl' AS c1 FROM generate_series(1, ${rows}) g`);
  await client.query('CREATE TABLE IF NOT EXISTS avg_suppressions (hash bytea PRIMARY KEY)');
  // Every suppression an e-mail of the file, evenly spread.
  const step = Math.max(1, Math.floor(rows / suppressions));
  const hashes = Array.from({ length: suppressions }, (_, i) => suppressionHash(keys, email(1 + i * step)));
  await client.query('INSERT INTO avg_suppressions (hash) SELECT unnest($1::bytea[])', [hashes]);
  await client.query('ANALYZE avg_suppressions');
  const firsts = `CREATE UNLOGGED TABLE firsts AS SELECT min(s.ln) AS ln, lower(btrim(s.c1) COLLATE "C") AS email, true AS new
    FROM stg s GROUP BY 2`;
  const erased = sql`CREATE UNLOGGED TABLE erased AS
    SELECT f.email FROM firsts f WHERE f.new AND ${suppressedSql(keys, sql`f.email`)}`;
  const grouping: number[] = [];
  const hashing: number[] = [];
  for (let i = 0; i < pairs; i++) {
    await client.query('DROP TABLE IF EXISTS firsts, erased');
    let t = cpu();
    await client.query(firsts);
    grouping.push(cpu() - t);
    t = cpu();
    const found = await db.execute(erased);
    hashing.push(cpu() - t);
    if (found.rowCount !== suppressions) throw new Error(`found ${found.rowCount} of ${suppressions}`);
  }
  const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
  const range = (x: number[]) => `${Math.min(...x).toFixed(2)}-${Math.max(...x).toFixed(2)}`;
  const ratios = hashing.map((h, i) => h / grouping[i]);
  console.log(
    `${rows.toLocaleString('en')} new addresses, ${suppressions.toLocaleString('en')} suppressions, ${pairs} pairs`,
  );
  console.log(`  first rows (grouping): CPU median ${median(grouping).toFixed(2)} s (${range(grouping)})`);
  console.log(
    `  suppression hash join: CPU median ${median(hashing).toFixed(2)} s (${range(hashing)}), ` +
      `${((median(hashing) / rows) * 1e6).toFixed(1)} µs an address`,
  );
  console.log(`  hash / grouping pair by pair: median ${median(ratios).toFixed(2)} (${range(ratios)})`);
} finally {
  await client.end();
  await bench.drop();
}
