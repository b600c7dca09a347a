import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Mailing } from '../../../common/mailings';
import type { PartnerReport } from '../../../common/reports';
import { setupTestApp } from '../../test/app';
import { addResults, allocate, makeAddresses } from '../mailings/mailing.test-helpers';
import { buildWorld, type WorldMailing } from './report.test-helpers';

// The facts a report keeps (migration 0035): every write to a mailing's addresses or results makes
// the next report compute them again, and facts computed while a write is under way belong to the
// version they were computed from.

const t = setupTestApp({ startWorker: false });

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
    const { campaign, made } = await buildWorld(t, world);
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

describe('facts computed while a write is under way', () => {
  it('belong to the version they were computed from: a write that commits later is in the next report', async () => {
    const world: WorldMailing[] = [
      {
        state: 'offered',
        plannedSend: '2025-02-15T09:00:00Z',
        addresses: [
          { dataset: 0, events: [] },
          { dataset: 0, events: [] },
        ],
      },
    ];
    const { made } = await buildWorld(t, world);
    const [held] = (
      await t.db.execute<{ address_id: string }>(
        sql`SELECT address_id FROM mailing_addresses WHERE mailing_id = ${made[0]._id} ORDER BY address_id LIMIT 1`,
      )
    ).rows;
    // A results import that has written its rows (and raised the version) but not committed yet.
    const writer = await t.database.pool.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO mailing_results (mailing_id, address_id, event, at) VALUES ($1, $2, 'open', now())`,
        [made[0]._id, held.address_id],
      );
      const during = (
        await t.api('GET', '/api/reports/partners?from=2025-02&to=2025-02')
      ).json() as PartnerReport;
      expect(during.total).toMatchObject({ delivered: 2, opens: 0 });
      await writer.query('COMMIT');
    } finally {
      writer.release();
    }
    const after = (
      await t.api('GET', '/api/reports/partners?from=2025-02&to=2025-02')
    ).json() as PartnerReport;
    expect(after.total).toMatchObject({ delivered: 2, opens: 1 });
  });
});
