import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset } from '../../test/imports';
import { eraseEmails } from '../avg/erase.service';
import { whileErasing } from '../avg/suppression.test-helpers';
import { allocate, heldBy, makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';

// An allocation and a copy into a draft mailing against an erasure (AVG art. 17): each waits for an
// erasure that runs and then leaves its address out, so no erased address lands in a draft after
// the erasure took it out of the drafts.

const t = setupTestApp();
let d: ImportSetup;

beforeAll(async () => {
  d = await setupDataset(t, [columnMapping('geslacht', 'gender')], 'email');
  await importFile(t, t.cookie, d, 'email,geslacht\nw1@wacht.nl,M\nw2@wacht.nl,M\nw3@wacht.nl,M\n');
});

/** The address id of a stored e-mail. */
async function addressOf(email: string): Promise<number> {
  const { rows } = await t.db.execute<{ id: string }>(sql`SELECT id FROM addresses WHERE email = ${email}`);
  return Number(rows[0].id);
}

/** A draft mailing of a new campaign with its ids and the base URL of its selections. */
async function draft(campaignId?: string) {
  const campaign = campaignId ?? (await makeCampaign(t, t.cookie));
  const mailing = await makeMailing(t, t.cookie, campaign);
  return {
    campaignId: campaign,
    mailingId: mailing._id,
    url: `/api/campaigns/${campaign}/mailings/${mailing._id}/selections`,
  };
}

describe('allocations and copies while an address is erased', () => {
  it('an allocation waits for a running erasure and then allocates only what is left', async () => {
    const m = await draft();
    const created = await t.api('POST', m.url, {
      query: { and: [{ match: { gender: 'm' } }] },
      useCampaignLabel: false,
      activeDatasetsOnly: false,
      useBlacklist: false,
      useDate: false,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().selectionId;
    const erased = await addressOf('w1@wacht.nl');
    const res = await whileErasing(
      t,
      () => t.api('POST', `${m.url}/${id}/query`, { table: [{ dataset: d.datasetId, new: 2 }] }),
      async (tx) => {
        await eraseEmails(tx, t.ctx.columnKeys(), ['w1@wacht.nl']);
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const held = await heldBy(t, m.mailingId);
    expect(held).toHaveLength(2);
    expect(held).not.toContain(erased);
    const mailing = (await t.api('GET', `/api/campaigns/${m.campaignId}/mailings/${m.mailingId}`)).json();
    expect(mailing.recordCount).toBe(2);
  });

  it('a copy of another mailing waits for a running erasure and then leaves the erased address out', async () => {
    const source = await draft();
    const target = await draft(source.campaignId);
    const ids = await Promise.all(['w2@wacht.nl', 'w3@wacht.nl'].map(addressOf));
    await allocate(t, source.mailingId, ids, { datasetId: d.datasetId });
    const res = await whileErasing(
      t,
      () =>
        t.api('POST', `/api/campaigns/${target.campaignId}/mailings/${target.mailingId}/copy`, {
          campaign: source.campaignId,
          mailing: source.mailingId,
          type: 'notOpenedOrClicked',
        }),
      async (tx) => {
        await eraseEmails(tx, t.ctx.columnKeys(), ['w3@wacht.nl']);
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().copied).toBe(1);
    expect(await heldBy(t, target.mailingId)).toEqual([ids[0]]);
  });
});
