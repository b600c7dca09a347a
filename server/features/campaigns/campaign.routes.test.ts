import { beforeAll, describe, expect, it } from 'vitest';
import { type Campaign, CampaignMessages, campaignLabelMissingMessage } from '../../../common/campaigns';
import { setupTestApp } from '../../test/app';

const t = setupTestApp({ startWorker: false });
beforeAll(async () => {
  for (const type of ['Nieuwsbrief', 'Actie']) await t.api('POST', '/api/types', { type });
});

let counter = 0;
const unique = (base: string) => `${base}${++counter}x${Date.now().toString(36)}`;

async function create(body: object): Promise<Campaign> {
  const res = await t.api('POST', '/api/campaigns', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const full = {
  name: '  Voorjaarsactie ',
  customer: ' Bakkerij Jansen ',
  start: '2024-03-01',
  type: 'Nieuwsbrief',
  addresses: ' 15000 ',
  budget: '1250,50',
  externalParty: 'webpower',
  externalIds: ['12:34', '', ' 56:78 ', ''],
};

describe('POST /api/campaigns', () => {
  it('creates a campaign with trimmed text, parsed numbers and the empty ids dropped', async () => {
    const c = await create(full);
    expect(c).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Voorjaarsactie',
      mailings: [],
      customer: 'Bakkerij Jansen',
      start: '2024-03-01',
      type: 'Nieuwsbrief',
      addresses: 15000,
      budget: '1250.50',
      externalParty: 'webpower',
      externalIds: ['12:34', '56:78'],
      recordCount: 0,
    });
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).json()).toEqual(c);
  });

  it('fills the defaults when only a name is given', async () => {
    const c = await create({ name: 'Kaal' });
    expect(c).toMatchObject({
      customer: '',
      start: null,
      type: null,
      addresses: 0,
      budget: '',
      externalParty: 'tripolis',
      externalIds: [],
    });
  });

  it('accepts empty start and type as none, and a number for addresses and budget', async () => {
    const c = await create({ name: 'Leeg', start: '', type: '', addresses: 12, budget: 3.5 });
    expect(c).toMatchObject({ start: null, type: null, addresses: 12, budget: '3.5' });
  });

  it("reads addresses with Dutch thousands separators, as the list shows them: '12.500' is 12500", async () => {
    expect((await create({ name: 'Duizendtallen', addresses: '12.500' })).addresses).toBe(12_500);
    expect((await create({ name: 'Miljoen', addresses: '1.000.000' })).addresses).toBe(1_000_000);
  });

  it.each([
    ['no name', { customer: 'x' }, CampaignMessages.nameRequired],
    ['a blank name', { name: '   ' }, CampaignMessages.nameRequired],
    ['an impossible start', { name: 'x', start: '2024-02-30' }, CampaignMessages.startInvalid],
    ['a start in DD-MM-YYYY', { name: 'x', start: '01-03-2024' }, CampaignMessages.startInvalid],
    ['negative addresses', { name: 'x', addresses: '-5' }, CampaignMessages.addressesInvalid],
    ['fractional addresses', { name: 'x', addresses: 1.5 }, CampaignMessages.addressesInvalid],
    ['decimal-comma addresses', { name: 'x', addresses: '1,5' }, CampaignMessages.addressesInvalid],
    ['text addresses', { name: 'x', addresses: '12abc' }, CampaignMessages.addressesInvalid],
    ['too many addresses', { name: 'x', addresses: '99999999999' }, CampaignMessages.addressesInvalid],
    ['a text budget', { name: 'x', budget: 'duizend' }, CampaignMessages.budgetInvalid],
    ['a budget with two commas', { name: 'x', budget: '1,000,50' }, CampaignMessages.budgetInvalid],
    ['an unknown provider', { name: 'x', externalParty: 'mailchimp' }, CampaignMessages.externalPartyInvalid],
    [
      'a webpower id without colon',
      { name: 'x', externalParty: 'webpower', externalIds: ['1234'] },
      CampaignMessages.webpowerIdInvalid,
    ],
    [
      'a webpower id with letters',
      { name: 'x', externalParty: 'webpower', externalIds: ['ab:12'] },
      CampaignMessages.webpowerIdInvalid,
    ],
    [
      'two tripolis ids in one entry',
      { name: 'x', externalIds: ['abc def'] },
      CampaignMessages.tripolisIdInvalid,
    ],
    [
      'a tripolis id list with commas',
      { name: 'x', externalIds: ['a,b'] },
      CampaignMessages.tripolisIdInvalid,
    ],
    [
      'an id of 101 characters',
      { name: 'x', externalIds: ['a'.repeat(101)] },
      CampaignMessages.externalIdTooLong,
    ],
  ])('refuses %s with the Dutch message', async (_case, body, message) => {
    const res = await t.api('POST', '/api/campaigns', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
  });

  it('lists every broken rule at once', async () => {
    const res = await t.api('POST', '/api/campaigns', { name: '', budget: 'x', addresses: 'y' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        CampaignMessages.nameRequired,
        CampaignMessages.budgetInvalid,
        CampaignMessages.addressesInvalid,
      ]),
    );
  });

  it('accepts a tripolis id with a colon-free mailing id and refuses a label that does not exist', async () => {
    expect((await create({ name: 'T', externalIds: ['MAIL-123_x'] })).externalIds).toEqual(['MAIL-123_x']);
    const res = await t.api('POST', '/api/campaigns', { name: 'x', type: 'Bestaatniet' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(campaignLabelMissingMessage('Bestaatniet'));
  });

  it('answers 400, not 500, for malformed JSON and 401 without a session', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns',
      headers: { cookie: t.cookie, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(bad.statusCode).toBe(400);
    const anon = await t.app.inject({ method: 'POST', url: '/api/campaigns', payload: { name: 'x' } });
    expect(anon.statusCode).toBe(401);
  });
});

describe('GET /api/campaigns/:id', () => {
  it('answers the record count, or leaves it out with noCount', async () => {
    const c = await create({ name: 'Teller' });
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).json().recordCount).toBe(0);
    for (const q of ['?noCount', '?noCount=true', '?noCount=1']) {
      const res = await t.api('GET', `/api/campaigns/${c._id}${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('recordCount');
      expect(res.json().name).toBe('Teller');
    }
    expect((await t.api('GET', `/api/campaigns/${c._id}?noCount=false`)).json().recordCount).toBe(0);
  });

  it('lists its mailings (spec 001 §3 Campaign) on every campaign call, newest planned send first', async () => {
    const c = await create({ name: unique('Met mailings'), start: new Date().toISOString().slice(0, 10) });
    const mailing = async (body: object) => {
      const res = await t.api('POST', `/api/campaigns/${c._id}/mailings`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const older = await mailing({ name: 'Eerste', plannedSend: '2030-01-07', addresses: '1.000' });
    const newer = await mailing({ name: 'Tweede', plannedSend: '2030-02-04', state: 'cancelled' });
    const expected = [
      {
        _id: newer._id,
        name: 'Tweede',
        state: 'cancelled',
        plannedSend: newer.plannedSend,
        addresses: 0,
        recordCount: 0,
      },
      {
        _id: older._id,
        name: 'Eerste',
        state: 'draft',
        plannedSend: older.plannedSend,
        addresses: 1000,
        recordCount: 0,
      },
    ];
    expect(newer.plannedSend > older.plannedSend).toBe(true);
    const one = (await t.api('GET', `/api/campaigns/${c._id}`)).json();
    expect(one.mailings).toEqual(expected);
    expect((await t.api('GET', `/api/campaigns/${c._id}?noCount`)).json().mailings).toEqual(expected);
    const recent = (await t.api('GET', '/api/campaigns?days=1')).json() as Campaign[];
    expect(recent.find((x) => x._id === c._id)?.mailings).toEqual(expected);
    const page = (await t.api('GET', `/api/pagcampaignsearch/1/20/${encodeURIComponent(c.name)}`)).json();
    expect(page.items.map((x: Campaign) => x.mailings)).toEqual([expected]);
    const saved = await t.api('PUT', `/api/campaigns/${c._id}`, { name: c.name });
    expect(saved.json().mailings).toEqual(expected);
    // Another campaign's mailings stay its own.
    expect((await create({ name: unique('Leeg') })).mailings).toEqual([]);
  });

  it('answers 404 for an unknown id and 401 without a session', async () => {
    const res = await t.api('GET', '/api/campaigns/bestaatniet');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(CampaignMessages.notFound);
    const c = await create({ name: 'Geheim' });
    expect((await t.app.inject({ method: 'GET', url: `/api/campaigns/${c._id}` })).statusCode).toBe(401);
  });
});

describe('PUT /api/campaigns/:id', () => {
  it('saves every field', async () => {
    const c = await create(full);
    const res = await t.api('PUT', `/api/campaigns/${c._id}`, {
      name: 'Najaarsactie ',
      customer: '',
      start: '2024-10-05',
      type: 'Actie',
      addresses: '0',
      budget: '',
      externalParty: 'tripolis',
      externalIds: ['MAIL1', ''],
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      _id: c._id,
      name: 'Najaarsactie',
      mailings: [],
      customer: '',
      start: '2024-10-05',
      type: 'Actie',
      addresses: 0,
      budget: '',
      externalParty: 'tripolis',
      externalIds: ['MAIL1'],
      recordCount: 0,
    };
    expect(res.json()).toEqual(expected);
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).json()).toEqual(expected);
  });

  it('validates like create and keeps the stored campaign', async () => {
    const c = await create({ name: 'Blijft' });
    const res = await t.api('PUT', `/api/campaigns/${c._id}`, {
      name: 'Blijft',
      externalParty: 'webpower',
      externalIds: ['x'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([CampaignMessages.webpowerIdInvalid]);
    const missing = await t.api('PUT', `/api/campaigns/${c._id}`, { name: 'Blijft', type: 'Geen' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(campaignLabelMissingMessage('Geen'));
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).json()).toMatchObject({
      externalParty: 'tripolis',
      type: null,
    });
  });

  it('answers 404 for an unknown id and 401 without a session', async () => {
    const res = await t.api('PUT', '/api/campaigns/bestaatniet', { name: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(CampaignMessages.notFound);
    const c = await create({ name: 'Anoniem' });
    const anon = await t.app.inject({
      method: 'PUT',
      url: `/api/campaigns/${c._id}`,
      payload: { name: 'gewijzigd' },
    });
    expect(anon.statusCode).toBe(401);
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).json().name).toBe('Anoniem');
  });
});

describe('DELETE /api/campaigns/:id', () => {
  it('deletes a campaign, then answers 404', async () => {
    const c = await create({ name: 'Weg' });
    const res = await t.api('DELETE', `/api/campaigns/${c._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(CampaignMessages.deleted);
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).statusCode).toBe(404);
    const again = await t.api('DELETE', `/api/campaigns/${c._id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(CampaignMessages.notFound);
  });

  it('answers 401 without a session and keeps the campaign', async () => {
    const c = await create({ name: 'Houden' });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/campaigns/${c._id}` })).statusCode).toBe(401);
    expect((await t.api('GET', `/api/campaigns/${c._id}`)).statusCode).toBe(200);
  });

  it('frees its label for deletion', async () => {
    await t.api('POST', '/api/types', { type: 'Tijdelijk' });
    const c = await create({ name: 'Gebruiker', type: 'Tijdelijk' });
    expect((await t.api('DELETE', '/api/types/Tijdelijk')).statusCode).toBe(409);
    await t.api('DELETE', `/api/campaigns/${c._id}`);
    expect((await t.api('DELETE', '/api/types/Tijdelijk')).statusCode).toBe(200);
  });
});
