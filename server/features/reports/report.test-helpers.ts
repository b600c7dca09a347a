import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Mailing } from '../../../common/mailings';
import type { TestClient } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import {
  addResults,
  allocate,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from '../mailings/mailing.test-helpers';

// Random worlds for the reports' tests: mailings in every state, planned sends around Dutch month
// ends, addresses from several partners' datasets and result events at random times.

/** A result event kind. */
export type Event = 'open' | 'click' | 'hardBounce' | 'softBounce' | 'rejected';
/** A mailing of a random world: its state, planned send and addresses with their events. */
export interface WorldMailing {
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

/** Builds the world through the factories and the mailings API; returns its datasets, partners and mailings. */
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
