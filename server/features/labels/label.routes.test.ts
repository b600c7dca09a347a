import { describe, expect, it } from 'vitest';
import { LabelMessages, labelDeletedMessage, labelExistsMessage } from '../../../common/labels';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';

const t = setupTestApp({ startWorker: false });

const labels = async () => (await t.api('GET', '/api/types')).json() as string[];
const url = (name: string) => `/api/types/${encodeURIComponent(name)}`;

let counter = 0;
const unique = (base: string) => `${base}${++counter}${Date.now().toString(36)}`;

describe('GET /api/types', () => {
  it('lists the label names sorted case-insensitively', async () => {
    for (const type of ['zomer', 'Herfst', 'appel'])
      expect((await t.api('POST', '/api/types', { type })).statusCode).toBe(200);
    const res = await t.api('GET', '/api/types');
    expect(res.statusCode).toBe(200);
    const list = res.json() as string[];
    expect(list.filter((n) => ['zomer', 'Herfst', 'appel'].includes(n))).toEqual([
      'appel',
      'Herfst',
      'zomer',
    ]);
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/types' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/types', () => {
  it('creates a trimmed label', async () => {
    const name = unique('Nieuwsbrief');
    const res = await t.api('POST', '/api/types', { type: `  ${name}  ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ type: name });
    expect(await labels()).toContain(name);
  });

  it.each([
    ['missing', {}],
    ['empty', { type: '' }],
    ['only white space', { type: ' \t  ' }],
    ['not a string', { type: 12 }],
  ])('refuses a %s label with the Dutch message', async (_case, body) => {
    const res = await t.api('POST', '/api/types', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(LabelMessages.empty);
  });

  it('refuses a label longer than 100 characters', async () => {
    const res = await t.api('POST', '/api/types', { type: 'x'.repeat(101) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(LabelMessages.tooLong);
  });

  it('answers 409 for a label that exists', async () => {
    const name = unique('dubbel');
    expect((await t.api('POST', '/api/types', { type: name })).statusCode).toBe(200);
    const res = await t.api('POST', '/api/types', { type: ` ${name}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(labelExistsMessage(name));
    expect((await labels()).filter((n) => n === name)).toHaveLength(1);
  });

  it('answers 409 for the same name in another case, naming the existing label', async () => {
    const name = unique('Hoofdletters');
    expect((await t.api('POST', '/api/types', { type: name })).statusCode).toBe(200);
    const res = await t.api('POST', '/api/types', { type: name.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(labelExistsMessage(name));
    expect(await labels()).not.toContain(name.toUpperCase());
  });

  it('answers 401 without a session and creates nothing', async () => {
    const name = unique('anoniem');
    const res = await t.app.inject({ method: 'POST', url: '/api/types', payload: { type: name } });
    expect(res.statusCode).toBe(401);
    expect(await labels()).not.toContain(name);
  });
});

describe('DELETE /api/types/:type', () => {
  it('deletes an unused label, also one with a slash or spaces in its name', async () => {
    for (const name of [unique('weg'), unique('a/b c%')]) {
      expect((await t.api('POST', '/api/types', { type: name })).statusCode).toBe(200);
      const res = await t.api('DELETE', url(name));
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(labelDeletedMessage(name));
      expect(await labels()).not.toContain(name);
    }
  });

  it('answers 404 for an unknown label', async () => {
    const res = await t.api('DELETE', url(unique('onbekend')));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(LabelMessages.notFound);
  });

  it('refuses a label used by a dataset, naming the dataset', async () => {
    const name = unique('inbestand');
    await t.api('POST', '/api/types', { type: name });
    const partnerId = await makePartner(t.db, { id: unique('lp') });
    await makeDataset(t.db, partnerId, { name: 'Hoofdbestand', types: ['ander', name] });
    const res = await t.api('DELETE', url(name));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `Het label '${name}' kan niet worden verwijderd: het is in gebruik bij bestand ${partnerId}/Hoofdbestand`,
    );
    expect(await labels()).toContain(name);
  });

  it('names both the datasets and the campaigns that use a label', async () => {
    const name = unique('beide');
    await t.api('POST', '/api/types', { type: name });
    const partnerId = await makePartner(t.db, { id: unique('lq') });
    await makeDataset(t.db, partnerId, { name: 'Een', types: [name] });
    await makeDataset(t.db, partnerId, { name: 'Twee', types: [name] });
    expect((await t.api('POST', '/api/campaigns', { name: 'Winter', type: name })).statusCode).toBe(200);
    const res = await t.api('DELETE', url(name));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `Het label '${name}' kan niet worden verwijderd: het is in gebruik bij bestanden ${partnerId}/Een, ${partnerId}/Twee en campagne Winter`,
    );
  });

  it('refuses a label used by campaigns, naming them and counting the rest', async () => {
    const name = unique('incampagne');
    await t.api('POST', '/api/types', { type: name });
    for (let i = 1; i <= 7; i++) {
      expect((await t.api('POST', '/api/campaigns', { name: `Actie ${i}`, type: name })).statusCode).toBe(
        200,
      );
    }
    const res = await t.api('DELETE', url(name));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `Het label '${name}' kan niet worden verwijderd: het is in gebruik bij campagnes Actie 1, Actie 2, Actie 3, Actie 4, Actie 5 en nog 2 andere`,
    );
    expect(await labels()).toContain(name);
  });

  it('answers 401 without a session and keeps the label', async () => {
    const name = unique('blijft');
    await t.api('POST', '/api/types', { type: name });
    const res = await t.app.inject({ method: 'DELETE', url: url(name) });
    expect(res.statusCode).toBe(401);
    expect(await labels()).toContain(name);
  });
});
