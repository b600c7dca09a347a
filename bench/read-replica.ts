// Benchmark of the read replica (server/db/read-replica.ts): on a PostgreSQL primary and its
// streaming standby started here (server/test/replica.test-helpers.ts: initdb, pg_basebackup -R,
// temporary directories, removed after), with the selection benchmark's world of N addresses over D
// datasets and its narrow tables built, times what a read pays to go to the replica (the question
// to the primary and the replica's replay position) when the primary is idle and while it is being
// written to, and the count of /counts on the primary and on the replica (equal figures checked).
// Prints figures; never fails on slowness.
//
//   npx tsx bench/read-replica.ts [addresses=100000] [datasets=50]
//   BENCH_RUNS=50     runs per figure (default 50; the counts a fifth of it)
//   PG_BIN=/usr/lib/postgresql/15/bin    the binaries (default: the highest version there)
import { sql } from 'drizzle-orm';
import '../common/zod-setup';
import { businessDay } from '../common/pressure-date';
import { type Database, migrateDatabase, openDatabase } from '../server/db/client';
import { ReadReplica } from '../server/db/read-replica';
import { countDatasets } from '../server/features/counts/count.queries';
import { caseCollation } from '../server/features/selections/compile-context';
import { rebuildSelRecords } from '../server/features/selections/sel-record.sql';
import { postgresBin, startReplicaPair, waitForReplay } from '../server/test/replica.test-helpers';
import { timed } from './support/database';
import { generateSelectionWorld } from './support/selection-world';

const N = Number(process.argv[2] ?? 100_000);
const DATASETS = Number(process.argv[3] ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

const bin = postgresBin();
if (!bin) throw new Error('PostgreSQL binaries with pg_basebackup not found: set PG_BIN');

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const ms = (x: number) => `${x.toFixed(2)} ms`;
/** Times `work` `runs` times after a warm-up; prints p50 and p95. */
async function repeat(label: string, runs: number, work: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    await work();
    if (i > 0) times.push(performance.now() - t0);
  }
  console.log(`  ${label.padEnd(58)} p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}`);
}

/** The count of /counts (with the blacklists and the unique row) in a REPEATABLE READ transaction on `database`. */
const count = (database: Database) =>
  database.db.transaction((tx) => countDatasets(tx, true, 1, businessDay(new Date())), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });

const pair = await startReplicaPair(bin);
const primary = openDatabase(pair.primaryUrl, 8);
const standby = openDatabase(pair.standbyUrl, 8);
const silent = { info() {}, warn() {} } as unknown as ConstructorParameters<typeof ReadReplica>[2]['log'];
const replica = new ReadReplica(primary, standby, { waitMs: 2000, log: silent });
try {
  console.log(`Read replica benchmark: ${N.toLocaleString('en')} addresses, ${DATASETS} datasets, ${bin}`);
  await migrateDatabase(primary);
  await generateSelectionWorld(primary.db, N, DATASETS, timed);
  await timed('narrow tables built', async () => {
    await rebuildSelRecords(primary, await caseCollation(primary.db));
    await primary.db.execute(sql`VACUUM ANALYZE`);
  });
  await timed('standby caught up', () => waitForReplay(pair.primaryUrl, pair.standbyUrl, 600_000));

  const routes = async () =>
    Object.fromEntries((await replica.reads.get()).values.map((v) => [v.labels.route, v.value]));
  console.log(`The way to the replica (ReadReplica.target), ${RUNS} runs:`);
  await repeat('primary idle', RUNS, () => replica.target());
  // A writer on the primary the whole time: inserts of 1,000 rows, one after the other.
  await primary.db.execute(sql`CREATE TABLE bench_writes (id int, filler text)`);
  let writing = true;
  const writer = (async () => {
    while (writing)
      await primary.db.execute(
        sql`INSERT INTO bench_writes SELECT i, repeat('x', 100) FROM generate_series(1, 1000) i`,
      );
  })();
  await repeat('primary inserting 1,000 rows a statement, back to back', RUNS, () => replica.target());
  writing = false;
  await writer;
  console.log(`  reads by route: ${JSON.stringify(await routes())}`);

  await waitForReplay(pair.primaryUrl, pair.standbyUrl, 600_000);
  const onPrimary = await count(primary);
  const onReplica = await count(standby);
  console.log(
    `GET /api/count's count, ${Math.max(1, Math.round(RUNS / 5))} runs (figures equal: ${JSON.stringify(onPrimary) === JSON.stringify(onReplica)}):`,
  );
  const runs = Math.max(1, Math.round(RUNS / 5));
  await repeat('on the primary', runs, () => count(primary));
  await repeat('on the replica (after target())', runs, async () => count(await replica.target()));
} finally {
  await replica.close();
  await standby.close();
  await primary.close();
  await pair.destroy();
}
