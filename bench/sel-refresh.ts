// Benchmark of the sel_record refresher: on a database made by bench/selection.ts (kept
// with BENCH_KEEP_DB=1), marks M records chosen at random (with their dataset, as a writer of records
// does) and times one refreshDirtyBatch of them, for M = 100, 1,000, 10,000 and 50,000, each RUNS
// times (median and spread); then the same for M addresses marked without a dataset (a blacklist or
// an address's facts). A refresh rewrites the rows exactly as they were, so the database is left as
// it was found. Prints figures; never fails on slowness.
//
//   BENCH_REUSE_DB=postgres://.../lw_bench_selection_x npx tsx bench/sel-refresh.ts [runs=3]
import { sql } from 'drizzle-orm';
import '../common/zod-setup';
import { openDatabase } from '../server/db/client';
import { caseCollation } from '../server/features/selections/compile-context';
import { refreshDirtyBatch } from '../server/features/selections/sel-record.sql';

const url = process.env.BENCH_REUSE_DB;
if (!url) {
  console.error('BENCH_REUSE_DB must name a database made by bench/selection.ts (BENCH_KEEP_DB=1)');
  process.exit(2);
}
const RUNS = Number(process.argv[2] ?? 3);
const SIZES = [100, 1_000, 10_000, 50_000];
const database = openDatabase(url, 2);
const { db } = database;
// The collation the refresh folds text in (the app keeps it: AppContext.caseCollation).
const collation = await caseCollation(db);

const { rows: sizeRows } = await db.execute(sql`SELECT
  (SELECT count(*) FROM addresses)::int AS addresses, (SELECT count(*) FROM records)::int AS records,
  (SELECT count(*) FROM datasets)::int AS datasets, (SELECT count(*) FROM sel_record)::int AS rows,
  (SELECT count(*) FROM sel_dirty)::int AS dirty`);
const size = sizeRows[0] as {
  addresses: number;
  records: number;
  datasets: number;
  rows: number;
  dirty: number;
};
console.log(
  `sel_record refresh benchmark on ${new URL(url).pathname.slice(1)}: ${size.addresses.toLocaleString('en')} addresses, ` +
    `${size.records.toLocaleString('en')} records in ${size.datasets} datasets, ${size.rows.toLocaleString('en')} sel_record rows`,
);
if (size.dirty > 0) {
  console.error(`sel_dirty holds ${size.dirty} marks: refresh them first (drainSelDirty), then time`);
  process.exit(2);
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const ms = (v: number) => `${v.toFixed(0)} ms`;

for (const kind of ['records', 'addresses'] as const) {
  console.log(
    kind === 'records' ? 'Marks of records (with their dataset):' : 'Marks of addresses (no dataset):',
  );
  for (const m of SIZES) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Random records: a random start in the address ids, then the next m records by address.
      await db.execute(
        kind === 'records'
          ? sql`INSERT INTO sel_dirty (address_id, dataset_id)
              SELECT address_id, dataset_id FROM records
              WHERE address_id >= (SELECT (random() * max(id))::bigint FROM addresses) ORDER BY address_id LIMIT ${m}`
          : sql`INSERT INTO sel_dirty (address_id)
              SELECT id FROM addresses WHERE id >= (SELECT (random() * max(id))::bigint FROM addresses) ORDER BY id LIMIT ${m}`,
      );
      const t0 = performance.now();
      const taken = await refreshDirtyBatch(database, collation, m);
      times.push(performance.now() - t0);
      if (taken === 0) throw new Error('the refresher lock is held elsewhere');
    }
    const per = (median(times) / m) * 1000;
    console.log(
      `  ${m.toLocaleString('en').padStart(6)} marks: median ${ms(median(times))} (${times.map(ms).join(', ')}), ${per.toFixed(0)} µs a mark`,
    );
  }
}
await database.close();
