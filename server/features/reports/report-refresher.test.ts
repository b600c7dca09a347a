import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PartnerReport } from '../../../common/reports';
import { setupTestApp, type TestClient } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import {
  addResults,
  allocate,
  importResultsFile,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from '../mailings/mailing.test-helpers';
import { listStaleMailings } from './report.queries';
import { buildWorld, type Event, type WorldMailing } from './report.test-helpers';
import { refreshReportFacts } from './report-refresher';

// The reports' facts kept warm (report-refresher.ts): after a write the facts are computed in the
// background without a report being asked, equal to a calculation made here; a report asked
// before that work is done is exact all the same; many writes leave one computation per mailing.

/** Facts per dataset: delivered, opens, clicks, bounces, hard bounces. */
type Facts = Record<string, [number, number, number, number, number]>;

/** The facts of addresses (dataset, events), computed here. */
function expectedFacts(addresses: { dataset: string; events: Event[] }[]): Facts {
  const out: Facts = {};
  for (const a of addresses) {
    out[a.dataset] ??= [0, 0, 0, 0, 0];
    const f = out[a.dataset];
    const has = (...kinds: Event[]) => a.events.some((e) => kinds.includes(e));
    f[0]++;
    if (has('open')) f[1]++;
    if (has('click')) f[2]++;
    if (has('hardBounce', 'softBounce')) f[3]++;
    if (has('hardBounce')) f[4]++;
  }
  return out;
}

/** A mailing's kept facts at its current version (none when missing), per dataset. */
async function currentFacts(t: TestClient, mailingId: string): Promise<Facts | undefined> {
  const { rows } = await t.db.execute<{ dataset_id: string; f: string[] }>(sql`
    SELECT f.dataset_id, ARRAY[f.delivered, f.opens, f.clicks, f.bounces, f.hard_bounces]::text[] AS f
    FROM mailing_report_facts f
    WHERE f.mailing_id = ${mailingId} AND f.version = coalesce(
      (SELECT version FROM mailing_report_versions WHERE mailing_id = ${mailingId}), 0)`);
  if (rows.length === 0) return undefined;
  return Object.fromEntries(rows.map((r) => [r.dataset_id, r.f.map(Number)])) as Facts;
}

/** Waits until `check` gives a value (the background work is done); fails after a minute. */
async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the background work did not end');
}

/** The events of a results file per address of offeredMailing. */
const EVENTS: Event[][] = [
  ['open', 'click'],
  ['open'],
  ['hardBounce'],
  ['softBounce', 'open'],
  [],
  ['click'],
];

/** An Aangeboden mailing of six addresses over two datasets, with known e-mails; its ids and world. */
async function offeredMailing(t: TestClient) {
  const partner = await makePartner(t.db);
  const datasets = [await makeDataset(t.db, partner), await makeDataset(t.db, partner)];
  const campaign = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaign, { plannedSend: '2025-02-15T09:00:00Z' });
  const emails = EVENTS.map((_, i) => `warm${i}.${mailing._id.slice(-6)}@voorbeeld.nl`.toLowerCase());
  const ids = await makeAddresses(t, emails.length, emails);
  await allocate(t, mailing._id, ids, { datasetId: (i) => datasets[i % 2] });
  await t.db.execute(sql`UPDATE mailings SET state = 'offered' WHERE id = ${mailing._id}`);
  return { campaign, mailing: mailing._id, emails, datasets };
}

/** Imports a results file (the events of EVENTS per e-mail) through the API and waits for its task. */
async function importResults(t: TestClient, campaign: string, mailing: string, emails: string[]) {
  const lines = emails.flatMap((e, i) => EVENTS[i].map((ev) => `${e};${ev};2025-02-16 10:00:00;iOS`));
  await importResultsFile(t, campaign, mailing, `email;event;date;os\n${lines.join('\n')}\n`);
}

const expectedAfterImport = (datasets: string[]) =>
  expectedFacts(EVENTS.map((events, i) => ({ dataset: datasets[i % 2], events })));

describe('the facts kept warm in the background', () => {
  const t = setupTestApp();

  it('are computed after a results import without a report being asked, as calculated here', async () => {
    const { campaign, mailing, emails, datasets } = await offeredMailing(t);
    // Before any result: the allocation's facts, computed in the background.
    expect(await until(() => currentFacts(t, mailing))).toEqual(
      expectedFacts(EVENTS.map((_, i) => ({ dataset: datasets[i % 2], events: [] }))),
    );
    await importResults(t, campaign, mailing, emails);
    expect(await until(() => currentFacts(t, mailing))).toEqual(expectedAfterImport(datasets));
    // Only the newest version's facts are kept; no task was queued for them.
    const versions = await t.db.execute<{ n: number }>(
      sql`SELECT count(DISTINCT version)::int AS n FROM mailing_report_facts WHERE mailing_id = ${mailing}`,
    );
    expect(versions.rows[0].n).toBe(1);
    const tasks = await t.db.execute<{ type: string }>(sql`SELECT DISTINCT type FROM tasks`);
    expect(tasks.rows.map((r) => r.type)).toEqual(['mailing-results']);
  });

  it('leave a report asked before they are computed exact, computing them itself', async () => {
    const { campaign, mailing, emails, datasets } = await offeredMailing(t);
    await until(() => currentFacts(t, mailing));
    // Another process's refresher at work (its lock held): the import's facts stay missing here.
    const holder = await t.database.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(4244, 1)');
      await importResults(t, campaign, mailing, emails);
      expect(await currentFacts(t, mailing)).toBeUndefined();
      const res = await t.api('GET', '/api/reports/partners?from=2025-02&to=2025-02');
      expect(res.statusCode, res.body).toBe(200);
      const report = res.json() as PartnerReport;
      const expected = expectedAfterImport(datasets);
      for (const r of report.rows.filter((row) => datasets.includes(row.datasetId)))
        expect([r.delivered, r.opens, r.clicks, r.bounces, r.hardBounces]).toEqual(expected[r.datasetId]);
      expect(await currentFacts(t, mailing)).toEqual(expected);
    } finally {
      await holder.query('SELECT pg_advisory_unlock(4244, 1)');
      holder.release();
    }
  });

  it('are computed at the start of a worker on a database with history and no facts', async () => {
    const world: WorldMailing[] = [
      { state: 'offered', plannedSend: '2025-02-15T09:00:00Z', addresses: [{ dataset: 0, events: [] }] },
      {
        state: 'offered',
        plannedSend: '2024-03-01T09:00:00Z',
        addresses: [
          { dataset: 1, events: [{ event: 'open', minutes: 3 }] },
          { dataset: 2, events: [{ event: 'hardBounce', minutes: 1 }] },
        ],
      },
    ];
    const { made, datasets } = await buildWorld(t, world);
    await t.ctx.tasks.stop();
    // As after migration 0035 on a database with history: versions and results, no facts.
    await t.db.execute(sql`DELETE FROM mailing_report_facts`);
    await t.ctx.tasks.start();
    for (const [i, m] of made.entries()) {
      const expected = expectedFacts(
        world[i].addresses.map((a) => ({
          dataset: datasets[a.dataset].id,
          events: a.events.map((e) => e.event),
        })),
      );
      expect(await until(() => currentFacts(t, m._id))).toEqual(expected);
    }
    expect(await listStaleMailings(t.db)).toEqual([]);
  });
});

describe('many writes before the background work', () => {
  // No worker, so no refresher: each pass runs here.
  const t = setupTestApp({ startWorker: false });

  it('leave one computation per mailing, at its latest version', async () => {
    const world: WorldMailing[] = [0, 1].map(() => ({
      state: 'offered',
      plannedSend: '2025-02-15T09:00:00Z',
      addresses: [0, 1, 2].map((d) => ({ dataset: d, events: [] })),
    }));
    const { made } = await buildWorld(t, world);
    const held = await t.db.execute<{ mailing_id: string; address_id: string; dataset_id: string }>(
      sql`SELECT mailing_id, address_id, dataset_id FROM mailing_addresses ORDER BY mailing_id, address_id`,
    );
    const eventsOf = (i: number) => (['open', 'click', 'softBounce'] as Event[]).slice(0, 1 + (i % 3));
    // Twelve writes, each raising a mailing's version.
    for (const [i, r] of held.rows.entries())
      for (const event of eventsOf(i))
        await addResults(t, r.mailing_id, [{ addressId: Number(r.address_id), event }]);
    const first = await refreshReportFacts(t.database);
    expect(first.computed.sort()).toEqual(made.map((m) => m._id).sort());
    expect((await refreshReportFacts(t.database)).computed).toEqual([]);
    for (const m of made) {
      const facts = await currentFacts(t, m._id);
      const mine = held.rows.flatMap((r, i) =>
        r.mailing_id === m._id ? [{ dataset: r.dataset_id, events: eventsOf(i) }] : [],
      );
      expect(facts).toEqual(expectedFacts(mine));
      const versions = await t.db.execute<{ n: number }>(
        sql`SELECT count(DISTINCT version)::int AS n FROM mailing_report_facts WHERE mailing_id = ${m._id}`,
      );
      expect(versions.rows[0].n).toBe(1);
    }
    const tasks = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM tasks`);
    expect(tasks.rows[0].n).toBe(0);
  });
});
