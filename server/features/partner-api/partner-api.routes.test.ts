import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { columnMapping } from '../../../common/mappings';
import { MAX_UPSERT_RECORDS, PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { datasets } from '../datasets/dataset.table';
import { partnerApiHelpers } from './partner-api.test-helpers';

// Every call on records, its statuses and messages (spec 001 §7, §8), the reserved-field suffix
// and bad input (400 with the spec's texts, nothing written), through HTTP on a real database.

const t = setupTestApp();
const { keyedDataset, call, recordsOf, recordCount, waitForTask, postCsv, importCsv } = partnerApiHelpers(t);

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

  it("the address is the dataset's e-mail column, as in an upload (its mapping applies; the same file is unchanged)", async () => {
    const ds = await keyedDataset(
      [columnMapping('voornaam', 'voornaam'), columnMapping('E-mail', 'domein', { emailDomain: true })],
      'E-mail',
    );
    const res = await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'kees@voorbeeld.nl', voornaam: 'Kees' },
    ]);
    expect(res.json()).toMatchObject({ inserted: 1 });
    expect((await recordsOf(ds.id))[0].attrs).toEqual({ voornaam: 'Kees', domein: 'voorbeeld.nl' });
    const got = (await call(ds.key, 'GET', '/partnerlist/kees@voorbeeld.nl')).json();
    expect(got).not.toHaveProperty('E-mail');
    expect(got.email).toBe('kees@voorbeeld.nl');
    const task = await importCsv(ds.key, 'E-mail;voornaam\nkees@voorbeeld.nl;Kees\n');
    expect(task.result).toMatchObject({ read: 1, saved: 0, unchanged: 1 });
    // A field named like the e-mail column besides `email` would be a second address.
    const twice = await call(ds.key, 'POST', '/partnerlist', {
      email: 'a@voorbeeld.nl',
      'e-mail': 'b@voorbeeld.nl',
    });
    expect([twice.statusCode, twice.json().message]).toEqual([
      400,
      PartnerApiMessages.duplicateField('e-mail'),
    ]);
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
