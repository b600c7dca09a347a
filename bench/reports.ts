// Benchmark of the reports: a world of N addresses in 500 datasets of 50 partners and a year of
// Aangeboden mailings (MAILINGS_PER_MONTH a month, each holding N/10 addresses, with opens, clicks
// and bounces), built by set-based SQL; then times through the HTTP API: the partner report of the
// last 12 months cold (every mailing's facts computed and kept) and warm (the kept facts read), one
// partner, after a results import into one mailing (its facts computed again), a mailing's timeline
// per day and per hour; and what the version triggers add to writing a mailing's addresses and
// results (the same INSERT with the triggers disabled). That first server runs no task worker, so
// no background work. Then the facts kept warm (report-refresher.ts): a server with its worker
// starts on the same database without facts (as after migration 0035 on a database with history)
// and computes them all in the background (its own time, from its log, and until none is
// missing); a results file of RESULTS_ROWS clicks is imported into one mailing through the API,
// its facts computed in the background, and a report asked once they are. Prints figures; never
// fails on slowness.
//
//   npx tsx bench/reports.ts [addresses=1000000]             embedded PostgreSQL 18
//   DATABASE_URL=postgres://... npx tsx bench/reports.ts      a PostgreSQL server (a fresh database is made)
//   MAILINGS_PER_MONTH=4 (default)   MAILING_SHARE=10 (default: a mailing holds addresses/10)
//   RESULTS_ROWS=10000 (default)
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { PartnerReport, Timeline } from '../common/reports';
import { benchDatabase } from './support/database';
import { spawnBenchServer } from './support/server';

const addresses = Number(process.argv[2] ?? 1_000_000);
const perMonth = Number(process.env.MAILINGS_PER_MONTH ?? 4);
const mailingSize = Math.floor(addresses / Number(process.env.MAILING_SHARE ?? 10));
const mailingCount = perMonth * 12;
const bench = await benchDatabase('reports');
const port = 18800 + Math.floor(Math.random() * 90);
const server = spawnBenchServer(bench, { port, env: { START_WORKER: 'false' } });
const { client } = server;
const resultsRows = Number(process.env.RESULTS_ROWS ?? 10_000);
/** The background work the second server logged: per pass, its mailings and time (ms). */
const passes: { mailings: number; ms: number }[] = [];
const db = new pg.Client({ connectionString: bench.url });
const figures: string[] = [];

/** Runs `work`, keeps its time as a figure line named `name`; returns what it returned. */
async function time<T>(name: string, work: () => Promise<T>, note: (r: T) => string = () => ''): Promise<T> {
  const t0 = performance.now();
  const result = await work();
  const s = (performance.now() - t0) / 1000;
  figures.push(`  ${name.padEnd(66)} ${s.toFixed(3).padStart(8)} s  ${note(result)}`);
  return result;
}

/** Inserts `size` addresses (from `offset`, wrapping) into mailing `id`, each from dataset (address mod 500). */
const allocateSql = (id: string, offset: number, size: number) => `
  INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
  SELECT '${id}', a.id, 'ds' || (a.id % 500), 'bench', 'new'
  FROM (SELECT ((g + ${offset}) % ${addresses}) + 1 AS id FROM generate_series(0, ${size - 1}) g) a
  ORDER BY a.id`;

/** Results of mailing `id`: an open for 1 in 5 addresses, a click for 1 in 20, a hard bounce for 1 in 100, hours after the send. */
const resultsSql = (id: string) => `
  INSERT INTO mailing_results (mailing_id, address_id, event, at)
  SELECT ma.mailing_id, ma.address_id, e.event, m.planned_send + make_interval(mins => (ma.address_id % 5000)::int)
  FROM mailing_addresses ma JOIN mailings m ON m.id = ma.mailing_id
  CROSS JOIN LATERAL (VALUES ('open', 5), ('click', 20), ('hardBounce', 100)) e(event, every)
  WHERE ma.mailing_id = '${id}' AND abs(hashint8(ma.address_id)::bigint) % e.every = 0`;

try {
  await server.ready();
  await db.connect();
  console.log(
    `World: ${addresses.toLocaleString('en')} addresses, ${mailingCount} Aangeboden mailings of ${mailingSize.toLocaleString('en')} ...`,
  );
  const t0 = performance.now();
  await db.query(
    `INSERT INTO partners (id, name) SELECT 'p' || g, 'Partner ' || g FROM generate_series(0, 49) g`,
  );
  await db.query(`INSERT INTO datasets (id, partner_id, name)
    SELECT 'ds' || g, 'p' || (g % 50), 'Bestand ' || g FROM generate_series(0, 499) g`);
  await db.query(`INSERT INTO addresses (email, domain)
    SELECT 'b' || g || '@voorbeeld.nl', 'voorbeeld.nl' FROM generate_series(1, ${addresses}) g`);
  await db.query(`INSERT INTO campaigns (id, name) VALUES ('bench', 'Bench')`);
  // Spread over the last 12 months, a few days after now minus i months.
  await db.query(`INSERT INTO mailings (id, campaign_id, name, state, planned_send)
    SELECT 'm' || g, 'bench', 'Verzending ' || g, 'offered',
      now() - make_interval(days => (g * 365 / ${mailingCount})::int + 1)
    FROM generate_series(0, ${mailingCount - 1}) g`);
  for (let i = 0; i < mailingCount; i++) {
    await db.query(allocateSql(`m${i}`, Math.floor((i * addresses) / mailingCount), mailingSize));
    await db.query(resultsSql(`m${i}`));
  }
  await db.query('ANALYZE');
  const rows = await db.query<{ ma: string; mr: string }>(
    'SELECT (SELECT count(*) FROM mailing_addresses) AS ma, (SELECT count(*) FROM mailing_results) AS mr',
  );
  console.log(
    `  built in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${Number(rows.rows[0].ma).toLocaleString('en')} delivered addresses, ${Number(rows.rows[0].mr).toLocaleString('en')} results`,
  );

  const report = (query = '') => client.call<PartnerReport>('GET', `/reports/partners${query}`);
  const summary = (r: PartnerReport) =>
    `${r.rows.length} rows, delivered ${r.total.delivered.toLocaleString('en')}, open rate ${((r.total.openRate ?? 0) * 100).toFixed(1)} %`;
  await time('partner report, 12 months, cold (all facts computed)', report, summary);
  await time('partner report, 12 months, warm', report, summary);
  await time('partner report, 12 months, warm again', report, summary);
  await time('partner report, one partner, warm', () => report('?partnerId=p7'), summary);
  await db.query(`INSERT INTO mailing_results (mailing_id, address_id, event, at)
    SELECT mailing_id, address_id, 'click', now() FROM mailing_addresses WHERE mailing_id = 'm0' LIMIT 1000`);
  await time('partner report after a results import into one mailing (no worker)', report, summary);
  await time(
    'timeline of one mailing, per day',
    () => client.call<Timeline>('GET', '/reports/mailings/m1/timeline'),
    (t) => `${t.points.length} points, opens ${t.total.opens.toLocaleString('en')}`,
  );
  await time(
    'timeline of one mailing, per hour',
    () => client.call<Timeline>('GET', '/reports/mailings/m1/timeline?unit=hour'),
    (t) => `${t.points.length} points`,
  );

  // What the version triggers cost a writer: one mailing's addresses and results, with and without.
  await db.query(
    `INSERT INTO mailings (id, campaign_id, name) VALUES ('t1', 'bench', 'T1'), ('t2', 'bench', 'T2')`,
  );
  await time(`insert ${mailingSize.toLocaleString('en')} mailing addresses, triggers on`, () =>
    db.query(allocateSql('t1', 0, mailingSize)),
  );
  await time('insert its results, triggers on', () => db.query(resultsSql('t1')));
  await db.query('ALTER TABLE mailing_addresses DISABLE TRIGGER mailing_addresses_report_insert');
  await db.query('ALTER TABLE mailing_results DISABLE TRIGGER mailing_results_report_insert');
  await time(`insert ${mailingSize.toLocaleString('en')} mailing addresses, triggers off`, () =>
    db.query(allocateSql('t2', 0, mailingSize)),
  );
  await time('insert its results, triggers off', () => db.query(resultsSql('t2')));
  await db.query('ALTER TABLE mailing_addresses ENABLE TRIGGER mailing_addresses_report_insert');
  await db.query('ALTER TABLE mailing_results ENABLE TRIGGER mailing_results_report_insert');

  // The facts kept warm: a server with its worker, on the database as after migration 0035.
  await server.stop();
  await db.query('DELETE FROM mailing_report_facts');
  const warm = spawnBenchServer(bench, {
    port: port + 100,
    env: { LOG_LEVEL: 'info' },
    onLine: (line) => {
      let entry: { msg?: string; level?: number; mailings?: number; ms?: number };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.msg?.startsWith('reports: facts of mailings computed'))
        passes.push({ mailings: entry.mailings ?? 0, ms: entry.ms ?? 0 });
      else if ((entry.level ?? 0) >= 40) console.log(line);
    },
  });
  try {
    const started = performance.now();
    await warm.ready();
    const answered = performance.now();
    const missing = async () =>
      Number(
        (
          await db.query<{ n: string }>(`SELECT count(*) AS n FROM mailings m
            LEFT JOIN mailing_report_versions v ON v.mailing_id = m.id
            WHERE m.state = 'offered' AND NOT EXISTS (SELECT 1 FROM mailing_report_facts f
              WHERE f.mailing_id = m.id AND f.version = coalesce(v.version, 0))`)
        ).rows[0].n,
      );
    const untilWarm = async () => {
      while ((await missing()) > 0) await new Promise((r) => setTimeout(r, 50));
    };
    await untilWarm();
    const loggedMs = () => passes.reduce((s, p) => s + p.ms, 0);
    const loggedMailings = () => passes.reduce((s, p) => s + p.mailings, 0);
    figures.push(
      `  ${"background: every mailing's facts at the start, until none missing".padEnd(66)} ${((performance.now() - started) / 1000).toFixed(3).padStart(8)} s  from the server's spawn (it answered after ${((answered - started) / 1000).toFixed(1)} s)`,
      `  ${'background: its own work (logged)'.padEnd(66)} ${(loggedMs() / 1000).toFixed(3).padStart(8)} s  ${loggedMailings()} mailings`,
    );
    await time(
      'partner report, 12 months, after the background work',
      () => warm.client.call<PartnerReport>('GET', '/reports/partners'),
      summary,
    );

    // A results file of clicks into the newest mailing (m0), through the API.
    const file = path.join(bench.work, 'results.csv');
    const ids = await db.query<{ address_id: string }>(
      `SELECT address_id FROM mailing_addresses WHERE mailing_id = 'm0' ORDER BY address_id LIMIT ${resultsRows}`,
    );
    fs.writeFileSync(
      file,
      `email,event,date,os\n${ids.rows.map((r) => `b${r.address_id}@voorbeeld.nl,click,2030-01-10 10:00:00,iOS`).join('\n')}\n`,
    );
    const before = { ms: loggedMs(), mailings: loggedMailings() };
    await time(
      `results import of ${ids.rows.length.toLocaleString('en')} clicks into one mailing (API)`,
      () => warm.client.upload('/campaigns/bench/mailings/m0/results', file),
    );
    const imported = performance.now();
    await untilWarm();
    figures.push(
      `  ${'background: its facts computed, after the import ended'.padEnd(66)} ${((performance.now() - imported) / 1000).toFixed(3).padStart(8)} s  until none missing`,
      `  ${'background: its own work (logged)'.padEnd(66)} ${((loggedMs() - before.ms) / 1000).toFixed(3).padStart(8)} s  ${loggedMailings() - before.mailings} mailing(s)`,
    );
    const after = () => warm.client.call<PartnerReport>('GET', '/reports/partners');
    await time('partner report after a results import, background work done', after, summary);
    await time('partner report after a results import, again', after, summary);
  } finally {
    await warm.stop();
  }

  console.log(`\nReports at ${addresses.toLocaleString('en')} addresses (${bench.target}):`);
  for (const line of figures) console.log(line);
} finally {
  await db.end().catch(() => {});
  await server.stop();
  await bench.drop();
}
