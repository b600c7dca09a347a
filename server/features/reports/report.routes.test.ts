import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mailing } from '../../../common/mailings';
import type { PartnerReport, Timeline } from '../../../common/reports';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { makeDataset, makePartner } from '../../test/factories';
import { auditReader } from '../audit/audit.test-helpers';
import {
  addResults,
  allocate,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from '../mailings/mailing.test-helpers';

// The reports against an independent calculation over random worlds: mailings in every state,
// planned sends around Dutch month ends, addresses from several partners' datasets and result events
// at random times. Each figure equals the one computed here from the world as made, and the one the
// mailings screen's route gives for the same mailings.

const t = setupTestApp({ startWorker: false });
const audit = auditReader(t);

type Event = 'open' | 'click' | 'hardBounce' | 'softBounce' | 'rejected';
interface WorldMailing {
  state: 'draft' | 'final' | 'offered' | 'cancelled';
  plannedSend: string;
  /** Per address: its dataset index and its events (kind, minutes after the send; negative = before). */
  addresses: { dataset: number; events: { event: Event; minutes: number }[] }[];
}

const SENDS = [
  '2025-01-31T22:30:00Z', // 1 February in Amsterdam
  '2025-02-15T09:00:00Z',
  '2025-03-30T21:59:00Z', // 30 March 23:59 (summer time from that night)
  '2025-03-31T22:00:00Z', // 1 April 00:00
  '2025-12-31T23:30:00Z', // 1 January 2026
  '2024-12-31T22:59:00Z', // 31 December 2024, outside the period
];

const worldArb = fc.array(
  fc.record({
    state: fc.constantFrom('draft', 'final', 'offered', 'offered', 'cancelled'),
    plannedSend: fc.constantFrom(...SENDS),
    addresses: fc.array(
      fc.record({
        dataset: fc.nat(3),
        events: fc.array(
          fc.record({
            event: fc.constantFrom<Event>('open', 'click', 'hardBounce', 'softBounce', 'rejected'),
            minutes: fc.integer({ min: -120, max: 60 * 24 * 10 }),
          }),
          { maxLength: 4 },
        ),
      }),
      { maxLength: 12 },
    ),
  }) as fc.Arbitrary<WorldMailing>,
  { minLength: 1, maxLength: 6 },
);

/** The month of an instant in the Dutch calendar, computed by Intl (not by the database). */
function dutchMonth(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Amsterdam',
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(new Date(iso));
  return `${parts.find((p) => p.type === 'year')?.value}-${parts.find((p) => p.type === 'month')?.value}`;
}

interface Expected {
  delivered: number;
  opens: number;
  clicks: number;
  bounces: number;
  hardBounces: number;
  mailings: Set<number>;
}

/** Builds the world through the factories and the mailings API; returns its datasets, partners and mailings. */
async function build(world: WorldMailing[]) {
  await t.db.execute(sql`DELETE FROM mailings`);
  const partnerA = await makePartner(t.db);
  const partnerB = await makePartner(t.db);
  const datasets = [
    { id: await makeDataset(t.db, partnerA), partner: partnerA },
    { id: await makeDataset(t.db, partnerA), partner: partnerA },
    { id: await makeDataset(t.db, partnerB), partner: partnerB },
    { id: await makeDataset(t.db, partnerB), partner: partnerB },
  ];
  const campaign = await makeCampaign(t, t.cookie);
  const made: Mailing[] = [];
  for (const w of world) {
    const m = await makeMailing(t, t.cookie, campaign, { plannedSend: w.plannedSend });
    const ids = await makeAddresses(t, w.addresses.length);
    if (ids.length > 0)
      await allocate(t, m._id, ids, { datasetId: (i) => datasets[w.addresses[i].dataset].id });
    const events = w.addresses.flatMap((a, i) =>
      a.events.map((e) => ({
        addressId: ids[i],
        event: e.event,
        at: new Date(Date.parse(w.plannedSend) + e.minutes * 60_000).toISOString(),
      })),
    );
    // Two events of one kind at one moment are one result (the results' key).
    const unique = [...new Map(events.map((e) => [`${e.addressId}|${e.event}|${e.at}`, e])).values()];
    await addResults(t, m._id, unique);
    // The state set directly: a random world breaks the pressure rule the API guards.
    await t.db.execute(sql`UPDATE mailings SET state = ${w.state} WHERE id = ${m._id}`);
    made.push(m);
  }
  return { campaign, datasets, made, partnerA };
}

/** The report's figures per month|partner|dataset, computed from the world as made. */
function expectedRows(
  world: WorldMailing[],
  datasets: { id: string; partner: string }[],
  from: string,
  to: string,
) {
  const rows = new Map<string, Expected>();
  world.forEach((w, mi) => {
    const month = dutchMonth(w.plannedSend);
    if (w.state !== 'offered' || month < from || month > to) return;
    for (const a of w.addresses) {
      const ds = datasets[a.dataset];
      const key = `${month}|${ds.partner}|${ds.id}`;
      const e = rows.get(key) ?? {
        delivered: 0,
        opens: 0,
        clicks: 0,
        bounces: 0,
        hardBounces: 0,
        mailings: new Set(),
      };
      const has = (...kinds: Event[]) => a.events.some((x) => kinds.includes(x.event));
      e.delivered++;
      e.mailings.add(mi);
      if (has('open')) e.opens++;
      if (has('click')) e.clicks++;
      if (has('hardBounce', 'softBounce')) e.bounces++;
      if (has('hardBounce')) e.hardBounces++;
      rows.set(key, e);
    }
  });
  return rows;
}

describe('GET /api/reports/partners', () => {
  it('gives every figure as computed independently and as the mailings screen gives it', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const { campaign, datasets, made, partnerA } = await build(world);
        const res = await t.api('GET', '/api/reports/partners?from=2025-01&to=2025-12');
        expect(res.statusCode, res.body).toBe(200);
        const report: PartnerReport = res.json();
        const expected = expectedRows(world, datasets, '2025-01', '2025-12');
        const got = new Map(report.rows.map((r) => [`${r.month}|${r.partnerId}|${r.datasetId}`, r]));
        expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [key, e] of expected) {
          const r = got.get(key)!;
          expect(r, key).toMatchObject({
            delivered: e.delivered,
            opens: e.opens,
            clicks: e.clicks,
            bounces: e.bounces,
            hardBounces: e.hardBounces,
            mailings: e.mailings.size,
          });
          expect(r.openRate).toBeCloseTo(e.opens / e.delivered, 12);
          expect(r.clickRate).toBeCloseTo(e.clicks / e.delivered, 12);
          expect(r.hardBounceRate).toBeCloseTo(e.hardBounces / e.delivered, 12);
        }
        // The mailings screen: per month, the offered mailings' addresses, opens, clicks and bounces.
        const list: Mailing[] = (await t.api('GET', `/api/campaigns/${campaign}/mailings`)).json();
        expect(report.months.map((m) => m.month)).toHaveLength(12);
        for (const month of report.months) {
          const screen = list.filter(
            (m) =>
              m.state === 'offered' &&
              dutchMonth(m.plannedSend) === month.month &&
              made.some((x) => x._id === m._id),
          );
          const sum = (f: (m: Mailing) => number) => screen.reduce((s, m) => s + f(m), 0);
          expect(month, month.month).toMatchObject({
            delivered: sum((m) => m.recordCount),
            opens: sum((m) => m.results.opens),
            clicks: sum((m) => m.results.clicks),
            bounces: sum((m) => m.results.bounces),
          });
        }
        expect(report.total.delivered).toBe(report.rows.reduce((s, r) => s + r.delivered, 0));
        // A partner filter keeps exactly that partner's rows.
        const one: PartnerReport = (
          await t.api('GET', `/api/reports/partners?from=2025-01&to=2025-12&partnerId=${partnerA}`)
        ).json();
        expect(one.rows).toEqual(report.rows.filter((r) => r.partnerId === partnerA));
      }),
      { numRuns: 8 },
    );
  });

  it('covers the last 12 months by default and refuses a malformed period in Dutch', async () => {
    const res = await t.api('GET', '/api/reports/partners');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().months).toHaveLength(12);
    for (const query of [
      'from=2025-13',
      'from=2025-05&to=2025-01',
      'from=2020-01&to=2025-01',
      'partnerId=a%20b',
    ]) {
      const bad = await t.api('GET', `/api/reports/partners?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message, query).toMatch(/maand|maanden|id/i);
    }
  });

  it('downloads the table as CSV (numbers as numbers, a decimal comma in the Excel file), recorded in the audit log', async () => {
    const world: WorldMailing[] = [
      {
        state: 'offered',
        plannedSend: '2025-02-15T09:00:00Z',
        addresses: [
          { dataset: 0, events: [{ event: 'open', minutes: 5 }] },
          { dataset: 0, events: [] },
          { dataset: 0, events: [] },
        ],
      },
    ];
    const { datasets } = await build(world);
    await t.db.execute(sql`UPDATE partners SET name = '=HYPERLINK("x")' WHERE id = ${datasets[0].partner}`);
    const csv = await t.api('GET', '/api/reports/partners.csv?from=2025-01&to=2025-12');
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = parse(csvBody(csv)) as string[][];
    expect(rows[1]).toEqual([
      '2025-02',
      datasets[0].partner,
      `'=HYPERLINK("x")`,
      datasets[0].id,
      expect.any(String),
      '1',
      '3',
      '1',
      '0',
      '0',
      '0',
      '33.33',
      '0.00',
      '0.00',
    ]);
    const excel = await t.api('GET', '/api/reports/partners.csv?from=2025-01&to=2025-12&format=excel');
    expect((parse(csvBody(excel), { delimiter: ';' }) as string[][])[1][11]).toBe('33,33');
    const entry = await audit.last('report-download');
    expect(entry).toMatchObject({ subject: 'partners', rows: 1 });
  });
});

describe('the facts a report keeps', () => {
  it("are computed again after any write to a mailing's addresses or results, and only the newest are kept", async () => {
    const world: WorldMailing[] = [
      {
        state: 'offered',
        plannedSend: '2025-02-15T09:00:00Z',
        addresses: [
          { dataset: 0, events: [{ event: 'open', minutes: 5 }] },
          { dataset: 1, events: [] },
        ],
      },
    ];
    const { campaign, made } = await build(world);
    const report = async () => {
      const res = await t.api('GET', '/api/reports/partners?from=2025-02&to=2025-02');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as PartnerReport).total;
    };
    const screen = async () =>
      ((await t.api('GET', `/api/campaigns/${campaign}/mailings`)).json() as Mailing[])[0];
    expect(await report()).toMatchObject({ delivered: 2, opens: 1, clicks: 0 });
    // A result, new addresses and a removed address: each write is seen by the next report.
    const [held] = (
      await t.db.execute<{ address_id: string }>(
        sql`SELECT address_id FROM mailing_addresses WHERE mailing_id = ${made[0]._id} ORDER BY address_id LIMIT 1`,
      )
    ).rows;
    await addResults(t, made[0]._id, [{ addressId: Number(held.address_id), event: 'click' }]);
    expect(await report()).toMatchObject({ delivered: 2, opens: 1, clicks: 1 });
    await allocate(t, made[0]._id, await makeAddresses(t, 3));
    expect(await report()).toMatchObject({ delivered: 5, opens: 1, clicks: 1 });
    await t.db.execute(
      sql`DELETE FROM mailing_addresses WHERE mailing_id = ${made[0]._id} AND address_id = ${held.address_id}`,
    );
    await t.db.execute(
      sql`DELETE FROM mailing_results WHERE mailing_id = ${made[0]._id} AND address_id = ${held.address_id}`,
    );
    const total = await report();
    const now = await screen();
    expect(total).toMatchObject({ delivered: 4, opens: now.results.opens, clicks: now.results.clicks });
    const versions = await t.db.execute<{ n: number }>(
      sql`SELECT count(DISTINCT version)::int AS n FROM mailing_report_facts WHERE mailing_id = ${made[0]._id}`,
    );
    expect(versions.rows[0].n).toBe(1);
  });
});

describe('GET /api/reports/mailings/:mailingId/timeline', () => {
  it('counts each address from its first event of a kind, cumulative, ending at the mailings screen counts', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.constantFrom<'day' | 'hour'>('day', 'hour'), async (world, unit) => {
        const { campaign, made } = await build(world);
        const list: Mailing[] = (await t.api('GET', `/api/campaigns/${campaign}/mailings`)).json();
        for (const [i, w] of world.entries()) {
          const res = await t.api('GET', `/api/reports/mailings/${made[i]._id}/timeline?unit=${unit}`);
          expect(res.statusCode, res.body).toBe(200);
          const timeline: Timeline = res.json();
          const screen = list.find((m) => m._id === made[i]._id)!;
          expect(timeline.total).toMatchObject({
            opens: screen.results.opens,
            clicks: screen.results.clicks,
            bounces: screen.results.bounces,
            delivered: w.state === 'offered' ? screen.recordCount : 0,
          });
          // Independently: per point, the addresses whose first event of a kind is in a bucket up to it.
          for (const point of timeline.points) {
            const upTo = (kinds: Event[]) =>
              w.addresses.filter((a) => {
                const first = Math.min(
                  ...a.events.filter((e) => kinds.includes(e.event)).map((e) => e.minutes),
                );
                if (!Number.isFinite(first)) return false;
                return bucketIndex(w.plannedSend, first, unit) <= point.since;
              }).length;
            expect(point, `${unit} ${point.at}`).toMatchObject({
              opens: upTo(['open']),
              clicks: upTo(['click']),
              bounces: upTo(['hardBounce', 'softBounce']),
              hardBounces: upTo(['hardBounce']),
            });
          }
        }
      }),
      { numRuns: 6 },
    );
  });

  it('answers 404 for an unknown mailing and 400 for a malformed unit', async () => {
    expect((await t.api('GET', '/api/reports/mailings/onbekend/timeline')).statusCode).toBe(404);
    expect((await t.api('GET', '/api/reports/mailings/x/timeline?unit=week')).statusCode).toBe(400);
  });
});

/**
 * The bucket of an event `minutes` after the send: Dutch calendar days since the send's day, or
 * whole hours since the send's hour (the sends here keep clear of a clock change), an event before
 * the send in the send's bucket, an hour past the first week in the last hour's.
 */
function bucketIndex(send: string, minutes: number, unit: 'day' | 'hour'): number {
  if (unit === 'hour') {
    const sinceHourStart = new Date(send).getUTCMinutes() + minutes;
    return Math.min(Math.max(Math.floor(sinceHourStart / 60), 0), 7 * 24 - 1);
  }
  const day = (iso: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(new Date(iso));
  const a = Date.parse(day(send));
  const b = Date.parse(day(new Date(Date.parse(send) + minutes * 60_000).toISOString()));
  return Math.max(0, Math.round((b - a) / 86_400_000));
}
