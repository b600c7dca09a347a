// Benchmark of partner statements (docs/performance.md#statements): 50 partners with 500 datasets
// (every tenth with 'Aparte factuur', each with a commission that changes mid-month) and 20
// Aangeboden mailings of 200,000 addresses each in one month (4,000,000 allocated addresses, every
// dataset in every mailing). Times through the HTTP API the month's list (GET /statements?month=),
// one proposed statement with its lines, issuing one, and its PDF and CSV. Prints figures; never
// fails on slowness.
//
//   npx tsx bench/statements.ts [mailings=20] [addresses=200000] [datasets=500]   embedded PostgreSQL 18
//   DATABASE_URL=postgres://... npx tsx bench/statements.ts                       a PostgreSQL server
//   BENCH_HISTORY_MONTHS=2   then as many earlier months of the same mailings, every statement of them
//                            issued (oldest first), and the month's list again: what issued history costs
// Last, alternately four times: the month's list, and the count of addresses it made before it read
// the reports' kept facts (docs/decisions.md, Partner statements), timed on its own.
import os from 'node:os';
import pg from 'pg';
import type { StatementMonth } from '../common/statements';
import { createBenchDatabase } from './support/database';
import { spawnBenchServer } from './support/server';

const mailings = Number(process.argv[2] ?? 20);
const perMailing = Number(process.argv[3] ?? 200_000);
const datasetCount = Number(process.argv[4] ?? 500);
const partners = Math.max(1, Math.round(datasetCount / 10));
const MONTH = '2026-03';

const bench = await createBenchDatabase('statements');
const server = spawnBenchServer(bench, { port: 18800 + Math.floor(Math.random() * 90) });
const { client } = server;
const db = new pg.Client({ connectionString: bench.url });
const figures: string[] = [];

/** Runs `work` `runs` times; records the first (cold) and the median of the rest. */
async function time<T>(name: string, work: () => Promise<T>, runs = 1): Promise<T> {
  const seconds: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = await work();
    seconds.push((performance.now() - t0) / 1000);
  }
  const rest = seconds.slice(1).sort((a, b) => a - b);
  const median = rest.length
    ? `, median of ${rest.length} more ${rest[Math.floor(rest.length / 2)].toFixed(2)} s`
    : '';
  figures.push(`  ${name.padEnd(52)} ${seconds[0].toFixed(2).padStart(6)} s${median}`);
  return result as T;
}

try {
  await server.ready();
  await db.connect();
  console.log(
    `Making ${partners} partners, ${datasetCount} datasets, ${mailings} mailings × ${perMailing.toLocaleString('en')} addresses ...`,
  );
  await db.query(
    `INSERT INTO partners (id, name, vat_percentage, iban, debitor_number, ledger, vat_code)
    SELECT 'bp' || p, 'Partner ' || p, 0.21, 'NL91ABNA0417164300', 'D' || p, '8000', 'V21'
    FROM generate_series(1, $1::int) p`,
    [partners],
  );
  await db.query(
    `INSERT INTO datasets (id, partner_id, name, separate_invoice)
    SELECT 'bd' || d, 'bp' || (1 + d % $2::int), 'Bestand ' || d, d % 10 = 0 FROM generate_series(1, $1::int) d`,
    [datasetCount, partners],
  );
  // Each dataset's commission changes on the 16th.
  await db.query(
    `INSERT INTO dataset_commissions (id, dataset_id, start, "end", amount)
    SELECT 'bc' || d || k, 'bd' || d, CASE k WHEN 1 THEN date '2026-01-01' ELSE date '2026-03-16' END,
      CASE k WHEN 1 THEN date '2026-03-15' ELSE date '2026-12-31' END, (d % 50 + k) / 1000.0
    FROM generate_series(1, $1::int) d, generate_series(1, 2) k`,
    [datasetCount],
  );
  await db.query(`INSERT INTO campaigns (id, name) VALUES ('bcamp', 'Bench')`);
  await db.query(
    `INSERT INTO mailings (id, campaign_id, name, state, planned_send)
    SELECT 'bm' || m, 'bcamp', 'Mailing ' || m, 'offered',
      timestamptz '2026-03-01 09:00+01' + make_interval(days => (m - 1) % 28)
    FROM generate_series(1, $1::int) m`,
    [mailings],
  );
  await db.query(
    `INSERT INTO selections (id, mailing_id, campaign_id)
    SELECT 'bs' || m, 'bm' || m, 'bcamp' FROM generate_series(1, $1::int) m`,
    [mailings],
  );
  await db.query(
    `INSERT INTO addresses (email, domain)
    SELECT 'b' || i || '@bench.nl', 'bench.nl' FROM generate_series(1, $1::int) i`,
    [perMailing],
  );
  for (let m = 1; m <= mailings; m++) {
    await db.query(
      `INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
      SELECT 'bm' || $1::int, a.id, 'bd' || (1 + (a.id + $1::int) % $2::int), 'bs' || $1::int, 'new'
      FROM addresses a WHERE a.email LIKE '%@bench.nl'`,
      [m, datasetCount],
    );
  }
  await db.query('VACUUM ANALYZE mailings, mailing_addresses, datasets, dataset_commissions, partners');

  const list = await time(
    `GET /statements?month (${mailings} × ${perMailing.toLocaleString('en')}, ${datasetCount} datasets)`,
    () => client.call<StatementMonth>('GET', `/statements?month=${MONTH}`),
    6,
  );
  const first = list.statements[0];
  const ref = `month=${MONTH}&partner=${first.partnerId}${first.datasetId ? `&dataset=${first.datasetId}` : ''}`;
  await time(
    'GET /statements/proposed (one statement with its lines)',
    () => client.call('GET', `/statements/proposed?${ref}`),
    3,
  );
  const issued = await time('POST /statements (issue one)', () =>
    client.call<{ id: number; lines: unknown[] }>('POST', '/statements', {
      month: MONTH,
      partner: first.partnerId,
      ...(first.datasetId ? { dataset: first.datasetId } : {}),
    }),
  );
  await time(
    'GET /statements?month with one issued',
    () => client.call('GET', `/statements?month=${MONTH}`),
    3,
  );
  const download = (url: string) => client.downloadBytes(url);
  await time(`PDF of the issued statement (${issued.lines.length} lines)`, () =>
    download(`/statements/issued/${issued.id}/pdf`),
  );
  await time('CSV of the issued statement', () => download(`/statements/issued/${issued.id}/csv`));

  const history = Number(process.env.BENCH_HISTORY_MONTHS ?? 0);
  for (let k = 1; k <= history; k++) {
    // Month 2026-03 minus k: the same mailings again, planned a month earlier each.
    await db.query(
      `INSERT INTO mailings (id, campaign_id, name, state, planned_send)
      SELECT 'bm' || m || 'h' || $2::int, 'bcamp', 'Mailing ' || m || ' h' || $2::int, 'offered',
        timestamptz '2026-03-01 09:00+01' - make_interval(months => $2::int) + make_interval(days => (m - 1) % 28)
      FROM generate_series(1, $1::int) m`,
      [mailings, k],
    );
    await db.query(
      `INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
      SELECT ma.mailing_id || 'h' || $1::int, ma.address_id, ma.dataset_id, ma.selection_id, ma.category
      FROM mailing_addresses ma WHERE ma.mailing_id NOT LIKE '%h%'`,
      [k],
    );
  }
  if (history > 0) {
    await db.query('VACUUM ANALYZE mailings, mailing_addresses');
    let issuedCount = 0;
    const t0 = performance.now();
    for (let k = history; k >= 1; k--) {
      const month = `2026-${String(3 - k).padStart(2, '0')}`;
      for (const s of (await client.call<StatementMonth>('GET', `/statements?month=${month}`)).statements) {
        if (s.state !== 'proposed') continue;
        await client.call('POST', '/statements', {
          month,
          partner: s.partnerId,
          ...(s.datasetId ? { dataset: s.datasetId } : {}),
        });
        issuedCount++;
      }
    }
    figures.push(
      `  issuing all ${issuedCount} statements of ${history} earlier month(s)`.padEnd(54) +
        `${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s`,
    );
    await time(
      `GET /statements?month with ${history} issued month(s) before it`,
      () => client.call('GET', `/statements?month=${MONTH}`),
      4,
    );
  }

  // Alternately (the machine's load hits both alike): the month's list as it is now, and the count
  // it made before it read the reports' kept facts, every address of every mailing it counts
  // (with history: every mailing here) grouped per mailing and dataset.
  const now: number[] = [];
  const before: number[] = [];
  const { rows: counted } = await db.query<{ id: string }>(`SELECT id FROM mailings WHERE state = 'offered'`);
  for (let i = 0; i < 4; i++) {
    let t0 = performance.now();
    await client.call('GET', `/statements?month=${MONTH}`);
    now.push((performance.now() - t0) / 1000);
    t0 = performance.now();
    await db.query(
      `SELECT mailing_id, dataset_id, count(*)::int FROM mailing_addresses
      WHERE mailing_id = ANY($1::text[]) GROUP BY mailing_id, dataset_id`,
      [counted.map((r) => r.id)],
    );
    before.push((performance.now() - t0) / 1000);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2);
  figures.push(
    `${'  alternated ×4: GET /statements?month (kept facts)'.padEnd(54)}${median(now).padStart(6)} s median`,
    `  alternated ×4: the former count of its ${counted.length} mailings' addresses`.padEnd(54) +
      `${median(before).padStart(6)} s median`,
  );

  const total = list.statements.reduce((s, x) => s + x.totalCents, 0);
  console.log(
    `\nStatements benchmark on ${bench.target}, ${os.cpus().length} cores: ${list.statements.length} statements, ` +
      `${list.statements.reduce((s, x) => s + x.addresses, 0).toLocaleString('en')} addresses, total ${(total / 100).toFixed(2)} EUR`,
  );
  for (const f of figures) console.log(f);
} finally {
  await server.stop();
  await db.end().catch(() => {});
  await bench.drop();
}
