import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { allocate, makeAddresses, makeCampaign, makeMailing } from './mailing.test-helpers';
import {
  importProviderResults,
  type ProviderEvent,
  ProviderMessages,
  type ResultsProvider,
} from './providers';

const t = setupTestApp({ startWorker: false });

/** A provider that answers from memory and records which ids it was asked for. */
class FakeProvider implements ResultsProvider {
  readonly asked: string[] = [];
  constructor(
    readonly party: 'tripolis' | 'webpower',
    private readonly events: Record<string, ProviderEvent[]>,
  ) {}
  async *fetchResults(externalId: string): AsyncIterable<ProviderEvent> {
    this.asked.push(externalId);
    yield* this.events[externalId] ?? [];
  }
}

describe('importProviderResults', () => {
  it('applies the events of every external id like a results file, idempotently', async () => {
    const c = await makeCampaign(t, t.cookie);
    const tag = Math.random().toString(36).slice(2, 8);
    const emails = [`x.${tag}@voorbeeld.nl`, `y.${tag}@voorbeeld.nl`];
    const ids = await makeAddresses(t, 2, emails);
    const m = await makeMailing(t, t.cookie, c, {
      externalParty: 'webpower',
      externalId: ['12:34', '12:35'],
      interests: ['Tuin'],
    });
    await allocate(t, m._id, ids);
    const at = new Date('2031-01-05T07:30:00.000Z');
    const fake = new FakeProvider('webpower', {
      '12:34': [
        { email: emails[0], event: 'click', at, os: 'Linux' },
        { email: `onbekend.${tag}@voorbeeld.nl`, event: 'open', at },
      ],
      '12:35': [{ email: emails[1].toUpperCase(), event: 'hardBounce', at }],
    });
    const first = await importProviderResults(t.database, m._id, { webpower: fake });
    const skippedBy = { invalid: 0, notInMailing: 1, unknownEvent: 0, invalidDate: 0 };
    expect(first).toEqual({ read: 3, saved: 2, unchanged: 0, skipped: 1, skippedBy });
    expect(fake.asked).toEqual(['12:34', '12:35']);
    const again = await importProviderResults(t.database, m._id, { webpower: fake });
    expect(again).toEqual({ read: 3, saved: 0, unchanged: 2, skipped: 1, skippedBy });
    const rows = await t.database.db.execute(sql`
      SELECT (last_click_at = ${at.toISOString()}::timestamptz) AS clicked, os, click_interests,
        (hard_bounced_at = ${at.toISOString()}::timestamptz) AS bounced
      FROM addresses WHERE id IN ${ids} ORDER BY id`);
    expect(rows.rows).toEqual([
      { clicked: true, os: ['Linux'], click_interests: ['Tuin'], bounced: null },
      { clicked: null, os: [], click_interests: [], bounced: true },
    ]);
  });

  it('refuses a provider without an adapter, a mailing without external id, and an unknown mailing', async () => {
    const c = await makeCampaign(t, t.cookie);
    const tripolis = await makeMailing(t, t.cookie, c, { externalId: ['MAIL-1'] });
    const fake = new FakeProvider('webpower', {});
    await expect(importProviderResults(t.database, tripolis._id, { webpower: fake })).rejects.toMatchObject({
      statusCode: 409,
      message: ProviderMessages.noAdapter('tripolis'),
    });
    const bare = await makeMailing(t, t.cookie, c, { externalParty: 'webpower' });
    await expect(importProviderResults(t.database, bare._id, { webpower: fake })).rejects.toMatchObject({
      statusCode: 409,
      message: ProviderMessages.noExternalId,
    });
    await expect(importProviderResults(t.database, 'nee', { webpower: fake })).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
