import { describe, expect, it } from 'vitest';
import { DatasetMessages, RATE_TEXTS, RateMessages, rateOverlapMessage } from '../../../common/datasets';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';

const t = setupTestApp({ startWorker: false });

/** A fresh partner and dataset; returns the dataset's base URL. */
async function freshDataset(): Promise<{ base: string; partnerId: string; datasetId: string }> {
  const partnerId = await makePartner(t.db);
  const datasetId = await makeDataset(t.db, partnerId);
  return { base: `/api/datasets/${partnerId}/${datasetId}`, partnerId, datasetId };
}

const entries = async (base: string) =>
  (await t.api('GET', base)).json() as { commission: object[]; participation: object[] };

// Both types behave the same; only the name of the number differs.
describe.each([
  ['commission', 'amount'],
  ['participation', 'factor'],
] as const)('%s', (type, field) => {
  const body = (start: string, end: string, value: number) => ({ start, end, [field]: value });

  it('adds an entry and answers it; the dataset lists it', async () => {
    const { base } = await freshDataset();
    const res = await t.api('POST', `${base}/${type}`, body('2024-01-01', '2024-03-31', 1.25));
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      start: '2024-01-01',
      end: '2024-03-31',
      [field]: 1.25,
    });
    expect((await entries(base))[type]).toEqual([created]);
  });

  it('accepts a one-day period (end equal to start)', async () => {
    const { base } = await freshDataset();
    expect((await t.api('POST', `${base}/${type}`, body('2024-05-05', '2024-05-05', 2))).statusCode).toBe(
      200,
    );
  });

  it.each([
    ['missing start', { end: '2024-01-01', [field]: 1 }, RateMessages.startRequired],
    ['missing end', { start: '2024-01-01', [field]: 1 }, RateMessages.endRequired],
    [
      'a date in DD-MM-YYYY',
      { start: '01-01-2024', end: '2024-01-31', [field]: 1 },
      RateMessages.dateInvalid,
    ],
    ['an impossible date', { start: '2024-02-30', end: '2024-03-31', [field]: 1 }, RateMessages.dateInvalid],
    ['end before start', { start: '2024-02-01', end: '2024-01-31', [field]: 1 }, RateMessages.endBeforeStart],
    [
      `missing ${field}`,
      { start: '2024-01-01', end: '2024-01-31' },
      type === 'commission' ? RateMessages.amountRequired : RateMessages.factorRequired,
    ],
    [
      `${field} as text with a comma`,
      { start: '2024-01-01', end: '2024-01-31', [field]: '1,5' },
      type === 'commission' ? RateMessages.amountRequired : RateMessages.factorRequired,
    ],
    [
      `negative ${field}`,
      { start: '2024-01-01', end: '2024-01-31', [field]: -1 },
      type === 'commission' ? RateMessages.amountRange : RateMessages.factorRange,
    ],
  ])('%s answers 400 with the Dutch message and stores nothing', async (_case, payload, message) => {
    const { base } = await freshDataset();
    const res = await t.api('POST', `${base}/${type}`, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
    expect((await entries(base))[type]).toEqual([]);
  });

  it('refuses overlapping periods with 409, including a shared first or last day', async () => {
    const { base } = await freshDataset();
    await t.api('POST', `${base}/${type}`, body('2024-01-01', '2024-01-31', 1));
    for (const [start, end] of [
      ['2024-01-31', '2024-02-15'],
      ['2023-12-01', '2024-01-01'],
      ['2024-01-10', '2024-01-12'],
      ['2023-01-01', '2025-01-01'],
    ]) {
      const res = await t.api('POST', `${base}/${type}`, body(start, end, 2));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(rateOverlapMessage(type, { start: '2024-01-01', end: '2024-01-31' }));
    }
    expect((await t.api('POST', `${base}/${type}`, body('2024-02-01', '2024-02-29', 2))).statusCode).toBe(
      200,
    );
    expect((await entries(base))[type]).toHaveLength(2);
  });

  it('checks overlap per dataset and per type', async () => {
    const a = await freshDataset();
    const b = await freshDataset();
    await t.api('POST', `${a.base}/${type}`, body('2024-01-01', '2024-12-31', 1));
    expect((await t.api('POST', `${b.base}/${type}`, body('2024-01-01', '2024-12-31', 1))).statusCode).toBe(
      200,
    );
    const otherType = type === 'commission' ? 'participation' : 'commission';
    const otherField = otherType === 'commission' ? 'amount' : 'factor';
    const other = await t.api('POST', `${a.base}/${otherType}`, {
      start: '2024-01-01',
      end: '2024-12-31',
      [otherField]: 1,
    });
    expect(other.statusCode).toBe(200);
  });

  it('of concurrent overlapping additions exactly one wins', async () => {
    const { base } = await freshDataset();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.api('POST', `${base}/${type}`, body('2024-01-01', `2024-01-${10 + i}`, i)),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await entries(base))[type]).toHaveLength(1);
  });

  it('lists entries newest first', async () => {
    const { base } = await freshDataset();
    for (const [start, end] of [
      ['2023-01-01', '2023-06-30'],
      ['2024-01-01', '2024-06-30'],
      ['2023-07-01', '2023-12-31'],
    ]) {
      await t.api('POST', `${base}/${type}`, body(start, end, 1));
    }
    expect((await entries(base))[type].map((e) => (e as { start: string }).start)).toEqual([
      '2024-01-01',
      '2023-07-01',
      '2023-01-01',
    ]);
  });

  it('updates the end and number of the entry addressed by start and end', async () => {
    const { base } = await freshDataset();
    const created = (await t.api('POST', `${base}/${type}`, body('2024-01-01', '2024-01-31', 1))).json();
    const res = await t.api(
      'PUT',
      `${base}/${type}/2024-01-01/2024-01-31`,
      body('2024-01-01', '2024-02-29', 0.0375),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: created._id, start: '2024-01-01', end: '2024-02-29', [field]: 0.0375 });
    // Without start in the body as well.
    const again = await t.api('PUT', `${base}/${type}/2024-01-01/2024-02-29`, {
      end: '2024-03-31',
      [field]: 3,
    });
    expect(again.statusCode).toBe(200);
    expect((await entries(base))[type]).toEqual([
      { _id: created._id, start: '2024-01-01', end: '2024-03-31', [field]: 3 },
    ]);
  });

  it('refuses a changed start, an end before the start and an overlap on update', async () => {
    const { base } = await freshDataset();
    await t.api('POST', `${base}/${type}`, body('2024-01-01', '2024-01-31', 1));
    await t.api('POST', `${base}/${type}`, body('2024-03-01', '2024-03-31', 1));
    const url = `${base}/${type}/2024-01-01/2024-01-31`;

    const moved = await t.api('PUT', url, body('2024-01-02', '2024-01-31', 1));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe(RateMessages.startLocked);

    const early = await t.api('PUT', url, { end: '2023-12-31', [field]: 1 });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(RateMessages.endBeforeStart);

    const overlap = await t.api('PUT', url, { end: '2024-03-01', [field]: 1 });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().message).toBe(rateOverlapMessage(type, { start: '2024-03-01', end: '2024-03-31' }));

    expect((await t.api('PUT', url, { end: '2024-02-29', [field]: 1 })).statusCode).toBe(200);
  });

  it('answers 404 on update or delete of a period that does not exist', async () => {
    const { base } = await freshDataset();
    await t.api('POST', `${base}/${type}`, body('2024-01-01', '2024-01-31', 1));
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.api(
        method,
        `${base}/${type}/2024-01-01/2024-01-30`,
        method === 'PUT' ? { end: '2024-01-31', [field]: 1 } : undefined,
      );
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(RATE_TEXTS[type].notFound);
    }
  });

  it('answers 400 for malformed dates in the path', async () => {
    const { base } = await freshDataset();
    const res = await t.api('DELETE', `${base}/${type}/01-01-2024/2024-01-31`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RateMessages.dateInvalid);
  });

  it('deletes the entry addressed by start and end, only that one', async () => {
    const { base } = await freshDataset();
    await t.api('POST', `${base}/${type}`, body('2024-01-01', '2024-01-31', 1));
    const keep = (await t.api('POST', `${base}/${type}`, body('2024-02-01', '2024-02-29', 2))).json();
    const res = await t.api('DELETE', `${base}/${type}/2024-01-01/2024-01-31`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(RATE_TEXTS[type].deleted);
    expect((await entries(base))[type]).toEqual([keep]);
  });

  it('answers 404 for an unknown dataset, a dataset of another partner and an unknown partner', async () => {
    const { partnerId } = await freshDataset();
    const other = await freshDataset();
    for (const [url, message] of [
      [`/api/datasets/${partnerId}/bestaatniet/${type}`, DatasetMessages.notFound],
      [`/api/datasets/${partnerId}/${other.datasetId}/${type}`, DatasetMessages.notFound],
      [`/api/datasets/bestaatniet/${other.datasetId}/${type}`, DatasetMessages.partnerNotFound],
    ]) {
      const res = await t.api('POST', url, body('2024-01-01', '2024-01-31', 1));
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(message);
    }
    const put = await t.api('PUT', `/api/datasets/${partnerId}/bestaatniet/${type}/2024-01-01/2024-01-31`, {
      end: '2024-01-31',
      [field]: 1,
    });
    expect(put.statusCode).toBe(404);
    expect((await entries(other.base))[type]).toEqual([]);
  });

  it('answers 401 without a session', async () => {
    const { base } = await freshDataset();
    for (const [method, url] of [
      ['POST', `${base}/${type}`],
      ['PUT', `${base}/${type}/2024-01-01/2024-01-31`],
      ['DELETE', `${base}/${type}/2024-01-01/2024-01-31`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        payload: method === 'DELETE' ? undefined : body('2024-01-01', '2024-01-31', 1),
      });
      expect(res.statusCode).toBe(401);
    }
  });
});

it('an unknown type in the path is not a route', async () => {
  const { base } = await freshDataset();
  const res = await t.api('POST', `${base}/provisie`, { start: '2024-01-01', end: '2024-01-31', amount: 1 });
  expect(res.statusCode).toBe(404);
});
