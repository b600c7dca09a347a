import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { allocate, makeAddresses, makeCampaign, makeMailing } from './mailing.test-helpers';

// Two mailings leaving Aangeboden at the same moment, sharing their addresses with a third that
// stays: every address ends with one send, dated the one that stays. Without the lock around the
// sent facts, the second UPDATE waits for the first's row locks and then reads the other mailings'
// states as of its own start, still seeing the first mailing as offered (a wrong last_sent_at).

const t = setupTestApp({ startWorker: false });

// Three weeks, so all three may be Aangeboden together; the latest leaves, then the middle one.
const C_SEND = '2034-03-07T09:00:00.000Z';
const B_SEND = '2034-03-14T09:00:00.000Z';
const A_SEND = '2034-03-21T09:00:00.000Z';
const ADDRESSES = 3000;
const ROUNDS = 6;

describe('sent facts under concurrent state changes', () => {
  it('two mailings leaving Aangeboden at once leave the third one as the last send', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const campaign = await makeCampaign(t, t.cookie, `Gelijktijdig ${round}`);
      const ids = await makeAddresses(t, ADDRESSES);
      const mailings: Record<string, string> = {};
      for (const [name, send] of [
        ['a', A_SEND],
        ['b', B_SEND],
        ['c', C_SEND],
      ]) {
        const m = await makeMailing(t, t.cookie, campaign, { name, plannedSend: send });
        await allocate(t, m._id, ids);
        const res = await t.api('PUT', `/api/campaigns/${campaign}/mailings/${m._id}`, {
          name,
          state: 'offered',
        });
        expect(res.statusCode, res.body).toBe(200);
        mailings[name] = m._id;
      }
      const results = await Promise.all(
        ['a', 'b'].map((name) =>
          t.api('PUT', `/api/campaigns/${campaign}/mailings/${mailings[name]}`, { name, state: 'cancelled' }),
        ),
      );
      for (const r of results) expect(r.statusCode, r.body).toBe(200);
      const wrong = await t.database.db.execute<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM addresses
        WHERE id IN ${ids} AND (sent_count <> 1 OR last_sent_at IS DISTINCT FROM ${C_SEND}::timestamptz)`);
      expect(wrong.rows[0].n, `round ${round}`).toBe(0);
    }
  });
});
