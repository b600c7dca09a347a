import { describe, expect, it } from 'vitest';
import { DatasetMessages, TestPersonMessages } from '../../../common/datasets';
import { PersonMessages } from '../../../common/person';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';

const t = setupTestApp({ startWorker: false });

async function freshBase(): Promise<{ base: string; partnerId: string; datasetId: string }> {
  const partnerId = await makePartner(t.db);
  const datasetId = await makeDataset(t.db, partnerId);
  return { base: `/api/datasets/${partnerId}/${datasetId}/testpersons`, partnerId, datasetId };
}

const jan = {
  firstName: 'Jan',
  preposition: 'van der',
  lastName: 'Berg',
  gender: 'M',
  email: 'jan@example.nl',
};

async function add(base: string, body: object = jan) {
  const res = await t.api('POST', base, body);
  expect(res.statusCode).toBe(200);
  return res.json() as { _id: string };
}

describe('POST /api/datasets/:p/:d/testpersons', () => {
  it('adds a test person with every field; the e-mail is trimmed and lower-cased', async () => {
    const { base } = await freshBase();
    const res = await t.api('POST', base, {
      ...jan,
      firstName: ' Jan ',
      gender: 'F',
      email: '  Jan@Example.NL ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      firstName: 'Jan',
      preposition: 'van der',
      lastName: 'Berg',
      gender: 'F',
      email: 'jan@example.nl',
    });
  });

  it('defaults gender to M and names to empty', async () => {
    const { base } = await freshBase();
    const res = await t.api('POST', base, { email: 'alleen@example.nl' });
    expect(res.json()).toMatchObject({ firstName: '', preposition: '', lastName: '', gender: 'M' });
  });

  it.each([
    ['missing e-mail', { firstName: 'X' }, PersonMessages.emailRequired],
    ['empty e-mail', { email: '   ' }, PersonMessages.emailRequired],
    ['invalid e-mail', { email: 'geen-adres' }, PersonMessages.emailInvalid],
    ['e-mail without a domain', { email: 'jan@' }, PersonMessages.emailInvalid],
    ['unknown gender', { email: 'x@example.nl', gender: 'X' }, 'Kies man, vrouw of onbekend'],
  ])('%s answers 400 with the Dutch message', async (_case, payload, message) => {
    const { base } = await freshBase();
    const res = await t.api('POST', base, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
    expect((await t.api('GET', base)).json()).toEqual([]);
  });

  it('answers 404 for an unknown dataset or partner', async () => {
    const { partnerId, datasetId } = await freshBase();
    const a = await t.api('POST', `/api/datasets/${partnerId}/bestaatniet/testpersons`, jan);
    expect(a.statusCode).toBe(404);
    expect(a.json().message).toBe(DatasetMessages.notFound);
    const b = await t.api('POST', `/api/datasets/bestaatniet/${datasetId}/testpersons`, jan);
    expect(b.statusCode).toBe(404);
    expect(b.json().message).toBe(DatasetMessages.partnerNotFound);
  });
});

describe('GET /api/datasets/:p/:d/testpersons(/:personId)', () => {
  it('lists the dataset’s test persons by last name, and answers one', async () => {
    const { base } = await freshBase();
    const other = await freshBase();
    const z = await add(base, { lastName: 'Zwart', email: 'z@example.nl' });
    const a = await add(base, { lastName: 'aalders', email: 'a@example.nl' });
    await add(other.base, { lastName: 'Anders', email: 'ander@example.nl' });
    const list = (await t.api('GET', base)).json() as { _id: string }[];
    expect(list.map((p) => p._id)).toEqual([a._id, z._id]);

    const one = await t.api('GET', `${base}/${z._id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ _id: z._id, lastName: 'Zwart', email: 'z@example.nl' });
  });

  it('answers 404 for an unknown person, a person of another dataset and an unknown dataset', async () => {
    const { base, partnerId } = await freshBase();
    const other = await freshBase();
    const theirs = await add(other.base);
    for (const [url, message] of [
      [`${base}/bestaatniet`, TestPersonMessages.notFound],
      [`${base}/${theirs._id}`, TestPersonMessages.notFound],
      [`/api/datasets/${partnerId}/bestaatniet/testpersons`, DatasetMessages.notFound],
    ]) {
      const res = await t.api('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(message);
    }
  });
});

describe('PUT /api/datasets/:p/:d/testpersons/:personId', () => {
  it('saves every field', async () => {
    const { base } = await freshBase();
    const p = await add(base);
    const res = await t.api('PUT', `${base}/${p._id}`, {
      firstName: 'Janneke',
      preposition: '',
      lastName: 'Berg',
      gender: 'U',
      email: 'janneke@example.nl',
    });
    expect(res.statusCode).toBe(200);
    expect((await t.api('GET', `${base}/${p._id}`)).json()).toEqual({
      _id: p._id,
      firstName: 'Janneke',
      preposition: '',
      lastName: 'Berg',
      gender: 'U',
      email: 'janneke@example.nl',
    });
  });

  it('validates like create and changes nothing on failure', async () => {
    const { base } = await freshBase();
    const p = await add(base);
    const res = await t.api('PUT', `${base}/${p._id}`, { ...jan, email: 'fout' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PersonMessages.emailInvalid);
    expect((await t.api('GET', `${base}/${p._id}`)).json().email).toBe(jan.email);
  });

  it('answers 404 for a person of another dataset and leaves it alone', async () => {
    const { base } = await freshBase();
    const other = await freshBase();
    const theirs = await add(other.base);
    const res = await t.api('PUT', `${base}/${theirs._id}`, { ...jan, lastName: 'Gekaapt' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(TestPersonMessages.notFound);
    expect((await t.api('GET', `${other.base}/${theirs._id}`)).json().lastName).toBe('Berg');
  });
});

describe('DELETE /api/datasets/:p/:d/testpersons/:personId', () => {
  it('deletes the person, only that one', async () => {
    const { base } = await freshBase();
    const gone = await add(base);
    const keep = await add(base, { email: 'blijft@example.nl' });
    const res = await t.api('DELETE', `${base}/${gone._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(TestPersonMessages.deleted);
    expect((await t.api('GET', base)).json().map((p: { _id: string }) => p._id)).toEqual([keep._id]);
    expect((await t.api('DELETE', `${base}/${gone._id}`)).statusCode).toBe(404);
  });

  it('answers 404 for a person of another dataset', async () => {
    const { base } = await freshBase();
    const other = await freshBase();
    const theirs = await add(other.base);
    const res = await t.api('DELETE', `${base}/${theirs._id}`);
    expect(res.statusCode).toBe(404);
    expect((await t.api('GET', other.base)).json()).toHaveLength(1);
  });
});

it('every call answers 401 without a session', async () => {
  const { base } = await freshBase();
  for (const [method, url] of [
    ['GET', base],
    ['POST', base],
    ['GET', `${base}/x`],
    ['PUT', `${base}/x`],
    ['DELETE', `${base}/x`],
  ] as const) {
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'POST' || method === 'PUT' ? jan : undefined,
    });
    expect(res.statusCode).toBe(401);
  }
});
