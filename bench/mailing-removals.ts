// Benchmark of taking addresses out of a draft with their results (deleteWithResults): a mailing
// of N addresses, half of them removed as a pressure delete removes them, timed as the DELETE of
// the addresses alone, with their results when the mailing has one per address (as after going
// back from Aangeboden), the same with nested loops off (a hash join over the mailing's range of
// results), and with results when it has none (a draft). Another mailing holds a result for every
// address, so the mailing's own are not the whole table. Five runs each, each rolled back; prints
// the median and the fastest. Never fails on slowness.
//
//   npx tsx bench/mailing-removals.ts [addresses=100000]             embedded PostgreSQL 18
//   DATABASE_URL=postgres://... npx tsx bench/mailing-removals.ts    a PostgreSQL server (a fresh database is made)
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, migrateDatabase, openDatabase } from '../server/db/client';
import { deleteWithResults } from '../server/features/mailings/mailing.queries';
import { createBenchDatabase } from './support/database';

const addresses = Number(process.argv[2] ?? 100_000);
const bench = await createBenchDatabase('removals');
const database = openDatabase(bench.url, 2);
const half = sql`ma.address_id % 2 = 0`;
const removal = sql`DELETE FROM mailing_addresses ma WHERE ma.mailing_id = 'm' AND ${half} RETURNING ma.address_id`;

/** Runs `work` five times, each in a transaction rolled back; prints its median and fastest time. */
async function time(name: string, work: (tx: DbOrTx) => Promise<unknown>, setup?: SQL): Promise<void> {
  const runs: number[] = [];
  let answer: unknown;
  for (let i = 0; i < 5; i++) {
    await database.db
      .transaction(async (tx) => {
        if (setup) await tx.execute(setup);
        const t0 = performance.now();
        answer = await work(tx);
        runs.push(performance.now() - t0);
        tx.rollback();
      })
      .catch((e) => {
        if (!String(e).includes('Rollback')) throw e;
      });
  }
  runs.sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(52)} ${runs[2].toFixed(0).padStart(6)} ms (fastest ${runs[0].toFixed(0)})  ${JSON.stringify(answer)}`,
  );
}

try {
  await migrateDatabase(database);
  const db = database.db;
  await db.execute(sql`INSERT INTO campaigns (id, name) VALUES ('c', 'c')`);
  await db.execute(sql`INSERT INTO mailings (id, campaign_id, name) VALUES ('m', 'c', 'm'), ('o', 'c', 'o')`);
  await db.execute(
    sql`INSERT INTO selections (id, mailing_id, campaign_id, description) VALUES ('s', 'm', 'c', '')`,
  );
  await db.execute(sql`INSERT INTO addresses (email, domain)
    SELECT 'a' || g || '@bench.nl', 'bench.nl' FROM generate_series(1, ${addresses}) g`);
  await db.execute(
    sql`INSERT INTO mailing_addresses SELECT 'm', id, 'ds', 's', 'new' FROM addresses ORDER BY id`,
  );
  await db.execute(sql`INSERT INTO mailing_results SELECT 'o', id, 'open', now() FROM addresses ORDER BY id`);
  await db.execute(sql`ANALYZE`);
  console.log(`Removing ${addresses / 2} of ${addresses} addresses of a draft, ${bench.target}:`);
  await time('without results: the addresses alone', async (tx) => {
    const res = await tx.execute(sql`DELETE FROM mailing_addresses ma WHERE ma.mailing_id = 'm' AND ${half}`);
    return res.rowCount;
  });
  await time('without results: deleteWithResults', (tx) => deleteWithResults(tx, 'm', removal));
  await db.execute(sql`INSERT INTO mailing_results SELECT 'm', id, 'open', now() FROM addresses ORDER BY id`);
  await db.execute(sql`ANALYZE`);
  await time('a result each: the addresses alone', async (tx) => {
    const res = await tx.execute(sql`DELETE FROM mailing_addresses ma WHERE ma.mailing_id = 'm' AND ${half}`);
    return res.rowCount;
  });
  await time('a result each: deleteWithResults', (tx) => deleteWithResults(tx, 'm', removal));
  await time(
    'a result each: deleteWithResults, no nested loop',
    (tx) => deleteWithResults(tx, 'm', removal),
    sql`SET LOCAL enable_nestloop = off`,
  );
} finally {
  await database.close();
  await bench.drop();
}
