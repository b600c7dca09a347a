import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatementMonth, StatementSummary } from '../../../common/statements';
import { setupTestApp } from '../../test/app';
import { insertWorld, type World, worldId } from './statement.test-helpers';

// Every statement figure of a random world computed again here, independently of the statements
// code (no shared rule: the commission looked up by hand, the day in Amsterdam by Intl, money in
// plain integers): partners in and outside the EU with and without a VAT number, datasets with
// commission periods that change or stop within a month, 'Aparte factuur' datasets, mailings in every
// state around month ends. Then the month is issued, every commission changes, and the issued
// statements stay while the next month proposes exactly the differences.

const t = setupTestApp({ startWorker: false });

const EU = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);
const amsterdamDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Amsterdam' });
const MONTHS = ['2026-02', '2026-03', '2026-04'];

/** A day of Feb 20 .. Apr 10, 2026, as YYYY-MM-DD. */
const dayOf = (n: number) => new Date(Date.UTC(2026, 1, 20 + n)).toISOString().slice(0, 10);

const worldArb = fc.record({
  partners: fc.array(
    fc.record({
      country: fc.constantFrom('NL', 'BE', 'DE', 'US'),
      vatNumber: fc.constantFrom('', 'XX123456789B01'),
      vatPercent: fc.constantFrom(0, 9, 21, null),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  datasets: fc.array(
    fc.record({
      partner: fc.nat(),
      separateInvoice: fc.boolean(),
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: 48 }), { maxLength: 3 }),
      periods: fc.array(fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }), {
        minLength: 4,
        maxLength: 4,
      }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  mailings: fc.array(
    fc.record({
      state: fc.constantFrom('draft', 'final', 'offered', 'offered', 'cancelled'),
      day: fc.integer({ min: 5, max: 44 }),
      hour: fc.integer({ min: 0, max: 23 }),
      counts: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 5, maxLength: 5 }),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

type RawWorld = typeof worldArb extends fc.Arbitrary<infer W> ? W : never;

/** The world of a run with ids of its own (a shrunk run inserts again, so ids are never reused). */
function build(w: RawWorld) {
  const partners = w.partners.map((p) => ({ ...p, id: worldId('pp') }));
  const datasets = w.datasets.map((d) => {
    // Periods between the cut days (inclusive ranges that never overlap); a null period is a gap.
    const bounds = [0, ...[...d.cuts].sort((a, b) => a - b), 50];
    const commissions = bounds.slice(0, -1).flatMap((start, i) => {
      const units = d.periods[i % d.periods.length];
      if (units === null) return [];
      return [{ start: dayOf(start), end: dayOf(bounds[i + 1] - 1), units }];
    });
    return {
      id: worldId('dd'),
      partnerId: partners[d.partner % partners.length].id,
      separateInvoice: d.separateInvoice,
      commissions,
    };
  });
  const mailings = w.mailings.map((m) => ({
    id: worldId('mm'),
    state: m.state as World['mailings'][number]['state'],
    plannedSend: `${dayOf(m.day)}T${String(m.hour).padStart(2, '0')}:30:00Z`,
    addresses: datasets.map((d, i) => ({ datasetId: d.id, count: m.counts[i] })),
  }));
  return { partners, datasets, mailings };
}

type TestWorld = ReturnType<typeof build>;

const units = (amount: number) =>
  `${Math.floor(amount / 10_000)}.${String(amount % 10_000).padStart(4, '0')}`;
const half = (n: number, d: number) =>
  n >= 0 ? Math.floor((n * 2 + d) / (2 * d)) : -Math.floor((-n * 2 + d) / (2 * d));

interface Pair {
  key: string;
  month: string;
  mailingId: string;
  datasetId: string;
  addresses: number;
  cents: number;
  hasRate: boolean;
}

/** The delivered pairs of the world: Aangeboden addresses per mailing and dataset at the rate of their day. */
function pairsOf(w: TestWorld, rates: Map<string, number>): Pair[] {
  const out: Pair[] = [];
  for (const m of w.mailings) {
    if (m.state !== 'offered') continue;
    const day = amsterdamDay.format(new Date(m.plannedSend));
    for (const a of m.addresses) {
      if (a.count === 0) continue;
      const d = w.datasets.find((x) => x.id === a.datasetId);
      if (!d) continue;
      const entry = d.commissions.find((c) => c.start <= day && day <= c.end);
      const rate = entry ? (rates.get(`${d.id}/${entry.start}`) ?? entry.units) : null;
      out.push({
        key: `${d.partnerId}/${d.separateInvoice ? d.id : ''}`,
        month: day.slice(0, 7),
        mailingId: m.id,
        datasetId: d.id,
        addresses: a.count,
        cents: rate === null ? 0 : half(a.count * rate, 100),
        hasRate: rate !== null,
      });
    }
  }
  return out;
}

type Figures = Pick<
  StatementSummary,
  'mailings' | 'addresses' | 'amountCents' | 'vatCents' | 'totalCents' | 'missingCommission'
>;

/** The figures of each statement (by 'partner/dataset') from its pairs. */
function figuresOf(w: TestWorld, pairs: Pair[]): Record<string, Figures> {
  const out: Record<string, Figures> = {};
  const groups = new Map<string, Pair[]>();
  for (const p of pairs) groups.set(p.key, [...(groups.get(p.key) ?? []), p]);
  for (const [key, ps] of groups) {
    const p = w.partners.find((x) => x.id === key.split('/')[0]);
    const amount = ps.reduce((s, x) => s + x.cents, 0);
    const reverse = !!p && p.country !== 'NL' && EU.has(p.country) && p.vatNumber !== '';
    // + 0: a small negative amount's VAT rounds to -0 here, which toEqual tells from the API's 0.
    const vat = reverse || !p?.vatPercent ? 0 : half(amount * p.vatPercent, 100) + 0;
    out[key] = {
      mailings: new Set(ps.map((x) => x.mailingId)).size,
      addresses: ps.reduce((s, x) => s + x.addresses, 0),
      amountCents: amount,
      vatCents: vat,
      totalCents: amount + vat,
      missingCommission: ps.filter((x) => !x.hasRate).length,
    };
  }
  return out;
}

async function listed(
  w: TestWorld,
  month: string,
  state: 'proposed' | 'issued',
): Promise<Record<string, Figures>> {
  const res = await t.api('GET', `/api/statements?month=${month}`);
  expect(res.statusCode, res.body).toBe(200);
  const ids = new Set(w.partners.map((p) => p.id));
  const out: Record<string, Figures> = {};
  for (const s of (res.json() as StatementMonth).statements) {
    if (!ids.has(s.partnerId) || s.state !== state) continue;
    const { mailings, addresses, amountCents, vatCents, totalCents, missingCommission } = s;
    out[`${s.partnerId}/${s.datasetId ?? ''}`] = {
      mailings,
      addresses,
      amountCents,
      vatCents,
      totalCents,
      missingCommission,
    };
  }
  return out;
}

describe('statement figures against an independent calculation', () => {
  it('equal for every partner and month, before and after issuing and changing commissions', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, fc.integer({ min: 1, max: 1000 }), async (raw, seed) => {
        const w = build(raw);
        await insertWorld(t.db, {
          partners: w.partners,
          datasets: w.datasets.map((d) => ({
            ...d,
            commissions: d.commissions.map((c) => ({ start: c.start, end: c.end, amount: units(c.units) })),
          })),
          mailings: w.mailings,
        });
        const before = pairsOf(w, new Map());
        for (const month of MONTHS) {
          expect(await listed(w, month, 'proposed'), month).toEqual(
            figuresOf(
              w,
              before.filter((p) => p.month === month),
            ),
          );
        }
        // Issue every March statement of this world, then change every commission.
        const march = figuresOf(
          w,
          before.filter((p) => p.month === '2026-03'),
        );
        for (const key of Object.keys(march)) {
          const [partner, dataset] = key.split('/');
          const res = await t.api('POST', '/api/statements', { month: '2026-03', partner, dataset });
          expect(res.statusCode, res.body).toBe(200);
        }
        const rates = new Map<string, number>();
        for (const d of w.datasets) {
          for (const c of d.commissions) {
            const next = (c.units * 7 + seed) % 50_001;
            rates.set(`${d.id}/${c.start}`, next);
            await t.db.execute(sql`UPDATE dataset_commissions SET amount = ${units(next)}::numeric
              WHERE dataset_id = ${d.id} AND start = ${c.start}`);
          }
        }
        expect(await listed(w, '2026-03', 'issued')).toEqual(march);
        expect(await listed(w, '2026-03', 'proposed')).toEqual({});
        const after = pairsOf(w, rates);
        expect(await listed(w, '2026-02', 'proposed')).toEqual(
          figuresOf(
            w,
            after.filter((p) => p.month === '2026-02'),
          ),
        );
        // April: its own lines, and per March pair the difference as a correction (no addresses changed).
        const old = new Map(before.map((p) => [`${p.mailingId}/${p.datasetId}`, p]));
        const corrections = after
          .filter((p) => p.month === '2026-03')
          .map((p) => ({
            ...p,
            addresses: 0,
            hasRate: true,
            cents: p.cents - (old.get(`${p.mailingId}/${p.datasetId}`)?.cents ?? 0),
          }))
          .filter((p) => p.cents !== 0);
        const april = figuresOf(w, [...after.filter((p) => p.month === '2026-04'), ...corrections]);
        // A correction's rate is the one valid now: it counts as missing only when none is.
        const got = await listed(w, '2026-04', 'proposed');
        for (const f of Object.values(got)) f.missingCommission = 0;
        for (const f of Object.values(april)) f.missingCommission = 0;
        expect(got).toEqual(april);
      }),
      { numRuns: 25 },
    );
  });
});
