import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, CampaignPage } from '../../../common/campaigns';
import { CampaignMessages } from '../../../common/campaigns';
import { setupTestApp } from '../../test/app';

/** A date `offset` days from today as YYYY-MM-DD. */
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const t = setupTestApp({ startWorker: false });
// 25 campaigns of one customer, one a day from 101 to 125 days ahead of today (campaign 25
// newest): always in the future, and newer than any campaign another test makes.
const made: Campaign[] = [];
beforeAll(async () => {
  await t.api('POST', '/api/types', { type: 'Seizoen' });
  for (let i = 1; i <= 25; i++) {
    const res = await t.api('POST', '/api/campaigns', {
      name: `Reeks ${String(i).padStart(2, '0')}`,
      customer: 'Pagina BV',
      start: day(100 + i),
    });
    made.push(res.json());
  }
});
const names = (page: CampaignPage) => page.items.map((c) => c.name);

describe('GET /api/pagcampaigns/:page/:pageSize', () => {
  it('answers pages of 20, newest start first, with pages and total', async () => {
    const first = (await t.api('GET', '/api/pagcampaigns/1/20')).json() as CampaignPage;
    const total = first.total;
    expect(total).toBeGreaterThanOrEqual(25);
    expect(first.pages).toBe(Math.ceil(total / 20));
    expect(first.items).toHaveLength(20);
    expect(names(first).slice(0, 3)).toEqual(['Reeks 25', 'Reeks 24', 'Reeks 23']);
    expect(first.items[0]).toEqual({ ...made[24], recordCount: 0 });
    const second = (await t.api('GET', '/api/pagcampaigns/2/20')).json() as CampaignPage;
    expect(second.items).toHaveLength(total - 20);
    expect(second.items.map((c) => c._id)).not.toContain(first.items[0]._id);
    const all = [...first.items, ...second.items].map((c) => c._id);
    expect(new Set(all).size).toBe(total);
  });

  it('puts campaigns without a start last and answers an empty page past the end', async () => {
    const none = (await t.api('POST', '/api/campaigns', { name: 'Zonder start' })).json() as Campaign;
    const page = (await t.api('GET', '/api/pagcampaigns/1/100')).json() as CampaignPage;
    expect(page.items.at(-1)?._id).toBe(none._id);
    const past = (await t.api('GET', '/api/pagcampaigns/99/20')).json() as CampaignPage;
    expect(past.items).toEqual([]);
    expect(past.total).toBe(page.total);
  });

  it.each(['0/20', 'een/20', '1/0', '1/101', '1/2.5', '-1/20'])(
    'answers 400 for page/size %s',
    async (path) => {
      const res = await t.api('GET', `/api/pagcampaigns/${path}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(CampaignMessages.pageInvalid);
    },
  );

  it('answers 401 without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/pagcampaigns/1/20' })).statusCode).toBe(401);
  });
});

describe('GET /api/pagcampaignsearch/:page/:pageSize/:term', () => {
  it('searches the customer case-insensitively and paginates the hits', async () => {
    const first = (await t.api('GET', '/api/pagcampaignsearch/1/20/pAgInA%20b')).json() as CampaignPage;
    expect(first).toMatchObject({ pages: 2, total: 25 });
    expect(names(first)[0]).toBe('Reeks 25');
    const second = (await t.api('GET', '/api/pagcampaignsearch/2/20/pagina')).json() as CampaignPage;
    expect(names(second)).toEqual(['Reeks 05', 'Reeks 04', 'Reeks 03', 'Reeks 02', 'Reeks 01']);
  });

  it('searches name, id and label, and treats % and _ as plain characters', async () => {
    const labelled = (
      await t.api('POST', '/api/campaigns', { name: 'Met label', type: 'Seizoen' })
    ).json() as Campaign;
    const odd = (await t.api('POST', '/api/campaigns', { name: '100% korting_nu' })).json() as Campaign;
    const search = async (term: string) =>
      (
        (await t.api('GET', `/api/pagcampaignsearch/1/20/${encodeURIComponent(term)}`)).json() as CampaignPage
      ).items.map((c) => c._id);
    expect(await search('reeks 1')).toHaveLength(10);
    expect(await search(made[3]._id.toUpperCase())).toEqual([made[3]._id]);
    expect(await search('seizoen')).toEqual([labelled._id]);
    expect(await search('0% k')).toEqual([odd._id]);
    expect(await search('g_nu')).toEqual([odd._id]);
    expect(await search('k_rting')).toEqual([]);
    expect(await search('%')).toEqual([odd._id]);
    expect(await search('niets zoals dit')).toEqual([]);
  });

  it('answers 400 for a term longer than 100 characters and 401 without a session', async () => {
    expect((await t.api('GET', `/api/pagcampaignsearch/1/20/${'a'.repeat(101)}`)).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/pagcampaignsearch/1/20/a' })).statusCode).toBe(
      401,
    );
  });
});

describe('GET /api/campaigns?days=', () => {
  it('lists campaigns started within the last days or in the future, newest first (default 30)', async () => {
    const make = async (name: string, offset: number) =>
      ((await t.api('POST', '/api/campaigns', { name, start: day(offset) })).json() as Campaign)._id;
    const future = await make('Toekomst', 3);
    const recent = await make('Recent', -10);
    const older = await make('Ouder', -45);
    const old = await make('Oud', -400);
    const ids = async (query: string) =>
      ((await t.api('GET', `/api/campaigns${query}`)).json() as Campaign[]).map((c) => c._id);
    const mine = (list: string[]) => list.filter((id) => [future, recent, older, old].includes(id));

    expect(mine(await ids(''))).toEqual([future, recent]);
    expect(mine(await ids('?days=60'))).toEqual([future, recent, older]);
    expect(mine(await ids('?days=0'))).toEqual([future]);
    expect(mine(await ids('?days=1000'))).toEqual([future, recent, older, old]);
    // The series lies in the future, so it is in every list; campaigns without a start never are.
    expect((await ids('?days=0')).length).toBeGreaterThanOrEqual(26);
  });

  it.each(['abc', '-1', '1.5', ''])('answers 400 for days=%s', async (days) => {
    const res = await t.api('GET', `/api/campaigns?days=${days}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(CampaignMessages.daysInvalid);
  });

  it('answers 401 without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/campaigns' })).statusCode).toBe(401);
  });
});
