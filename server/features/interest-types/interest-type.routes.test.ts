import { describe, expect, it } from 'vitest';
import { InterestTypeMessages } from '../../../common/interest-types';
import { setupTestApp } from '../../test/app';
import { clickInterestTypes } from './interest-type.table';

const t = setupTestApp({ startWorker: false });

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: { cookie: t.cookie } });
const create = (name: unknown) => call('POST', '/api/click-interest-types', { name });
const list = async () => (await call('GET', '/api/click-interest-types')).json() as string[];
const reset = (names: string[]) =>
  t.db.transaction(async (tx) => {
    await tx.delete(clickInterestTypes);
    if (names.length) await tx.insert(clickInterestTypes).values(names.map((name) => ({ name })));
  });

describe('POST /api/click-interest-types', () => {
  it('creates a trimmed name that then appears in the list', async () => {
    await reset([]);
    const res = await create('  Reizen  ');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(InterestTypeMessages.created);
    expect(await list()).toEqual(['Reizen']);
  });

  it.each([
    ['empty', ''],
    ['whitespace only', ' \t  '],
    ['missing', undefined],
    ['not a string', 42],
  ])('a name that is %s answers 400 with the Dutch message', async (_case, name) => {
    await reset(['Bestaand']);
    const res = await create(name);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(InterestTypeMessages.nameEmpty);
    expect(await list()).toEqual(['Bestaand']);
  });

  it('a name over 100 characters answers 400', async () => {
    const res = await create('x'.repeat(101));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(InterestTypeMessages.nameTooLong);
  });

  it('a duplicate name, also in another case or with spaces around it, answers 409', async () => {
    await reset(['Sport']);
    for (const name of ['Sport', 'SPORT', ' sport ']) {
      const res = await create(name);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(InterestTypeMessages.nameTaken(name.trim()));
    }
    expect(await list()).toEqual(['Sport']);
  });
});

describe('GET /api/click-interest-types', () => {
  it('lists all names sorted case-insensitively', async () => {
    await reset(['wonen', 'Auto', 'beleggen', 'Zorg']);
    const res = await call('GET', '/api/click-interest-types');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(['Auto', 'beleggen', 'wonen', 'Zorg']);
  });
});

describe('paginated interest types', () => {
  // 23 names: type00 .. type22, plus two that a search for 'reis' finds.
  const names = [
    ...Array.from({ length: 23 }, (_, i) => `type${String(i).padStart(2, '0')}`),
    'Reisgids',
    'Vliegreis',
  ];

  it('answers 1-based pages of the sorted names with pages and total', async () => {
    await reset(names);
    const first = await call('GET', '/api/paginated-click-interest-types/1/10');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      pages: 3,
      total: 25,
      items: [
        'Reisgids',
        'type00',
        'type01',
        'type02',
        'type03',
        'type04',
        'type05',
        'type06',
        'type07',
        'type08',
      ],
    });
    const last = (await call('GET', '/api/paginated-click-interest-types/3/10')).json();
    expect(last).toEqual({
      pages: 3,
      total: 25,
      items: ['type19', 'type20', 'type21', 'type22', 'Vliegreis'],
    });
    const beyond = (await call('GET', '/api/paginated-click-interest-types/4/10')).json();
    expect(beyond).toEqual({ pages: 3, total: 25, items: [] });
  });

  it('searches case-insensitively on a part of the name', async () => {
    await reset(names);
    const res = await call('GET', '/api/paginated-click-interest-types-search/1/10/REIS');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ pages: 1, total: 2, items: ['Reisgids', 'Vliegreis'] });
    const paged = (await call('GET', '/api/paginated-click-interest-types-search/2/1/reis')).json();
    expect(paged).toEqual({ pages: 2, total: 2, items: ['Vliegreis'] });
  });

  it('treats % and _ in a search term as plain characters', async () => {
    await reset(['100% sport', 'sport', 'a_b', 'ab']);
    expect(
      (await call('GET', `/api/paginated-click-interest-types-search/1/10/${encodeURIComponent('%')}`)).json()
        .items,
    ).toEqual(['100% sport']);
    expect((await call('GET', '/api/paginated-click-interest-types-search/1/10/_')).json().items).toEqual([
      'a_b',
    ]);
  });

  it('accepts a search term of 100 characters that is much longer once URL-encoded', async () => {
    const name = `café ${'é'.repeat(95)}`;
    await reset([name, 'Mode']);
    const res = await call(
      'GET',
      `/api/paginated-click-interest-types-search/1/10/${encodeURIComponent(name)}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ pages: 1, total: 1, items: [name] });
  });

  it('answers an empty page with 0 pages when nothing matches', async () => {
    await reset(names);
    const res = await call('GET', '/api/paginated-click-interest-types-search/1/10/bestaatniet');
    expect(res.json()).toEqual({ pages: 0, total: 0, items: [] });
  });

  it.each([
    ['page 0', '/api/paginated-click-interest-types/0/10', InterestTypeMessages.pageInvalid],
    ['a non-numeric page', '/api/paginated-click-interest-types/abc/10', InterestTypeMessages.pageInvalid],
    ['a fractional page', '/api/paginated-click-interest-types/1.5/10', InterestTypeMessages.pageInvalid],
    ['size 0', '/api/paginated-click-interest-types/1/0', InterestTypeMessages.sizeInvalid],
    ['size 101', '/api/paginated-click-interest-types/1/101', InterestTypeMessages.sizeInvalid],
    [
      'a search with size x',
      '/api/paginated-click-interest-types-search/1/x/a',
      InterestTypeMessages.sizeInvalid,
    ],
    [
      'a search term over 100 characters',
      `/api/paginated-click-interest-types-search/1/10/${'a'.repeat(101)}`,
      InterestTypeMessages.termTooLong,
    ],
  ])('%s answers 400 with the Dutch message', async (_case, url, message) => {
    const res = await call('GET', url);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
  });
});

describe('DELETE /api/click-interest-types/:id', () => {
  it('deletes the named type (URL-encoded) and leaves the others', async () => {
    await reset(['Eten & drinken', 'Mode']);
    const res = await call('DELETE', `/api/click-interest-types/${encodeURIComponent('Eten & drinken')}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(InterestTypeMessages.deleted);
    expect(await list()).toEqual(['Mode']);
  });

  it('answers 404 for an unknown name', async () => {
    await reset(['Mode']);
    const res = await call('DELETE', '/api/click-interest-types/Onbekend');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(InterestTypeMessages.notFound);
    expect(await list()).toEqual(['Mode']);
  });
});

describe('without a session', () => {
  it.each([
    ['GET', '/api/click-interest-types'],
    ['POST', '/api/click-interest-types'],
    ['DELETE', '/api/click-interest-types/Mode'],
    ['GET', '/api/paginated-click-interest-types/1/10'],
    ['GET', '/api/paginated-click-interest-types-search/1/10/a'],
  ] as const)('%s %s answers 401', async (method, url) => {
    await reset(['Mode']);
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'POST' ? { name: 'Nieuw' } : undefined,
    });
    expect(res.statusCode).toBe(401);
    expect(await list()).toEqual(['Mode']);
  });
});
