import { beforeAll, describe, expect, it } from 'vitest';
import { IssuerMessages } from '../../../common/issuer';
import { setupTestApp } from '../../test/app';
import { makeSession } from '../../test/factories';
import { auditReader } from '../audit/audit.test-helpers';
import { settings } from './settings.table';

// The issuer's details of statements ('Gegevens afnemer (afrekeningen)'): GET for all staff, PUT
// for administrators, validated with Dutch messages, each change in the audit log.
const t = setupTestApp({ startWorker: false });
const audit = auditReader(t);
let staffCookie = '';

beforeAll(async () => {
  staffCookie = (await makeSession(t.app, t.db, 'staff')).cookie;
});

const EMPTY = {
  name: '',
  address: '',
  postalCode: '',
  city: '',
  country: '',
  vatNumber: '',
  cocNumber: '',
};
const FULL = {
  name: 'Lijstwerk Makelaar BV',
  address: 'Keizersgracht 1',
  postalCode: '1015 CJ',
  city: 'Amsterdam',
  country: 'NL',
  vatNumber: 'NL123456789B01',
  cocNumber: '12345678',
};

const put = (payload: unknown, cookie = t.cookie) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/settings/issuer',
    payload: payload as object,
    headers: { cookie },
  });
const get = async (cookie = t.cookie) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/settings/issuer', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const issuerEntries = async () =>
  (await audit.entries('settings-changed')).filter((e) => e.subject === 'issuer');

describe.sequential('the issuer settings', () => {
  it('answer empty fields before any are saved, to staff too', async () => {
    expect(await get()).toEqual(EMPTY);
    expect(await get(staffCookie)).toEqual(EMPTY);
  });

  it('are saved by an administrator, trimmed, the VAT and KvK numbers without spaces or dots', async () => {
    const res = await put({
      ...FULL,
      name: '  Lijstwerk Makelaar BV ',
      country: 'nl',
      vatNumber: 'nl 1234.56.789.b01',
      cocNumber: '1234 5678',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(FULL);
    expect(await get(staffCookie)).toEqual(FULL);
    // The send settings are another route's: untouched, and GET /settings does not carry these.
    expect(Object.keys((await t.api('GET', '/api/settings')).json()).sort()).toEqual([
      'minMailings',
      'retentionDays',
      'solarId',
    ]);
  });

  it('record each change in the audit log with its fields before and after; an unchanged save none', async () => {
    const before = (await issuerEntries()).length;
    expect(before).toBe(1);
    expect((await issuerEntries())[0]).toMatchObject({
      username: t.user.row.username,
      details: { name: { before: '', after: FULL.name }, cocNumber: { before: '', after: '12345678' } },
    });
    expect((await put(FULL)).statusCode).toBe(200);
    expect(await issuerEntries()).toHaveLength(1);
    expect((await put({ ...FULL, city: 'Utrecht' })).statusCode).toBe(200);
    const entries = await issuerEntries();
    expect(entries).toHaveLength(2);
    expect(entries[1].details).toEqual({ city: { before: 'Amsterdam', after: 'Utrecht' } });
    expect((await put(FULL)).statusCode).toBe(200);
  });

  it('may all be emptied: every field is optional', async () => {
    expect((await put({})).json()).toEqual(EMPTY);
    expect((await put(FULL)).json()).toEqual(FULL);
  });

  it.each([
    [
      'a VAT number without its country letters',
      { vatNumber: '123456789B01' },
      IssuerMessages.vatNumberInvalid,
    ],
    ['a VAT number too short', { vatNumber: 'NL1' }, IssuerMessages.vatNumberInvalid],
    ['a VAT number too long', { vatNumber: `NL${'1'.repeat(14)}` }, IssuerMessages.vatNumberInvalid],
    ['a VAT number with a sign', { vatNumber: 'NL1234#678' }, IssuerMessages.vatNumberInvalid],
    ['a KvK number of 7 digits', { cocNumber: '1234567' }, IssuerMessages.cocNumberInvalid],
    ['a KvK number of 9 digits', { cocNumber: '123456789' }, IssuerMessages.cocNumberInvalid],
    ['a KvK number of letters', { cocNumber: 'abcdefgh' }, IssuerMessages.cocNumberInvalid],
    ['an unknown country', { country: 'XX' }, IssuerMessages.countryInvalid],
    ['a long name', { name: 'x'.repeat(201) }, IssuerMessages.nameTooLong],
    ['a long postcode', { postalCode: '1'.repeat(21) }, IssuerMessages.postalCodeTooLong],
    ['a number for a name', { name: 42 }, undefined],
  ])('refuse %s with a Dutch 400, storing and logging nothing', async (_case, change, message) => {
    const logged = (await issuerEntries()).length;
    const res = await put({ ...FULL, ...change, city: 'Anders' });
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().errors).toContain(message);
    expect(await get()).toEqual(FULL);
    expect(await issuerEntries()).toHaveLength(logged);
  });

  it('refuse other staff with 403, before looking at the body, and log nothing', async () => {
    const logged = (await issuerEntries()).length;
    for (const body of [{ ...FULL, name: 'Overgenomen BV' }, { cocNumber: 'fout' }]) {
      const res = await put(body, staffCookie);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(IssuerMessages.adminOnly);
    }
    expect(await get()).toEqual(FULL);
    expect(await issuerEntries()).toHaveLength(logged);
  });

  it('answer 400 to a malformed body and 401 without a session', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/issuer',
      headers: { cookie: t.cookie, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/issuer' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/settings/issuer', payload: FULL })).statusCode,
    ).toBe(401);
  });

  it('recreate the settings row when it is missing, the send settings at their defaults', async () => {
    await t.db.delete(settings);
    expect(await get()).toEqual(EMPTY);
    expect((await put(FULL)).statusCode).toBe(200);
    expect(await get()).toEqual(FULL);
    expect((await t.api('GET', '/api/settings')).json()).toEqual({
      minMailings: 1,
      solarId: '',
      retentionDays: 730,
    });
  });
});
