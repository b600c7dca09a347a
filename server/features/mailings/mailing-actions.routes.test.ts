import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CampaignMessages } from '../../../common/campaigns';
import { COPY_TYPES, type CopyType, MailingMessages } from '../../../common/mailings';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import {
  addResults,
  allocate,
  heldBy,
  makeAddresses,
  makeCampaign,
  makeMailing,
} from './mailing.test-helpers';

const t = setupTestApp({ startWorker: false });

const url = (c: string, m: string, rest = '') => `/api/campaigns/${c}/mailings/${m}${rest}`;

describe('POST .../limit', () => {
  it('removes notOpenedOrClicked, then new, opens, clicks; within one the highest dataset sort first', async () => {
    const partner = await makePartner(t.database.db);
    const low = await makeDataset(t.database.db, partner, { sort: 1 });
    const high = await makeDataset(t.database.db, partner, { sort: 9 });
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const ids = await makeAddresses(t, 8);
    // i: 0,1 clicks; 2,3 opens; 4 new/low, 5 new/high; 6 none/low, 7 none/high
    const cat = [
      'clicks',
      'clicks',
      'opens',
      'opens',
      'new',
      'new',
      'notOpenedOrClicked',
      'notOpenedOrClicked',
    ];
    const ds = [low, high, low, high, low, high, low, high];
    await allocate(t, m._id, ids, { category: (i) => cat[i], datasetId: (i) => ds[i] });
    const limit = async (n: unknown) => t.api('POST', url(c, m._id, '/limit'), { limit: n });
    const order: number[][] = [];
    let before = await heldBy(t, m._id);
    for (const n of [7, 6, 5, 4, 3, 2, 1]) {
      const res = await limit(String(n));
      expect(res.json()).toEqual({ deleted: 1, results: 0 });
      const after = await heldBy(t, m._id);
      order.push(before.filter((id) => !after.includes(id)));
      before = after;
    }
    expect(order.flat()).toEqual([ids[7], ids[6], ids[5], ids[4], ids[3], ids[2], ids[1]]);
    expect((await limit(5)).json()).toEqual({ deleted: 0, results: 0 });
    expect((await t.api('GET', url(c, m._id))).json().recordCount).toBe(1);
    expect((await limit(0)).json()).toEqual({ deleted: 1, results: 0 });
  });

  it.each([[-1], ['-3'], ['tien'], [1.5], [null], ['']])('answers 400 for limit %s', async (limit) => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const res = await t.api('POST', url(c, m._id, '/limit'), { limit });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MailingMessages.limitInvalid);
  });

  it('answers 409 for a mailing that is not a draft and 404 for an unknown one', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c, { state: 'final' });
    const res = await t.api('POST', url(c, m._id, '/limit'), { limit: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(MailingMessages.draftOnly);
    expect((await t.api('POST', url(c, 'nee', '/limit'), { limit: 1 })).statusCode).toBe(404);
  });
});

describe('GET and DELETE .../pressure', () => {
  it('counts and removes the draft’s addresses another Definitief or Aangeboden mailing of its week holds', async () => {
    const c = await makeCampaign(t, t.cookie);
    const ids = await makeAddresses(t, 10);
    const final = await makeMailing(t, t.cookie, c, { plannedSend: '2032-03-01T10:00:00Z' });
    const offered = await makeMailing(t, t.cookie, c, { plannedSend: '2032-03-07T10:00:00Z' });
    const otherWeek = await makeMailing(t, t.cookie, c, { plannedSend: '2032-03-08T10:00:00Z' });
    const draft = await makeMailing(t, t.cookie, c, { plannedSend: '2032-03-04T10:00:00Z' });
    const otherDraft = await makeMailing(t, t.cookie, c, { plannedSend: '2032-03-04T10:00:00Z' });
    await allocate(t, final._id, ids.slice(0, 3));
    await allocate(t, offered._id, ids.slice(3, 5));
    await allocate(t, otherWeek._id, ids.slice(5, 7));
    await allocate(t, otherDraft._id, ids.slice(7, 9));
    const cat = ['new', 'notOpenedOrClicked', 'opens', 'clicks', 'clicks', 'new', 'new', 'new', 'new', 'new'];
    await allocate(t, draft._id, ids, { category: (i) => cat[i] });
    await t.api('PUT', url(c, final._id), { name: 'f', state: 'final' });
    await t.api('PUT', url(c, offered._id), { name: 'o', state: 'offered' });
    await t.api('PUT', url(c, otherWeek._id), { name: 'w', state: 'final' });
    const check = await t.api('GET', url(c, draft._id, '/pressure'));
    expect(check.json()).toEqual({ new: 1, none: 1, opened: 1, clicked: 2 });
    const del = await t.api('DELETE', url(c, draft._id, '/pressure'));
    expect(del.json()).toEqual({ deleted: 5, results: 0 });
    expect(await heldBy(t, draft._id)).toEqual(ids.slice(5));
    expect((await t.api('GET', url(c, draft._id, '/pressure'))).json()).toEqual({
      new: 0,
      none: 0,
      opened: 0,
      clicked: 0,
    });
    expect((await t.api('GET', url(c, draft._id))).json().recordCount).toBe(5);
    // Now the draft can be Definitief.
    expect((await t.api('PUT', url(c, draft._id), { name: 'd', state: 'final' })).statusCode).toBe(200);
    expect((await t.api('GET', url(c, draft._id, '/pressure'))).statusCode).toBe(409);
    expect((await t.api('DELETE', url(c, draft._id, '/pressure'))).statusCode).toBe(409);
  });
});

describe('POST .../copy', () => {
  async function source() {
    const c = await makeCampaign(t, t.cookie, 'Bron');
    const a = await makeMailing(t, t.cookie, c, { name: 'A' });
    const b = await makeMailing(t, t.cookie, c, { name: 'B' });
    const ids = await makeAddresses(t, 7);
    await allocate(t, a._id, ids.slice(0, 5));
    await allocate(t, b._id, ids.slice(3, 7));
    await addResults(t, a._id, [
      { addressId: ids[0], event: 'open' },
      { addressId: ids[1], event: 'click' },
      { addressId: ids[1], event: 'open' },
      { addressId: ids[2], event: 'softBounce' },
      { addressId: ids[3], event: 'rejected' },
    ]);
    await addResults(t, b._id, [
      { addressId: ids[4], event: 'open' },
      { addressId: ids[6], event: 'hardBounce' },
    ]);
    await t.database.db.execute(sql`UPDATE addresses SET hard_bounced_at = now() WHERE id = ${ids[6]}`);
    return { c, a, b, ids };
  }

  const expected = (ids: number[]): Record<CopyType, { one: number[]; all: number[] }> => ({
    opens: { one: [ids[0], ids[1]], all: [ids[0], ids[1], ids[4]] },
    clicks: { one: [ids[1]], all: [ids[1]] },
    // notOpenedOrClicked over all: no open or click in any source mailing; the hard bounce is left out.
    notOpenedOrClicked: { one: [ids[2], ids[3], ids[4]], all: [ids[2], ids[3], ids[5]] },
    hardBounce: { one: [], all: [ids[6]] },
    softBounce: { one: [ids[2]], all: [ids[2]] },
    rejected: { one: [ids[3]], all: [ids[3]] },
  });

  it.each(COPY_TYPES)(
    'copies the %s addresses of one mailing or of all, as a new selection',
    async (type) => {
      const s = await source();
      const want = expected(s.ids)[type];
      const target = await makeCampaign(t, t.cookie, 'Doel');
      const one = await makeMailing(t, t.cookie, target);
      const res = await t.api('POST', url(target, one._id, '/copy'), {
        campaign: s.c,
        mailing: s.a._id,
        type,
        description: 'Kopie',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ message: MailingMessages.copied, copied: want.one.length });
      expect(await heldBy(t, one._id)).toEqual(want.one);
      const all = await makeMailing(t, t.cookie, target);
      const res2 = await t.api('POST', url(target, all._id, '/copy'), {
        campaign: s.c,
        type,
        description: '',
      });
      expect(await heldBy(t, all._id)).toEqual(want.all);
      const m = (await t.api('GET', url(target, all._id))).json();
      expect(m.selections).toEqual([res2.json().selectionId]);
      expect(m.recordCount).toBe(want.all.length);
    },
  );

  it('skips what the draft already holds and refuses a non-draft, unknown source or bad type', async () => {
    const s = await source();
    const first = await t.api('POST', url(s.c, s.b._id, '/copy'), { campaign: s.c, type: 'opens' });
    // b holds ids 3..6; the opens of all are 0, 1 and 4: 4 is there already.
    expect(first.json().copied).toBe(2);
    const again = await t.api('POST', url(s.c, s.b._id, '/copy'), { campaign: s.c, type: 'opens' });
    expect(again.json().copied).toBe(0);
    const final = await makeMailing(t, t.cookie, s.c, { state: 'final' });
    expect(
      (await t.api('POST', url(s.c, final._id, '/copy'), { campaign: s.c, type: 'opens' })).statusCode,
    ).toBe(409);
    const unknown = await t.api('POST', url(s.c, s.b._id, '/copy'), { campaign: 'nee', type: 'opens' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(CampaignMessages.notFound);
    const other = await t.api('POST', url(s.c, s.b._id, '/copy'), {
      campaign: s.c,
      mailing: 'nee',
      type: 'opens',
    });
    expect(other.json().message).toBe(MailingMessages.notFound);
    const bad = await t.api('POST', url(s.c, s.b._id, '/copy'), { campaign: s.c, type: 'bounces' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MailingMessages.copyTypeInvalid);
  });
});
