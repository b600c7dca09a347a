import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatasetMessages, datasetNameTakenMessage, unknownTypesMessage } from '../../../common/datasets';
import { LabelMessages } from '../../../common/labels';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { labels } from '../labels/label.table';
import { datasets } from './dataset.table';

const t = setupTestApp({ startWorker: false });
beforeAll(async () => {
  await t.db.insert(labels).values([{ name: 'Nieuws' }, { name: 'Lifestyle' }, { name: 'Auto' }]);
});

const valid = {
  name: 'Zomer2024',
  description: 'Zomeractie',
  types: ['Nieuws'],
  emailColumnName: 'E-mail',
  sort: 3,
};

async function create(partnerId: string, body: object = valid) {
  const res = await t.api('POST', `/api/datasets/${partnerId}`, body);
  expect(res.statusCode).toBe(200);
  return res.json() as { _id: string; key: string };
}

describe('POST /api/datasets/:partnerId', () => {
  it('creates a dataset with every field and a generated API key', async () => {
    const partnerId = await makePartner(t.db);
    const res = await t.api('POST', `/api/datasets/${partnerId}`, {
      ...valid,
      types: ['Nieuws', 'Lifestyle', 'Nieuws'],
      active: false,
      separateInvoice: true,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      partnerId,
      name: 'Zomer2024',
      description: 'Zomeractie',
      types: ['Nieuws', 'Lifestyle'],
      emailColumnName: 'E-mail',
      active: false,
      separateInvoice: true,
      sort: 3,
      recordCount: 0,
      key: expect.stringMatching(/^[0-9a-f]{48}$/),
      commission: [],
      participation: [],
      testPersons: [],
    });
    const [row] = await t.db.select().from(datasets).where(eq(datasets.id, body._id));
    expect(row.config).toEqual({ emailColumnName: 'E-mail' });
    expect(row.apiKey).toBe(body.key);
  });

  it('applies the defaults: active, no separate invoice, sort 0, no labels', async () => {
    const partnerId = await makePartner(t.db);
    const res = await t.api('POST', `/api/datasets/${partnerId}`, { name: 'Kaal' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      description: '',
      types: [],
      emailColumnName: '',
      active: true,
      separateInvoice: false,
      sort: 0,
    });
  });

  it("reads sort as typed: '12' and Dutch-grouped '1.000'", async () => {
    const partnerId = await makePartner(t.db);
    const sortOf = async (name: string, sort: string) =>
      (await t.api('POST', `/api/datasets/${partnerId}`, { name, sort })).json().sort;
    expect(await sortOf('S1', '12')).toBe(12);
    expect(await sortOf('S2', '1.000')).toBe(1000);
  });

  it('gives every dataset its own key', async () => {
    const partnerId = await makePartner(t.db);
    const a = await create(partnerId, { name: 'A1' });
    const b = await create(partnerId, { name: 'B1' });
    expect(a.key).not.toBe(b.key);
  });

  it.each([
    ['missing name', {}, DatasetMessages.nameRequired],
    ['empty name', { name: '  ' }, DatasetMessages.nameRequired],
    ['name with a space', { name: 'Zomer 2024' }, DatasetMessages.namePattern],
    ['name with an underscore', { name: 'zomer_2024' }, DatasetMessages.namePattern],
    ['negative sort', { name: 'X', sort: -1 }, DatasetMessages.sortInvalid],
    ['fractional sort', { name: 'X', sort: 1.5 }, DatasetMessages.sortInvalid],
    ['sort as text', { name: 'X', sort: 'eerst' }, DatasetMessages.sortInvalid],
    ["a decimal comma in sort ('1,5' is not 15)", { name: 'X', sort: '1,5' }, DatasetMessages.sortInvalid],
    ["a minus in sort ('-3' is not 3)", { name: 'X', sort: '-3' }, DatasetMessages.sortInvalid],
    ['an empty label', { name: 'X', types: [' '] }, LabelMessages.empty],
  ])('%s answers 400 with the Dutch message in message and error', async (_case, payload, message) => {
    const partnerId = await makePartner(t.db);
    const res = await t.api('POST', `/api/datasets/${partnerId}`, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.errors).toContain(message);
    expect(body.message).toContain(message);
    expect(body.error).toBe(body.message);
  });

  it('answers 400 naming labels that are not in the label list', async () => {
    const partnerId = await makePartner(t.db);
    const res = await t.api('POST', `/api/datasets/${partnerId}`, {
      name: 'X',
      types: ['Nieuws', 'Onbekend', 'Ook'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: unknownTypesMessage(['Onbekend', 'Ook']),
      error: unknownTypesMessage(['Onbekend', 'Ook']),
    });
    expect(await t.db.select().from(datasets).where(eq(datasets.partnerId, partnerId))).toHaveLength(0);
  });

  it('answers 409 for a name the partner already uses; another partner may use it', async () => {
    const partnerId = await makePartner(t.db);
    await create(partnerId, { name: 'Dubbel' });
    const res = await t.api('POST', `/api/datasets/${partnerId}`, { name: 'Dubbel' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      message: datasetNameTakenMessage('Dubbel'),
      error: datasetNameTakenMessage('Dubbel'),
    });
    await create(await makePartner(t.db), { name: 'Dubbel' });
  });

  it('answers 404 for an unknown partner', async () => {
    const res = await t.api('POST', '/api/datasets/bestaatniet', valid);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      message: DatasetMessages.partnerNotFound,
      error: DatasetMessages.partnerNotFound,
    });
  });
});

describe('GET /api/datasets/:partnerId', () => {
  it('lists the partner’s datasets by sort then name, with record counts and no keys', async () => {
    const partnerId = await makePartner(t.db);
    const other = await makePartner(t.db);
    const late = await create(partnerId, { name: 'Laat', sort: 5 });
    const beta = await create(partnerId, { name: 'beta', sort: 1 });
    const alpha = await create(partnerId, { name: 'Alpha', sort: 1 });
    const keyless = await makeDataset(t.db, partnerId, { name: 'Zonder', sort: 9 });
    await makeDataset(t.db, other, { name: 'VanAnder' });
    await t.db.update(datasets).set({ recordCount: 1234 }).where(eq(datasets.id, late._id));

    const res = await t.api('GET', `/api/datasets/${partnerId}`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { _id: string; recordCount: number; hasKey: boolean }[];
    expect(list.map((d) => d._id)).toEqual([alpha._id, beta._id, late._id, keyless]);
    expect(list[2]).toMatchObject({ name: 'Laat', recordCount: 1234, hasKey: true });
    expect(list[3].hasKey).toBe(false);
    for (const d of list) expect(d).not.toHaveProperty('key');
    for (const key of [late.key, beta.key, alpha.key]) expect(res.body).not.toContain(key);
  });

  it('answers an empty list for a partner without datasets', async () => {
    const res = await t.api('GET', `/api/datasets/${await makePartner(t.db)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('answers 404 for an unknown partner', async () => {
    const res = await t.api('GET', '/api/datasets/bestaatniet');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(DatasetMessages.partnerNotFound);
  });
});

describe('GET /api/datasets/:partnerId/:datasetId', () => {
  it('answers the dataset with its key, commission (newest first), participation and test persons', async () => {
    const partnerId = await makePartner(t.db);
    const ds = await create(partnerId);
    await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/commission`, {
      start: '2023-01-01',
      end: '2023-12-31',
      amount: 0.1,
    });
    await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/commission`, {
      start: '2024-01-01',
      end: '2024-12-31',
      amount: 0.2,
    });
    await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/participation`, {
      start: '2024-01-01',
      end: '2024-06-30',
      factor: 1.5,
    });
    await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/testpersons`, {
      lastName: 'Test',
      email: 'test@example.nl',
    });

    const res = await t.api('GET', `/api/datasets/${partnerId}/${ds._id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.key).toBe(ds.key);
    expect(body.commission.map((c: { amount: number }) => c.amount)).toEqual([0.2, 0.1]);
    expect(body.participation).toEqual([
      { _id: expect.any(String), start: '2024-01-01', end: '2024-06-30', factor: 1.5 },
    ]);
    expect(body.testPersons).toEqual([
      {
        _id: expect.any(String),
        firstName: '',
        preposition: '',
        lastName: 'Test',
        gender: 'M',
        email: 'test@example.nl',
      },
    ]);
  });

  it('answers key null for a dataset that has none yet', async () => {
    const partnerId = await makePartner(t.db);
    const id = await makeDataset(t.db, partnerId);
    expect((await t.api('GET', `/api/datasets/${partnerId}/${id}`)).json().key).toBeNull();
  });

  it('answers 404 for an unknown dataset, a dataset of another partner, and an unknown partner', async () => {
    const partnerId = await makePartner(t.db);
    const other = await makePartner(t.db);
    const id = await makeDataset(t.db, other);
    for (const [url, message] of [
      [`/api/datasets/${partnerId}/bestaatniet`, DatasetMessages.notFound],
      [`/api/datasets/${partnerId}/${id}`, DatasetMessages.notFound],
      [`/api/datasets/bestaatniet/${id}`, DatasetMessages.partnerNotFound],
    ]) {
      const res = await t.api('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(message);
    }
  });
});

describe('PUT /api/datasets/:partnerId/:datasetId', () => {
  it('saves every field; key and record count stay as they were', async () => {
    const partnerId = await makePartner(t.db);
    const ds = await create(partnerId);
    await t.db.update(datasets).set({ recordCount: 77 }).where(eq(datasets.id, ds._id));
    const res = await t.api('PUT', `/api/datasets/${partnerId}/${ds._id}`, {
      name: 'Winter2024',
      description: 'Nieuw',
      types: ['Auto'],
      emailColumnName: '',
      active: false,
      separateInvoice: true,
      sort: 0,
      key: 'poging',
      recordCount: 5,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Winter2024',
      description: 'Nieuw',
      types: ['Auto'],
      emailColumnName: '',
      active: false,
      separateInvoice: true,
      sort: 0,
      key: ds.key,
      recordCount: 77,
    });
    const [row] = await t.db.select().from(datasets).where(eq(datasets.id, ds._id));
    expect(row.config).toEqual({});
  });

  it('keeps other config entries when the e-mail column changes', async () => {
    const partnerId = await makePartner(t.db);
    const ds = await create(partnerId);
    await t.db
      .update(datasets)
      .set({ config: { emailColumnName: 'oud', delimiter: ';' } as never })
      .where(eq(datasets.id, ds._id));
    await t.api('PUT', `/api/datasets/${partnerId}/${ds._id}`, { ...valid, emailColumnName: 'mail' });
    const [row] = await t.db.select().from(datasets).where(eq(datasets.id, ds._id));
    expect(row.config).toEqual({ emailColumnName: 'mail', delimiter: ';' });
  });

  it('validates like create: pattern, sort, labels; 409 for a taken name; nothing changes', async () => {
    const partnerId = await makePartner(t.db);
    const ds = await create(partnerId);
    await create(partnerId, { name: 'Bezet' });
    const cases: [object, number, string][] = [
      [{ name: 'met-streepje' }, 400, DatasetMessages.namePattern],
      [{ name: 'Goed', sort: -5 }, 400, DatasetMessages.sortInvalid],
      [{ name: 'Goed', types: ['Geen'] }, 400, unknownTypesMessage(['Geen'])],
      [{ name: 'Bezet' }, 409, datasetNameTakenMessage('Bezet')],
    ];
    for (const [payload, status, message] of cases) {
      const res = await t.api('PUT', `/api/datasets/${partnerId}/${ds._id}`, payload);
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect((await t.api('GET', `/api/datasets/${partnerId}/${ds._id}`)).json().name).toBe(valid.name);
  });

  it('answers 404 for an unknown dataset or partner', async () => {
    const partnerId = await makePartner(t.db);
    const id = await makeDataset(t.db, partnerId);
    const a = await t.api('PUT', `/api/datasets/${partnerId}/bestaatniet`, valid);
    expect(a.statusCode).toBe(404);
    expect(a.json().message).toBe(DatasetMessages.notFound);
    const b = await t.api('PUT', `/api/datasets/bestaatniet/${id}`, valid);
    expect(b.statusCode).toBe(404);
    expect(b.json().message).toBe(DatasetMessages.partnerNotFound);
  });
});
