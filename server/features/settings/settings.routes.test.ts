import { describe, expect, it } from 'vitest';
import { SettingsMessages } from '../../../common/settings';
import { setupTestApp } from '../../test/app';
import { getMinMailings } from './settings.queries';
import { settings, testPerson } from './settings.table';

const t = setupTestApp({ startWorker: false });

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: { cookie: t.cookie } });

// The tests share one settings row, so they run in order and each sets what it asserts.
describe.sequential('settings', () => {
  it('GET /api/settings answers the seeded defaults: minMailings 1, empty solarId', async () => {
    const res = await call('GET', '/api/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ minMailings: 1, solarId: '', retentionDays: 730 });
    expect(await getMinMailings(t.db)).toBe(1);
  });

  it('POST /api/settings stores both fields (solarId trimmed); GET and getMinMailings read them back', async () => {
    const res = await call('POST', '/api/settings', { minMailings: 4, solarId: '  SOLAR-42 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ minMailings: 4, solarId: 'SOLAR-42', retentionDays: 730 });
    expect((await call('GET', '/api/settings')).json()).toEqual({
      minMailings: 4,
      solarId: 'SOLAR-42',
      retentionDays: 730,
    });
    expect(await getMinMailings(t.db)).toBe(4);

    const zero = await call('POST', '/api/settings', { minMailings: 0, solarId: '' });
    expect(zero.json()).toEqual({ minMailings: 0, solarId: '', retentionDays: 730 });
    expect(await getMinMailings(t.db)).toBe(0);
  });

  it.each([
    ['text', 'abc', SettingsMessages.minMailingsNumber],
    ['a numeric string', '3', SettingsMessages.minMailingsNumber],
    ['null', null, SettingsMessages.minMailingsNumber],
    ['a missing value', undefined, SettingsMessages.minMailingsNumber],
    ['a fraction', 2.5, SettingsMessages.minMailingsInteger],
    ['a negative number', -1, SettingsMessages.minMailingsNegative],
    ['a huge number', 5_000_000_000, SettingsMessages.minMailingsTooLarge],
  ])(
    'minMailings as %s answers 400 with the Dutch message and stores nothing',
    async (_case, minMailings, message) => {
      await call('POST', '/api/settings', { minMailings: 2, solarId: 'vast' });
      const res = await call('POST', '/api/settings', { minMailings, solarId: 'anders' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContain(message);
      expect((await call('GET', '/api/settings')).json()).toEqual({
        minMailings: 2,
        solarId: 'vast',
        retentionDays: 730,
      });
    },
  );

  it('a solarId over 200 characters answers 400', async () => {
    const res = await call('POST', '/api/settings', { minMailings: 1, solarId: 'x'.repeat(201) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(SettingsMessages.solarIdTooLong);
  });

  it('a malformed body answers 400, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/settings',
      headers: { cookie: t.cookie, 'content-type': 'application/json' },
      payload: '{"minMailings":',
    });
    expect(res.statusCode).toBe(400);
  });

  it('getMinMailings falls back to 1 and POST recreates the row when it is missing', async () => {
    await t.db.delete(settings);
    expect(await getMinMailings(t.db)).toBe(1);
    expect((await call('GET', '/api/settings')).json()).toEqual({
      minMailings: 1,
      solarId: '',
      retentionDays: 730,
    });
    const res = await call('POST', '/api/settings', { minMailings: 7, solarId: 's' });
    expect(res.statusCode).toBe(200);
    expect(await getMinMailings(t.db)).toBe(7);
  });
});

describe.sequential('test person', () => {
  const person = {
    firstName: 'Tess',
    preposition: 'van',
    lastName: 'Test',
    gender: 'F',
    email: 'tess@example.nl',
  };

  it('GET /api/testperson answers the empty seeded person with gender M', async () => {
    const res = await call('GET', '/api/testperson');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ firstName: '', preposition: '', lastName: '', gender: 'M', email: '' });
  });

  it('PUT /api/testperson stores the person (trimmed, e-mail lower-cased); GET reads it back', async () => {
    const res = await call('PUT', '/api/testperson', {
      ...person,
      firstName: ' Tess ',
      email: ' Tess@Example.NL ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(person);
    expect((await call('GET', '/api/testperson')).json()).toEqual(person);
  });

  it('an absent gender defaults to M and absent names to empty', async () => {
    const res = await call('PUT', '/api/testperson', { email: 'alleen@example.nl' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      firstName: '',
      preposition: '',
      lastName: '',
      gender: 'M',
      email: 'alleen@example.nl',
    });
  });

  it.each([
    ['a missing e-mail', { ...person, email: undefined }, SettingsMessages.emailRequired],
    ['an empty e-mail', { ...person, email: '  ' }, SettingsMessages.emailRequired],
    ['an invalid e-mail', { ...person, email: 'geen-adres' }, SettingsMessages.emailInvalid],
    ['an unknown gender', { ...person, gender: 'X' }, 'Kies man, vrouw of onbekend'],
    ['a long name', { ...person, lastName: 'x'.repeat(201) }, SettingsMessages.nameTooLong],
  ])('%s answers 400 with the Dutch message and stores nothing', async (_case, payload, message) => {
    await call('PUT', '/api/testperson', person);
    const res = await call('PUT', '/api/testperson', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
    expect((await call('GET', '/api/testperson')).json()).toEqual(person);
  });

  it('PUT recreates the row when it is missing', async () => {
    await t.db.delete(testPerson);
    expect((await call('GET', '/api/testperson')).json().email).toBe('');
    expect((await call('PUT', '/api/testperson', person)).statusCode).toBe(200);
    expect((await call('GET', '/api/testperson')).json()).toEqual(person);
  });
});

describe('without a session', () => {
  it.each([
    ['GET', '/api/settings'],
    ['POST', '/api/settings'],
    ['GET', '/api/testperson'],
    ['PUT', '/api/testperson'],
  ] as const)('%s %s answers 401', async (method, url) => {
    const res = await t.app.inject({
      method,
      url,
      payload: method === 'GET' ? undefined : { minMailings: 1, solarId: '' },
    });
    expect(res.statusCode).toBe(401);
  });
});
