import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CampaignMessages } from '../../../common/campaigns';
import { type Mailing, MailingMessages } from '../../../common/mailings';
import { setupTestApp } from '../../test/app';
import { allocate, makeAddresses, makeCampaign, makeMailing } from './mailing.test-helpers';

const t = setupTestApp({ startWorker: false });

const url = (c: string, m?: string) => `/api/campaigns/${c}/mailings${m ? `/${m}` : ''}`;

describe('POST /api/campaigns/:c/mailings', () => {
  it('creates a Concept mailing with every field, trimmed, the empty external id dropped', async () => {
    const c = await makeCampaign(t, t.cookie);
    const res = await t.api('POST', url(c), {
      name: ' Nieuwsbrief maart ',
      plannedSend: '2030-03-04T08:30:00.000Z',
      budget: '0,25',
      addresses: '15000',
      interests: ['Reizen', 'Koken', 'Reizen'],
      externalParty: 'webpower',
      externalId: ['12:34', ''],
    });
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json() as Mailing;
    expect(m).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      campaign: c,
      name: 'Nieuwsbrief maart',
      state: 'draft',
      plannedSend: '2030-03-04T08:30:00.000Z',
      budget: '0.25',
      addresses: 15000,
      interests: ['Reizen', 'Koken'],
      externalParty: 'webpower',
      externalId: ['12:34'],
      recordCount: 0,
      selections: [],
      results: { opens: 0, clicks: 0, bounces: 0 },
    });
    expect((await t.api('GET', url(c, m._id))).json()).toEqual(m);
  });

  it('defaults to tripolis, Concept and a planned send of now; a bare day is midnight in Amsterdam', async () => {
    const c = await makeCampaign(t, t.cookie);
    const before = Date.now();
    const m = (await t.api('POST', url(c), { name: 'Kaal' })).json() as Mailing;
    expect(m).toMatchObject({ state: 'draft', externalParty: 'tripolis', externalId: [], interests: [] });
    expect(Date.parse(m.plannedSend)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(m.plannedSend)).toBeLessThanOrEqual(Date.now() + 1000);
    const day = (await t.api('POST', url(c), { name: 'Dag', plannedSend: '2030-07-01' })).json() as Mailing;
    expect(day.plannedSend).toBe('2030-06-30T22:00:00.000Z');
  });

  it.each([
    ['no name', { plannedSend: '2030-01-01' }, MailingMessages.nameRequired],
    ['an unknown state', { name: 'x', state: 'sent' }, MailingMessages.stateInvalid],
    ['an impossible day', { name: 'x', plannedSend: '2030-02-30' }, MailingMessages.plannedSendInvalid],
    ['a Dutch date', { name: 'x', plannedSend: '01-02-2030' }, MailingMessages.plannedSendInvalid],
    ['text addresses', { name: 'x', addresses: 'veel' }, CampaignMessages.addressesInvalid],
    ['a text budget', { name: 'x', budget: 'duur' }, CampaignMessages.budgetInvalid],
    [
      'a webpower id without colon',
      { name: 'x', externalParty: 'webpower', externalId: ['1234'] },
      CampaignMessages.webpowerIdInvalid,
    ],
    ['a tripolis id with a space', { name: 'x', externalId: ['a b'] }, CampaignMessages.tripolisIdInvalid],
  ])('refuses %s with 400 and the Dutch message', async (_case, body, message) => {
    const c = await makeCampaign(t, t.cookie);
    const res = await t.api('POST', url(c), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
  });

  it('answers 404 for an unknown campaign and 401 without a session', async () => {
    const res = await t.api('POST', url('bestaatniet'), { name: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(CampaignMessages.notFound);
    const anon = await t.app.inject({ method: 'GET', url: url('bestaatniet') });
    expect(anon.statusCode).toBe(401);
  });
});

describe('GET, PUT and DELETE a mailing', () => {
  it('lists a campaign’s mailings newest planned send first, with selections and counts', async () => {
    const c = await makeCampaign(t, t.cookie);
    const old = await makeMailing(t, t.cookie, c, { name: 'Oud', plannedSend: '2030-01-01T10:00:00Z' });
    const late = await makeMailing(t, t.cookie, c, { name: 'Laat', plannedSend: '2030-05-01T10:00:00Z' });
    const ids = await makeAddresses(t, 3);
    const sel = await allocate(t, old._id, ids);
    const list = (await t.api('GET', url(c))).json() as Mailing[];
    expect(list.map((m) => m.name)).toEqual(['Laat', 'Oud']);
    expect(list[1]).toMatchObject({ recordCount: 3, selections: [sel] });
    expect(list[0]._id).toBe(late._id);
    expect((await t.api('GET', url('bestaatniet'))).statusCode).toBe(404);
  });

  it('answers 404 with the spec text for an unknown mailing or one of another campaign', async () => {
    const c = await makeCampaign(t, t.cookie);
    const other = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, other);
    for (const path of [url(c, 'bestaatniet'), url(c, m._id)]) {
      const res = await t.api('GET', path);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(MailingMessages.notFound);
    }
    expect((await t.api('GET', url('bestaatniet', m._id))).json().message).toBe(CampaignMessages.notFound);
    expect((await t.api('PUT', url(c, m._id), { name: 'x' })).statusCode).toBe(404);
  });

  it('saves every field and keeps the planned send when none is sent', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const res = await t.api('PUT', url(c, m._id), {
      name: 'Bewerkt',
      budget: '1.5',
      addresses: 10,
      interests: ['Sport'],
      externalParty: 'tripolis',
      externalId: ['MAIL-1', ''],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Bewerkt',
      plannedSend: m.plannedSend,
      budget: '1.5',
      addresses: 10,
      interests: ['Sport'],
      externalId: ['MAIL-1'],
      state: 'draft',
    });
  });

  it('deletes a draft, and refuses with 409 to delete another state', async () => {
    const c = await makeCampaign(t, t.cookie);
    const draft = await makeMailing(t, t.cookie, c);
    await allocate(t, draft._id, await makeAddresses(t, 2));
    const res = await t.api('DELETE', url(c, draft._id));
    expect(res.json()).toEqual({ message: MailingMessages.deleted });
    expect((await t.api('GET', url(c, draft._id))).statusCode).toBe(404);
    const left = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${draft._id}`,
    );
    expect(left.rows[0].n).toBe(0);
    const final = await makeMailing(t, t.cookie, c, { state: 'final' });
    const refused = await t.api('DELETE', url(c, final._id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MailingMessages.draftOnly);
    expect((await t.api('DELETE', url(c, 'bestaatniet'))).statusCode).toBe(404);
  });

  it('makes the campaign’s recordCount the sum of its mailings', async () => {
    const c = await makeCampaign(t, t.cookie);
    const a = await makeMailing(t, t.cookie, c);
    const b = await makeMailing(t, t.cookie, c);
    await allocate(t, a._id, await makeAddresses(t, 3));
    await allocate(t, b._id, await makeAddresses(t, 4));
    expect((await t.api('GET', `/api/campaigns/${c}`)).json().recordCount).toBe(7);
    const listed = (await t.api('GET', '/api/pagcampaigns/1/100'))
      .json()
      .items.find((x: { _id: string }) => x._id === c);
    expect(listed.recordCount).toBe(7);
  });
});

describe('state rules', () => {
  const sentFacts = async (ids: number[]) =>
    (
      await t.database.db.execute<{ id: number; sent_count: number; last_sent_at: Date | null }>(
        sql`SELECT id, sent_count, last_sent_at FROM addresses WHERE id IN ${ids} ORDER BY id`,
      )
    ).rows.map((r) => [r.sent_count, r.last_sent_at ? new Date(r.last_sent_at).toISOString() : null]);

  it('Aangeboden counts as sent; moving out undoes exactly that, back to the other sends', async () => {
    const c = await makeCampaign(t, t.cookie);
    const ids = await makeAddresses(t, 2);
    const early = await makeMailing(t, t.cookie, c, { plannedSend: '2030-01-02T09:00:00.000Z' });
    const late = await makeMailing(t, t.cookie, c, { plannedSend: '2030-02-06T09:00:00.000Z' });
    await allocate(t, early._id, ids);
    await allocate(t, late._id, [ids[0]]);
    const put = (m: Mailing, body: object) => t.api('PUT', url(c, m._id), { name: m.name, ...body });
    expect((await put(early, { state: 'offered' })).statusCode).toBe(200);
    expect((await put(late, { state: 'offered' })).statusCode).toBe(200);
    expect(await sentFacts(ids)).toEqual([
      [2, '2030-02-06T09:00:00.000Z'],
      [1, '2030-01-02T09:00:00.000Z'],
    ]);
    // Moving the late send while Aangeboden moves its sent date.
    expect((await put(late, { state: 'offered', plannedSend: '2030-03-06T09:00:00Z' })).statusCode).toBe(200);
    expect((await sentFacts(ids))[0]).toEqual([2, '2030-03-06T09:00:00.000Z']);
    expect((await put(late, { state: 'cancelled' })).statusCode).toBe(200);
    expect(await sentFacts(ids)).toEqual([
      [1, '2030-01-02T09:00:00.000Z'],
      [1, '2030-01-02T09:00:00.000Z'],
    ]);
    expect((await put(early, { state: 'draft' })).statusCode).toBe(200);
    expect(await sentFacts(ids)).toEqual([
      [0, null],
      [0, null],
    ]);
  });

  it('deleting a campaign undoes the sends of its Aangeboden mailings', async () => {
    const c = await makeCampaign(t, t.cookie);
    const keep = await makeCampaign(t, t.cookie);
    const ids = await makeAddresses(t, 2);
    const gone = await makeMailing(t, t.cookie, c, { plannedSend: '2030-04-02T09:00:00.000Z' });
    const stays = await makeMailing(t, t.cookie, keep, { plannedSend: '2030-03-05T09:00:00.000Z' });
    await allocate(t, gone._id, ids);
    await allocate(t, stays._id, [ids[0]]);
    await t.api('PUT', url(c, gone._id), { name: 'g', state: 'offered' });
    await t.api('PUT', url(keep, stays._id), { name: 's', state: 'offered' });
    expect((await t.api('DELETE', `/api/campaigns/${c}`)).statusCode).toBe(200);
    expect(await sentFacts(ids)).toEqual([
      [1, '2030-03-05T09:00:00.000Z'],
      [0, null],
    ]);
  });

  it('refuses a move to Definitief that breaks the weekly rule with 409 and the counts by category', async () => {
    const c = await makeCampaign(t, t.cookie);
    const ids = await makeAddresses(t, 6);
    const first = await makeMailing(t, t.cookie, c, { plannedSend: '2030-01-07T09:00:00Z' }); // a Monday
    const second = await makeMailing(t, t.cookie, c, { plannedSend: '2030-01-13T20:00:00Z' }); // that Sunday
    const nextWeek = await makeMailing(t, t.cookie, c, { plannedSend: '2030-01-14T09:00:00Z' });
    await allocate(t, first._id, ids.slice(0, 4));
    const categories = ['new', 'notOpenedOrClicked', 'opens', 'clicks', 'clicks', 'new'];
    await allocate(t, second._id, ids, { category: (i) => categories[i] });
    await allocate(t, nextWeek._id, ids);
    expect((await t.api('PUT', url(c, first._id), { name: 'a', state: 'final' })).statusCode).toBe(200);
    const refused = await t.api('PUT', url(c, second._id), { name: 'b', state: 'final' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: MailingMessages.pressureConflict(4),
      new: 1,
      none: 1,
      opened: 1,
      clicked: 1,
    });
    expect((await t.api('GET', url(c, second._id))).json().state).toBe('draft');
    // Aangeboden holds pressure too; another week does not conflict.
    expect((await t.api('PUT', url(c, second._id), { name: 'b', state: 'offered' })).statusCode).toBe(409);
    expect((await t.api('PUT', url(c, nextWeek._id), { name: 'n', state: 'final' })).statusCode).toBe(200);
    // Moving a Definitief mailing into a taken week is refused as well.
    const move = await t.api('PUT', url(c, nextWeek._id), {
      name: 'n',
      state: 'final',
      plannedSend: '2030-01-09T09:00:00Z',
    });
    expect(move.statusCode).toBe(409);
    // Geannuleerd frees the addresses.
    expect((await t.api('PUT', url(c, first._id), { name: 'a', state: 'cancelled' })).statusCode).toBe(200);
    expect((await t.api('PUT', url(c, second._id), { name: 'b', state: 'final' })).statusCode).toBe(200);
  });
});

describe('GET /api/pressure', () => {
  it('lists per planned send day the addresses of Definitief and Aangeboden mailings, ascending', async () => {
    const c = await makeCampaign(t, t.cookie);
    const a = await makeMailing(t, t.cookie, c, { plannedSend: '2031-06-03T23:30:00Z' }); // 4 June in Amsterdam
    const b = await makeMailing(t, t.cookie, c, { plannedSend: '2031-06-02T08:00:00Z' });
    const d = await makeMailing(t, t.cookie, c, { plannedSend: '2031-06-02T09:00:00Z' });
    await allocate(t, a._id, await makeAddresses(t, 3));
    await allocate(t, b._id, await makeAddresses(t, 2));
    await allocate(t, d._id, await makeAddresses(t, 5));
    await t.api('PUT', url(c, a._id), { name: 'a', state: 'final' });
    await t.api('PUT', url(c, b._id), { name: 'b', state: 'offered' });
    const res = (await t.api('GET', '/api/pressure')).json() as { date: string; count: number }[];
    const mine = res.filter((e) => e.date.startsWith('2031-06'));
    expect(mine).toEqual([
      { date: '2031-06-02', count: 2 },
      { date: '2031-06-04', count: 3 },
    ]);
    expect(res.map((e) => e.date)).toEqual([...res.map((e) => e.date)].sort());
  });
});
