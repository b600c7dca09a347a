import { expect } from 'vitest';
import type { TestClient } from '../../test/app';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';

/**
 * Makes a selection (on a new campaign's new mailing) whose tree is one Bestandsmatch line `l1`
 * ('lijst.csv', on the generated e-mail base `gen_id`); returns its id and URL.
 */
export async function intersectSelection(t: TestClient): Promise<{ selectionId: string; url: string }> {
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  const url = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  const created = await t.api('POST', url, {
    query: { and: [{ intersect: { id: 'l1', name: 'lijst.csv', fields: ['gen_id'] } }] },
    useCampaignLabel: false,
    activeDatasetsOnly: false,
    useBlacklist: false,
    useDate: false,
  });
  expect(created.statusCode, created.body).toBe(200);
  const selectionId: string = created.json().selectionId;
  return { selectionId, url: `${url}/${selectionId}` };
}
