import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatasetMessages } from '../../../common/datasets';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { labels } from '../labels/label.table';
import { datasetCommissions, datasetTestPersons } from './dataset.table';

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

describe('POST /api/datasets/:partnerId/:datasetId/key', () => {
  it('replaces the key, also for a dataset without one', async () => {
    const partnerId = await makePartner(t.db);
    const ds = await create(partnerId);
    const res = await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/key`);
    expect(res.statusCode).toBe(200);
    const key = res.json().key as string;
    expect(key).toMatch(/^[0-9a-f]{48}$/);
    expect(key).not.toBe(ds.key);
    expect((await t.api('GET', `/api/datasets/${partnerId}/${ds._id}`)).json().key).toBe(key);

    const keyless = await makeDataset(t.db, partnerId);
    const made = await t.api('POST', `/api/datasets/${partnerId}/${keyless}/key`);
    expect(made.json().key).toMatch(/^[0-9a-f]{48}$/);
  });

  it('answers 404 for an unknown dataset', async () => {
    const res = await t.api('POST', `/api/datasets/${await makePartner(t.db)}/bestaatniet/key`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(DatasetMessages.notFound);
  });
});

describe('DELETE /api/datasets/:partnerId/:datasetId', () => {
  it('deletes the dataset with its entries and test persons', async () => {
    const partnerId = await makePartner(t.db);
    const ds = await create(partnerId);
    const keep = await create(partnerId, { name: 'Blijft' });
    await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/commission`, {
      start: '2024-01-01',
      end: '2024-01-31',
      amount: 1,
    });
    await t.api('POST', `/api/datasets/${partnerId}/${ds._id}/testpersons`, { email: 'weg@example.nl' });

    const res = await t.api('DELETE', `/api/datasets/${partnerId}/${ds._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(DatasetMessages.deleted);
    expect((await t.api('GET', `/api/datasets/${partnerId}/${ds._id}`)).statusCode).toBe(404);
    expect(
      (await t.api('GET', `/api/datasets/${partnerId}`)).json().map((d: { _id: string }) => d._id),
    ).toEqual([keep._id]);
    const db = t.db;
    expect(
      await db.select().from(datasetCommissions).where(eq(datasetCommissions.datasetId, ds._id)),
    ).toHaveLength(0);
    expect(
      await db.select().from(datasetTestPersons).where(eq(datasetTestPersons.datasetId, ds._id)),
    ).toHaveLength(0);
  });

  it('answers 404 for an unknown dataset and leaves datasets of other partners alone', async () => {
    const partnerId = await makePartner(t.db);
    const other = await makePartner(t.db);
    const id = await makeDataset(t.db, other);
    const res = await t.api('DELETE', `/api/datasets/${partnerId}/${id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(DatasetMessages.notFound);
    expect((await t.api('GET', `/api/datasets/${other}/${id}`)).statusCode).toBe(200);
  });
});

describe('without a session', () => {
  it.each([
    ['GET', '/api/datasets/p'],
    ['POST', '/api/datasets/p'],
    ['GET', '/api/datasets/p/d'],
    ['PUT', '/api/datasets/p/d'],
    ['DELETE', '/api/datasets/p/d'],
    ['POST', '/api/datasets/p/d/key'],
  ] as const)('%s %s answers 401', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'POST' || method === 'PUT' ? valid : undefined,
    });
    expect(res.statusCode).toBe(401);
  });
});
