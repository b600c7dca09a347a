import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { columnMapping } from '../../../common/mappings';
import { MAX_UPSERT_RECORDS, PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { makeDataset, makePartner } from '../../test/factories';
import { multipartBody } from '../../test/multipart';
import { datasets } from '../datasets/dataset.table';
import { saveDatasetMappings } from '../imports/mapping.queries';

// Every call, status and message of the partner API (spec 001 §7, §8), key isolation, the
// reserved-field suffix, deleteOld both ways and the bad input of issue 20, through HTTP on a
// real database.

const t = setupTestApp();

/** A dataset with a fresh API key; returns its id, name, partner and key. */
async function keyedDataset(
  mappings = [columnMapping('voornaam', 'voornaam'), columnMapping('postcode', 'postcode')],
) {
  const partnerId = await makePartner(t.db);
  const name = `api${crypto.randomBytes(3).toString('hex')}`;
  const id = await makeDataset(t.db, partnerId, { name });
  const key = crypto.randomBytes(24).toString('hex');
  await t.db.update(datasets).set({ apiKey: key }).where(eq(datasets.id, id));
  await saveDatasetMappings(t.db, id, mappings);
  return { id, name, partnerId, key };
}

/** A call with only the X-API-Key (no session cookie). */
function call(
  key: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method,
    url: `/partner-api${url}`,
    headers: { ...(key === undefined ? {} : { 'x-api-key': key }), ...headers },
    ...(body === undefined
      ? {}
      : typeof body === 'string' || Buffer.isBuffer(body)
        ? { payload: body }
        : { payload: body as object }),
  });
}

async function recordsOf(datasetId: string) {
  const result = await t.db.execute<{ email: string; attrs: Record<string, string>; raw: string[] }>(sql`
    SELECT a.email, r.attrs, r.raw FROM records r JOIN addresses a ON a.id = r.address_id
    WHERE r.dataset_id = ${datasetId} ORDER BY a.email`);
  return result.rows;
}

async function recordCount(datasetId: string): Promise<number> {
  const [row] = await t.db
    .select({ n: datasets.recordCount })
    .from(datasets)
    .where(eq(datasets.id, datasetId));
  return Number(row.n);
}

async function waitForTask(key: string, id: string) {
  for (let i = 0; i < 100; i++) {
    const res = await call(key, 'GET', `/partnerlist/csv/${id}`);
    if (res.json().state === 'done' || res.json().state === 'failed') return res.json();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('task did not finish');
}

/** Posts a CSV file; returns the finished task (polled when the call answered 202). */
async function postCsv(
  key: string,
  content: string | Buffer,
  fields: Record<string, string> = {},
  name = 'leden.csv',
) {
  const { payload, headers } = multipartBody(fields, { name, content });
  const res = await call(key, 'POST', '/partnerlist/csv', payload, headers);
  return res;
}

describe('the key', () => {
  it('is required, wrong keys and a deleted dataset’s key are 401 without a hint', async () => {
    const ds = await keyedDataset();
    for (const key of [
      undefined,
      '',
      'wrong',
      ds.key.slice(0, -1),
      `${ds.key}x`,
      ds.key.toUpperCase(),
      'x'.repeat(500),
    ]) {
      const res = await call(key, 'GET', '/partnerlist/a@b.nl');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: PartnerApiMessages.unauthorized });
    }
    expect((await call(ds.key, 'GET', '/partnerlist/a@b.nl')).statusCode).toBe(404);
    await t.db.delete(datasets).where(eq(datasets.id, ds.id));
    const gone = await call(ds.key, 'POST', '/partnerlist', { email: 'a@b.nl' });
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toEqual({ message: PartnerApiMessages.unauthorized });
  });

  it('a staff session opens no partner call, and no staff route takes a key', async () => {
    const ds = await keyedDataset();
    const staffOnly = await t.app.inject({
      method: 'GET',
      url: '/partner-api/partnerlist/a@b.nl',
      headers: { cookie: t.cookie },
    });
    expect(staffOnly.statusCode).toBe(401);
    for (const url of ['/api/partners', '/api/tasks', `/api/partners/${ds.partnerId}/datasets/${ds.id}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': ds.key } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('finds the dataset through the sha256 index', async () => {
    const ds = await keyedDataset();
    const plan = await t.db.execute<{ 'QUERY PLAN': string }>(sql`
      EXPLAIN SELECT id FROM datasets WHERE lw_api_key_hash(api_key) = sha256(convert_to(${ds.key}, 'UTF8'))`);
    await t.db.execute(sql`SET enable_seqscan = off`);
    const forced = await t.db.execute<{ 'QUERY PLAN': string }>(sql`
      EXPLAIN SELECT id FROM datasets WHERE lw_api_key_hash(api_key) = sha256(convert_to(${ds.key}, 'UTF8'))`);
    await t.db.execute(sql`RESET enable_seqscan`);
    expect(plan.rows.length).toBeGreaterThan(0);
    expect(forced.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('datasets_api_key_hash_idx');
  });

  it('reaches only its own dataset', async () => {
    const a = await keyedDataset();
    const b = await keyedDataset();
    expect(
      (await call(a.key, 'POST', '/partnerlist', { email: 'shared@example.nl', voornaam: 'A' })).statusCode,
    ).toBe(200);
    expect(
      (await call(a.key, 'POST', '/partnerlist', { email: 'only-a@example.nl', voornaam: 'A' })).statusCode,
    ).toBe(200);
    // The same address in b is b's own record.
    expect(
      (await call(b.key, 'POST', '/partnerlist', { email: 'shared@example.nl', voornaam: 'B' })).statusCode,
    ).toBe(200);
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await call(b.key, method, '/partnerlist/only-a@example.nl');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: PartnerApiMessages.recordNotFound });
    }
    const put = await call(b.key, 'PUT', '/partnerlist/only-a@example.nl', { voornaam: 'hacked' });
    expect(put.statusCode).toBe(404);
    expect((await call(b.key, 'GET', '/partnerlist/shared@example.nl')).json().voornaam).toBe('B');
    expect((await call(a.key, 'GET', '/partnerlist/shared@example.nl')).json().voornaam).toBe('A');
    expect((await call(a.key, 'GET', '/partnerlist/only-a@example.nl')).json().voornaam).toBe('A');
    expect((await recordsOf(b.id)).map((r) => r.email)).toEqual(['shared@example.nl']);
  });
});

describe('one record', () => {
  it('POST adds it through the mapping (200 message and id), 409 when it exists', async () => {
    const ds = await keyedDataset();
    const res = await call(ds.key, 'POST', '/partnerlist', {
      email: ' Jan@Example.NL ',
      voornaam: 'Jan',
      postcode: '1234AB',
      huisnummer: 12,
      actief: true,
      leeg: '',
      niets: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PartnerApiMessages.created, id: 'jan@example.nl' });
    const [stored] = await recordsOf(ds.id);
    expect(stored.email).toBe('jan@example.nl');
    expect(stored.attrs).toEqual({ voornaam: 'Jan', postcode: '1234AB' });
    expect(await recordCount(ds.id)).toBe(1);
    const again = await call(ds.key, 'POST', '/partnerlist', { email: 'jan@example.nl', voornaam: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: PartnerApiMessages.exists });
    const got = await call(ds.key, 'GET', '/partnerlist/JAN@example.nl');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({
      _id: 'jan@example.nl',
      email: 'jan@example.nl',
      dataset: ds.name,
      partner: ds.partnerId,
      voornaam: 'Jan',
      postcode: '1234AB',
      huisnummer: '12',
      actief: 'true',
    });
    expect(got.json()).not.toHaveProperty('leeg');
    expect(Date.parse(got.json().createdAt)).toBeGreaterThan(0);
    // The fields became columns of the dataset, as an upload's headers do.
    const headers = await t.db.execute<{ headers: string[] }>(
      sql`SELECT headers FROM dataset_mappings WHERE dataset_id = ${ds.id}`,
    );
    expect(headers.rows[0].headers).toEqual(
      expect.arrayContaining(['email', 'voornaam', 'postcode', 'huisnummer']),
    );
  });

  it('PUT replaces it (404 when absent, 400 for another email in the body), DELETE removes it', async () => {
    const ds = await keyedDataset();
    await call(ds.key, 'POST', '/partnerlist', {
      email: 'piet@example.nl',
      voornaam: 'Piet',
      postcode: '1111AA',
    });
    const put = await call(ds.key, 'PUT', '/partnerlist/piet@example.nl', { voornaam: 'Pieter' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ message: PartnerApiMessages.updated, id: 'piet@example.nl' });
    expect((await recordsOf(ds.id))[0].attrs).toEqual({ voornaam: 'Pieter' });
    const got = (await call(ds.key, 'GET', '/partnerlist/piet@example.nl')).json();
    expect(got.voornaam).toBe('Pieter');
    expect(got).not.toHaveProperty('postcode');
    const mismatch = await call(ds.key, 'PUT', '/partnerlist/piet@example.nl', {
      email: 'klaas@example.nl',
      voornaam: 'X',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(PartnerApiMessages.emailMismatch);
    const absent = await call(ds.key, 'PUT', '/partnerlist/nobody@example.nl', { voornaam: 'X' });
    expect(absent.statusCode).toBe(404);
    expect(absent.json()).toEqual({ message: PartnerApiMessages.recordNotFound });
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['piet@example.nl']);
    const del = await call(ds.key, 'DELETE', '/partnerlist/piet@example.nl');
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: PartnerApiMessages.deleted });
    expect(await recordsOf(ds.id)).toEqual([]);
    expect(await recordCount(ds.id)).toBe(0);
    expect((await call(ds.key, 'DELETE', '/partnerlist/piet@example.nl')).statusCode).toBe(404);
    expect((await call(ds.key, 'GET', '/partnerlist/piet@example.nl')).statusCode).toBe(404);
  });

  it('a record the mapping excludes is not saved (400)', async () => {
    const ds = await keyedDataset([columnMapping('voornaam', 'voornaam', { exclude: 'Spam' })]);
    const res = await call(ds.key, 'POST', '/partnerlist', { email: 'spam@example.nl', voornaam: 'Spam' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PartnerApiMessages.excluded);
    expect(await recordsOf(ds.id)).toEqual([]);
  });

  it('reserved field names get the suffix 1 (spec 001 §7)', async () => {
    const ds = await keyedDataset([columnMapping('dataset1', 'herkomst')]);
    const res = await call(ds.key, 'POST', '/partnerlist', {
      email: 'res@example.nl',
      _id: 'x1',
      dataset: 'oud',
      partner: 'p',
      createdAt: '2020-01-01',
      updatedAt: '2020-02-02',
    });
    expect(res.statusCode).toBe(200);
    const got = (await call(ds.key, 'GET', '/partnerlist/res@example.nl')).json();
    expect(got).toMatchObject({
      _id1: 'x1',
      dataset1: 'oud',
      partner1: 'p',
      createdAt1: '2020-01-01',
      updatedAt1: '2020-02-02',
    });
    expect(got._id).toBe('res@example.nl');
    expect(got.dataset).toBe(ds.name);
    expect((await recordsOf(ds.id))[0].attrs).toEqual({ herkomst: 'oud' });
    // A reserved name and its suffixed form in one record are one field twice.
    const twice = await call(ds.key, 'POST', '/partnerlist', {
      email: 'two@example.nl',
      dataset: 'a',
      dataset1: 'b',
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe(PartnerApiMessages.duplicateField('dataset1'));
  });
});

describe('upsert', () => {
  it('inserts and replaces (modified counts changed records only), last of two with one address wins', async () => {
    const ds = await keyedDataset();
    const first = await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'a@example.nl', voornaam: 'A' },
      { email: 'b@example.nl', voornaam: 'B' },
    ]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ inserted: 2, modified: 0, skipped: 0 });
    const second = await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'a@example.nl', voornaam: 'A' },
      { email: 'B@example.nl', voornaam: 'B2' },
      { email: 'c@example.nl', voornaam: 'C' },
      { email: 'c@example.nl', voornaam: 'C-last' },
    ]);
    expect(second.json()).toMatchObject({ inserted: 1, modified: 1, skipped: 0 });
    expect((await recordsOf(ds.id)).map((r) => [r.email, r.attrs.voornaam])).toEqual([
      ['a@example.nl', 'A'],
      ['b@example.nl', 'B2'],
      ['c@example.nl', 'C-last'],
    ]);
    expect(await recordCount(ds.id)).toBe(3);
  });

  it('a record the API wrote is unchanged for an upload of the same values (one mapping, one hash)', async () => {
    const ds = await keyedDataset();
    await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'x@example.nl', voornaam: 'X', postcode: '1000AA' },
      { email: 'y@example.nl', voornaam: 'Y', postcode: '2000BB' },
    ]);
    const res = await postCsv(
      ds.key,
      'email,voornaam,postcode\nx@example.nl,X,1000AA\ny@example.nl,Y,2000BB\n',
    );
    const task = res.statusCode === 202 ? await waitForTask(ds.key, res.json().id) : res.json();
    expect(task.state).toBe('done');
    expect(task.result).toMatchObject({ read: 2, saved: 0, unchanged: 2, deleted: 0 });
  });

  it('an encrypted column: ciphertext and blind index stored, the partner reads it back plain, an upload of the same values changes nothing', async () => {
    const ds = await keyedDataset([
      columnMapping('voornaam', 'voornaam'),
      columnMapping('telefoon', 'phone', { encrypted: true }),
    ]);
    const res = await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'enc@example.nl', voornaam: 'E', telefoon: '0612345678' },
    ]);
    expect(res.json()).toMatchObject({ inserted: 1 });
    const [stored] = await recordsOf(ds.id);
    expect(stored.attrs.phone).toMatch(/^enc:v1:/);
    expect(stored.attrs.phone__bi).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.raw.join('|')).not.toContain('0612345678');
    const got = (await call(ds.key, 'GET', '/partnerlist/enc@example.nl')).json();
    expect(got.telefoon).toBe('0612345678');
    expect(got).not.toHaveProperty('telefoon__bi');
    const csv = await postCsv(ds.key, 'email,voornaam,telefoon\nenc@example.nl,E,0612345678\n');
    const task = csv.statusCode === 202 ? await waitForTask(ds.key, csv.json().id) : csv.json();
    expect(task.result).toMatchObject({ read: 1, saved: 0, unchanged: 1 });
  });

  it('a replaced key stops working at once', async () => {
    const ds = await keyedDataset();
    const rotated = await t.api('POST', `/api/datasets/${ds.partnerId}/${ds.id}/key`);
    expect(rotated.statusCode).toBe(200);
    const [row] = await t.db.select({ key: datasets.apiKey }).from(datasets).where(eq(datasets.id, ds.id));
    expect(row.key).not.toBe(ds.key);
    expect((await call(ds.key, 'GET', '/partnerlist/a@example.nl')).statusCode).toBe(401);
    expect((await call(row.key ?? '', 'GET', '/partnerlist/a@example.nl')).statusCode).toBe(404);
  });

  it(`takes ${MAX_UPSERT_RECORDS} records and answers 413 above`, async () => {
    const ds = await keyedDataset();
    const records = Array.from({ length: MAX_UPSERT_RECORDS + 1 }, (_, i) => ({ email: `r${i}@example.nl` }));
    const over = await call(ds.key, 'POST', '/partnerlist/upsert', records);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ message: PartnerApiMessages.tooManyRecords });
    const ok = await call(ds.key, 'POST', '/partnerlist/upsert', records.slice(0, MAX_UPSERT_RECORDS));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().inserted).toBe(MAX_UPSERT_RECORDS);
  });
});

describe('bad input: 400 with the spec’s texts, nothing written', () => {
  it('refuses each and writes nothing', async () => {
    const ds = await keyedDataset();
    const json = { 'content-type': 'application/json' };
    const cases: [string, string, unknown, string][] = [
      ['POST', '/partnerlist', '{"email": "a@b.nl",', PartnerApiMessages.invalidJson],
      ['POST', '/partnerlist', [{ email: 'a@b.nl' }], PartnerApiMessages.expectedObject],
      ['POST', '/partnerlist/upsert', { email: 'a@b.nl' }, PartnerApiMessages.expectedArray],
      ['POST', '/partnerlist', { voornaam: 'X' }, PartnerApiMessages.missingEmail],
      ['POST', '/partnerlist', { email: 'not-an-address' }, PartnerApiMessages.invalidEmail],
      [
        'POST',
        '/partnerlist/upsert',
        [{ email: 'ok@example.nl' }, { email: 'nope' }],
        PartnerApiMessages.invalidEmailList,
      ],
      [
        'POST',
        '/partnerlist/upsert',
        [{ email: 'ok@example.nl' }, { voornaam: 'X' }],
        PartnerApiMessages.missingEmail,
      ],
      // Fastify's JSON parser refuses a __proto__ key before any schema sees it.
      ['POST', '/partnerlist', '{"email":"a@b.nl","__proto__":{"x":1}}', PartnerApiMessages.invalidJson],
      ['POST', '/partnerlist', '', PartnerApiMessages.invalidJson],
      [
        'POST',
        '/partnerlist',
        { email: 'a@b.nl', constructor: 'x' },
        PartnerApiMessages.badFieldName('constructor'),
      ],
      ['POST', '/partnerlist', { email: 'a@b.nl', ssn__bi: 'x' }, PartnerApiMessages.badFieldName('ssn__bi')],
      [
        'POST',
        '/partnerlist',
        { email: 'a@b.nl', 'tab\there': 'x' },
        PartnerApiMessages.badFieldName('tab\there'),
      ],
      ['POST', '/partnerlist', { email: 'a@b.nl', 'email ': 'x' }, PartnerApiMessages.badFieldName('email ')],
      [
        'POST',
        '/partnerlist',
        { email: 'a@b.nl', ['k'.repeat(300)]: 'x' },
        PartnerApiMessages.badFieldName('k'.repeat(300)),
      ],
      [
        'POST',
        '/partnerlist',
        { email: 'a@b.nl', Voornaam: 'x', voornaam: 'y' },
        PartnerApiMessages.duplicateField('voornaam'),
      ],
      ['POST', '/partnerlist', { email: 'a@b.nl', nested: { a: 1 } }, PartnerApiMessages.badValue],
      ['POST', '/partnerlist', { email: 'a@b.nl', long: 'x'.repeat(10_001) }, PartnerApiMessages.badValue],
      [
        'POST',
        '/partnerlist',
        JSON.stringify({ email: 'a@b.nl', big: 'x'.repeat(10 * 1024 * 1024) }),
        PartnerApiMessages.tooLarge,
      ],
      ['POST', '/partnerlist', { email: 'a@b.nl', nul: 'a\u0000b' }, PartnerApiMessages.badValue],
    ];
    for (const [method, url, body, message] of cases) {
      const res = await call(ds.key, method as 'POST', url, body, typeof body === 'string' ? json : {});
      expect(
        [res.statusCode, res.json().message],
        `${url} ${String(JSON.stringify(body)).slice(0, 80)}`,
      ).toEqual([400, message]);
    }
    expect(await recordsOf(ds.id)).toEqual([]);
    expect(await recordCount(ds.id)).toBe(0);
  });
});

describe('CSV', () => {
  it('imports a file through the mapping; deleteOld (default true) removes records not in the file', async () => {
    const ds = await keyedDataset();
    await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'keep@example.nl', voornaam: 'Keep' },
      { email: 'old@example.nl', voornaam: 'Old' },
    ]);
    const res = await postCsv(
      ds.key,
      'email;voornaam;dataset\nkeep@example.nl;Kept;x\nnew@example.nl;New;y\n',
    );
    expect([200, 202]).toContain(res.statusCode);
    const task = res.statusCode === 202 ? await waitForTask(ds.key, res.json().id) : res.json();
    expect(task).toMatchObject({ state: 'done', percentage: 100, file: 'leden.csv' });
    expect(task.result).toMatchObject({ read: 2, deleted: 1 });
    expect((await recordsOf(ds.id)).map((r) => [r.email, r.attrs.voornaam])).toEqual([
      ['keep@example.nl', 'Kept'],
      ['new@example.nl', 'New'],
    ]);
    // The reserved column 'dataset' of the file is stored as dataset1.
    expect((await call(ds.key, 'GET', '/partnerlist/new@example.nl')).json().dataset1).toBe('y');
    const polled = await call(ds.key, 'GET', `/partnerlist/csv/${task.id}`);
    expect(polled.json()).toMatchObject({ id: task.id, state: 'done' });
  });

  it('deleteOld=false keeps records not in the file', async () => {
    const ds = await keyedDataset();
    await call(ds.key, 'POST', '/partnerlist/upsert', [{ email: 'stay@example.nl', voornaam: 'Stay' }]);
    const res = await postCsv(ds.key, 'email,voornaam\nadded@example.nl,Added\n', { deleteOld: 'false' });
    const task = res.statusCode === 202 ? await waitForTask(ds.key, res.json().id) : res.json();
    expect(task.result).toMatchObject({ read: 1, deleted: 0 });
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['added@example.nl', 'stay@example.nl']);
    const bad = await postCsv(ds.key, 'email\na@example.nl\n', { deleteOld: 'misschien' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, PartnerApiMessages.badDeleteOld]);
  });

  it('refuses a missing file, UTF-16, a binary file and a file too small (400), nothing written', async () => {
    const ds = await keyedDataset();
    const noFile = multipartBody({ deleteOld: 'true' });
    const cases: [{ payload: Buffer | string; headers: Record<string, string> }, string][] = [
      [noFile, PartnerApiMessages.missingFile],
      [{ payload: '{}', headers: { 'content-type': 'application/json' } }, PartnerApiMessages.missingFile],
      [
        multipartBody(
          {},
          {
            name: 'a.csv',
            content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\na@b.nl\n', 'utf16le')]),
          },
        ),
        PartnerApiMessages.unexpectedEncoding,
      ],
      [
        multipartBody({}, { name: 'a.csv', content: Buffer.from('email\na@b.nl\n', 'utf16le') }),
        PartnerApiMessages.unexpectedEncoding,
      ],
      [
        multipartBody({}, { name: 'a.csv', content: crypto.randomBytes(5000) }),
        PartnerApiMessages.unexpectedEncoding,
      ],
      [multipartBody({}, { name: 'a.csv', content: '' }), PartnerApiMessages.fileTooSmall],
      [multipartBody({}, { name: 'a.csv', content: 'email\n' }), PartnerApiMessages.fileTooSmall],
      [multipartBody({}, { name: 'a.txt', content: 'email\na@b.nl\n' }), PartnerApiMessages.onlyCsv],
    ];
    for (const [body, message] of cases) {
      const res = await call(ds.key, 'POST', '/partnerlist/csv', body.payload, body.headers);
      expect([res.statusCode, res.json().message]).toEqual([400, message]);
    }
    expect(await recordsOf(ds.id)).toEqual([]);
    const failed = await t.db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM tasks WHERE payload ->> 'datasetId' = ${ds.id} OR (dataset_id = ${ds.name} AND state <> 'failed')`);
    expect(failed.rows[0].n).toBe(0);
  });

  it('a task of another dataset is 404', async () => {
    const a = await keyedDataset();
    const b = await keyedDataset();
    const res = await postCsv(a.key, 'email\na@example.nl\n');
    const id = res.statusCode === 202 ? res.json().id : res.json().id;
    expect((await call(a.key, 'GET', `/partnerlist/csv/${id}`)).statusCode).toBe(200);
    const other = await call(b.key, 'GET', `/partnerlist/csv/${id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: PartnerApiMessages.taskNotFound });
    expect((await call(a.key, 'GET', '/partnerlist/csv/unknown')).statusCode).toBe(404);
  });
});
