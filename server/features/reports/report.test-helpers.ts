import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Mailing } from '../../../common/mailings';
import { pgTextArray } from '../../lib/pg-array';
import type { TestClient } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import {
  addResults,
  allocate,
  heldBy,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from '../mailings/mailing.test-helpers';
import { saveMailingFacts } from './report.queries';

// Random worlds for the reports' tests: mailings in every state, planned sends around Dutch month
// ends, addresses from several partners' datasets and result events at random times; some sent
// with their results, taken back to Concept, addresses removed and moved to their state again.

/** A result event kind. */
export type Event = 'open' | 'click' | 'hardBounce' | 'softBounce' | 'rejected';
/** Each way that takes addresses out of a draft: limit, pressure delete, a selection's delete, an erasure. */
export const REMOVALS = ['limit', 'pressure', 'selection', 'erasure'] as const;
/** A way that takes addresses out of a draft. */
export type Removal = (typeof REMOVALS)[number];
/** A mailing of a random world: its state, planned send and addresses with their events. */
export interface WorldMailing {
  state: 'draft' | 'final' | 'offered' | 'cancelled';
  plannedSend: string;
  /** Per address: its dataset index and its events (kind, minutes after the send; negative = before). */
  addresses: { dataset: number; events: { event: Event; minutes: number }[] }[];
  /**
   * Through the API: Aangeboden, its results in, back to Concept, all but `keep` addresses taken out
   * by `path` (limit: to `keep`; the others: those from index `keep` on), then to `state`.
   */
  back?: { path: Removal; keep: number };
}

const SENDS = [
  '2025-01-31T22:30:00Z', // 1 February in Amsterdam
  '2025-02-15T09:00:00Z',
  '2025-03-30T21:59:00Z', // 30 March 23:59 (summer time from that night)
  '2025-03-31T22:00:00Z', // 1 April 00:00
  '2025-12-31T23:30:00Z', // 1 January 2026
  '2024-12-31T22:59:00Z', // 31 December 2024, outside the period
];

/** Random worlds: one to six mailings of up to twelve addresses over four datasets of two partners. */
export const worldArb = fc.array(
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
    back: fc.option(fc.record({ path: fc.constantFrom(...REMOVALS), keep: fc.nat(12) }), {
      nil: undefined,
      freq: 2,
    }),
  }) as fc.Arbitrary<WorldMailing>,
  { minLength: 1, maxLength: 6 },
);

/** The month of an instant in the Dutch calendar, computed by Intl (not by the database). */
export function dutchMonth(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Amsterdam',
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(new Date(iso));
  return `${parts.find((p) => p.type === 'year')?.value}-${parts.find((p) => p.type === 'month')?.value}`;
}

/**
 * Builds the world through the factories and the mailings API; returns its datasets, partners and
 * mailings, and `kept`: the world as the mailings hold it after their removals (the addresses
 * taken out left out), the figures of which every screen must give. Checks on the way, for each
 * mailing taken back: the answer of a limit or pressure delete counts the addresses and results it
 * took, no mailing keeps a result of an address it does not hold, and the sent facts are those of
 * the mailings Aangeboden now.
 */
export async function buildWorld(t: TestClient, world: WorldMailing[]) {
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
  const kept: WorldMailing[] = [];
  for (const w of world) {
    const m = await makeMailing(t, t.cookie, campaign, { plannedSend: w.plannedSend });
    const ids = await makeAddresses(t, w.addresses.length);
    const datasetId = (from: number) => (i: number) => datasets[w.addresses[from + i].dataset].id;
    // A selection's delete takes the addresses from `keep` on: they are a second selection.
    const split = w.back?.path === 'selection' ? Math.min(w.back.keep, ids.length) : ids.length;
    if (split > 0) await allocate(t, m._id, ids.slice(0, split), { datasetId: datasetId(0) });
    const second =
      split < ids.length ? await allocate(t, m._id, ids.slice(split), { datasetId: datasetId(split) }) : null;
    const events = w.addresses.flatMap((a, i) =>
      a.events.map((e) => ({
        addressId: ids[i],
        event: e.event,
        at: new Date(Date.parse(w.plannedSend) + e.minutes * 60_000).toISOString(),
      })),
    );
    // Two events of one kind at one moment are one result (the results' key).
    const unique = [...new Map(events.map((e) => [`${e.addressId}|${e.event}|${e.at}`, e])).values()];
    if (w.back) {
      const answer = await takeBack(t, campaign, m, w, ids, second, unique);
      const held = new Set(await heldBy(t, m._id));
      const removed = ids.filter((id) => !held.has(id));
      expect(removed.length, w.back.path).toBe(Math.max(ids.length - w.back.keep, 0));
      if (answer) {
        expect(answer.deleted).toBe(removed.length);
        expect(answer.results).toBe(unique.filter((e) => !held.has(e.addressId)).length);
      }
      const sent = await t.db.execute<{ id: string; sent_count: number }>(sql`
        SELECT id::text, sent_count FROM addresses WHERE id = ANY(${pgTextArray(ids.map(String))}::bigint[])`);
      for (const r of sent.rows)
        expect(r.sent_count, `sent_count of ${r.id}`).toBe(
          held.has(Number(r.id)) && w.state === 'offered' ? 1 : 0,
        );
      kept.push({ ...w, addresses: w.addresses.filter((_, i) => held.has(ids[i])) });
    } else {
      await addResults(t, m._id, unique);
      // The state set directly: a random world breaks the pressure rule the API guards.
      await t.db.execute(sql`UPDATE mailings SET state = ${w.state} WHERE id = ${m._id}`);
      kept.push(w);
    }
    made.push(m);
  }
  const strays = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM mailing_results r
    WHERE NOT EXISTS (SELECT 1 FROM mailing_addresses ma WHERE ma.mailing_id = r.mailing_id AND ma.address_id = r.address_id)`);
  expect(strays.rows[0].n, 'results of addresses not in their mailing').toBe(0);
  return { campaign, datasets, made, kept, partnerA };
}

/**
 * A mailing of the world sent (Aangeboden) with its results and facts kept at that version, taken
 * back to Concept, its addresses removed by `w.back.path` and moved to `w.state`, all through the
 * API; returns the answer of a limit or pressure delete.
 */
async function takeBack(
  t: TestClient,
  campaign: string,
  m: Mailing,
  w: WorldMailing,
  ids: number[],
  second: string | null,
  results: { addressId: number; event: string; at: string }[],
): Promise<{ deleted: number; results: number } | undefined> {
  const base = `/api/campaigns/${campaign}/mailings/${m._id}`;
  const ok = async (res: Promise<{ statusCode: number; body: string; json: () => unknown }>) => {
    const r = await res;
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { deleted: number; results: number };
  };
  const put = (state: string) =>
    ok(t.api('PUT', base, { name: 'Verzending', state, plannedSend: w.plannedSend }));
  await put('offered');
  await addResults(t, m._id, results);
  // Kept facts of the sent mailing: the report after the removal must not read them.
  await saveMailingFacts(t.db, m._id);
  await put('draft');
  const { path, keep } = w.back!;
  const doomed = ids.slice(keep);
  let answer: { deleted: number; results: number } | undefined;
  if (path === 'limit') answer = await ok(t.api('POST', `${base}/limit`, { limit: keep }));
  else if (path === 'pressure') {
    // Another campaign's Definitief mailing of the same day holds the addresses to go.
    const other = await makeMailing(t, t.cookie, await makeCampaign(t, t.cookie), {
      plannedSend: w.plannedSend,
    });
    if (doomed.length > 0) await allocate(t, other._id, doomed);
    await t.db.execute(sql`UPDATE mailings SET state = 'final' WHERE id = ${other._id}`);
    answer = await ok(t.api('DELETE', `${base}/pressure`));
  } else if (path === 'selection') {
    if (second) await ok(t.api('DELETE', `${base}/selections/${second}`));
  } else {
    for (const id of doomed) {
      const email = await t.db.execute<{ email: string }>(sql`SELECT email FROM addresses WHERE id = ${id}`);
      await ok(t.api('POST', '/api/avg/erase', { email: email.rows[0].email }));
    }
  }
  await put(w.state);
  return answer;
}
