// What enrichment and line files pay to leave out erased addresses (AVG art. 17) while any exists:
// every staged row's e-mail folded, hashed (the HMAC written out: two sha256 calls) and probed in
// avg_suppressions, against two ways that hash fewer rows. No live address is ever an erased one
// (the erasure pseudonymises it and every way in keeps it out), so a row whose e-mail is an
// address needs no hash:
//   hash all      the statement enrichment.queries.ts runs (deleteErasedRows), as a count;
//   probe first   per row, the addresses' unique index first, the hash only when it finds none;
//   anti-join     the rows without an address by one hash anti-join, then the hash of those.
// The figure is the backend's CPU time from /proc (PostgreSQL must run on this machine), the three
// alternated; parallel query off so that no worker's CPU goes uncounted. A share of the file's
// e-mails (`known`) are addresses; the suppressions are e-mails of the rest.
//
//   DATABASE_URL=postgres://... npx tsx bench/erased-rows.ts [rows=1000000] [addresses=2000000] [known=0.9]
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { suppressedSql, suppressionHash } from '../server/features/avg/suppression';
import { caseCollation } from '../server/features/selections/compile-context';
import { backendCpuClock } from './support/cpu';
import { createBenchDatabase } from './support/database';

const rows = Number(process.argv[2] ?? 1_000_000);
const addresses = Number(process.argv[3] ?? 2_000_000);
const known = Number(process.argv[4] ?? 0.9);
const suppressions = 1_000;
const rounds = 5;
const keys = { encryptionKey: crypto.randomBytes(32), indexKey: crypto.randomBytes(32) };
const email = (i: number) => `persoon${i}@voorbeeld${i % 50}.nl`;

const bench = await createBenchDatabase('erased_rows');
const client = new pg.Client({ connectionString: bench.url });
await client.connect();
try {
  const db = drizzle(client);
  const cpu = await backendCpuClock(client);
  // Addresses 1..addresses; the file: `known` of its rows addresses, the rest beyond them.
  await client.query(`CREATE TABLE addresses (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE)`);
  await client.query(`INSERT INTO addresses (email)
    SELECT 'persoon' || g || '@voorbeeld' || (g % 50) || '.nl' FROM generate_series(1, ${addresses}) g`);
  const knownRows = Math.round(rows * known);
  await client.query(`CREATE UNLOGGED TABLE stg AS
    SELECT ' Persoon' || n || '@Voorbeeld' || (n % 50) || '.nl' AS c1 FROM (
      SELECT CASE WHEN g <= ${knownRows} THEN g * ${Math.max(1, Math.floor(addresses / rows))}
        ELSE ${addresses} + g END AS n FROM generate_series(1, ${rows}) g) x`);
  await client.query('CREATE TABLE avg_suppressions (hash bytea PRIMARY KEY)');
  const unknown = rows - knownRows;
  const step = Math.max(1, Math.floor(unknown / suppressions));
  const hashes = Array.from({ length: Math.min(suppressions, unknown) }, (_, i) =>
    suppressionHash(keys, email(addresses + knownRows + 1 + i * step)),
  );
  await client.query('INSERT INTO avg_suppressions (hash) SELECT unnest($1::bytea[])', [hashes]);
  await client.query('VACUUM ANALYZE addresses');
  await client.query('ANALYZE stg');
  await client.query('ANALYZE avg_suppressions');
  const collation = await caseCollation(db);
  const folded = sql`nullif(lower(btrim(g.c1) COLLATE ${sql.identifier(collation)}), '')`;
  const asStored = sql`(${folded})::text COLLATE "C"`;
  const ways: [string, ReturnType<typeof sql>][] = [
    [
      'hash all',
      sql`SELECT count(*) AS n FROM stg g WHERE g.c1 IS NOT NULL AND ${suppressedSql(keys, folded)}`,
    ],
    [
      'probe first',
      sql`SELECT count(*) AS n FROM stg g WHERE g.c1 IS NOT NULL AND CASE
        WHEN EXISTS (SELECT 1 FROM addresses a WHERE a.email = ${asStored}) THEN false
        ELSE ${suppressedSql(keys, folded)} END`,
    ],
    [
      'anti-join',
      sql`SELECT count(*) AS n FROM (SELECT ${folded} AS e FROM stg g WHERE g.c1 IS NOT NULL) x
        WHERE NOT EXISTS (SELECT 1 FROM addresses a WHERE a.email = x.e::text COLLATE "C")
          AND ${suppressedSql(keys, sql`x.e`)}`,
    ],
  ];
  const spent = new Map<string, number[]>(ways.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++)
    for (const [name, statement] of ways) {
      const t = cpu();
      const { rows: found } = await db.execute<{ n: string }>(statement);
      spent.get(name)?.push(cpu() - t);
      if (Number(found[0].n) !== hashes.length) throw new Error(`${name}: ${found[0].n} of ${hashes.length}`);
    }
  const median = (x: number[]) => [...x].sort((a, b) => a - b)[Math.floor(x.length / 2)];
  const range = (x: number[]) => `${Math.min(...x).toFixed(2)}-${Math.max(...x).toFixed(2)}`;
  console.log(
    `${bench.target}: ${rows.toLocaleString('en')} staged rows, ${(known * 100).toFixed(0)}% of them among ` +
      `${addresses.toLocaleString('en')} addresses, ${hashes.length} suppressions, ${rounds} rounds, collation ${collation}`,
  );
  for (const [name, x] of spent)
    console.log(`  ${name.padEnd(12)} CPU median ${median(x).toFixed(2)} s (${range(x)})`);
} finally {
  await client.end();
  await bench.drop();
}
