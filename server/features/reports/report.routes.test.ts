import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mailing } from '../../../common/mailings';
import type { PartnerReport, Timeline } from '../../../common/reports';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { auditReader } from '../audit/audit.test-helpers';
import { buildWorld, dutchMonth, type Event, type WorldMailing, worldArb } from './report.test-helpers';

// The reports against an independent calculation over random worlds: mailings in every state,
// planned sends around Dutch month ends, addresses from several partners' datasets and result events
// at random times, some sent, taken back to Concept, addresses removed (limit, pressure delete, a
// selection's delete, erasure) and moved on again. Each figure equals the one computed here from the
// world as the mailings hold it, and the one the mailings screen's route gives for the same mailings.

const t = setupTestApp({ startWorker: false });
const audit = auditReader(t);

interface Expected {
  delivered: number;
  opens: number;
  clicks: number;
  bounces: number;
  hardBounces: number;
  mailings: Set<number>;
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
        const { campaign, datasets, made, kept, partnerA } = await buildWorld(t, world);
        const res = await t.api('GET', '/api/reports/partners?from=2025-01&to=2025-12');
        expect(res.statusCode, res.body).toBe(200);
        const report: PartnerReport = res.json();
        const expected = expectedRows(kept, datasets, '2025-01', '2025-12');
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
    const { datasets } = await buildWorld(t, world);
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

describe('GET /api/reports/mailings/:mailingId/timeline', () => {
  it('counts each address from its first event of a kind, cumulative, ending at the mailings screen counts', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.constantFrom<'day' | 'hour'>('day', 'hour'), async (world, unit) => {
        const { campaign, made, kept } = await buildWorld(t, world);
        const list: Mailing[] = (await t.api('GET', `/api/campaigns/${campaign}/mailings`)).json();
        for (const [i, w] of kept.entries()) {
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
