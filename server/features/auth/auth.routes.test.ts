import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { enableTwoFactor, loginCookie, makeUser } from '../../test/factories';
import { generateTotp, createTotpSecret } from './totp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ startWorker: false });
});
afterAll(() => t.close());

const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload });

describe('POST /api/auth/login', () => {
  it('answers 200 with the account and sets an httpOnly SameSite=Strict cookie', async () => {
    const user = await makeUser(t.database.db);
    const res = await login({ username: user.row.username, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: user.row.id, name: user.row.name, username: user.row.username, '2fa': false });
    const cookie = res.cookies.find((c) => c.name === 'lijstwerk_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
  });

  it('answers 401 with the same body for a wrong password and for an unknown user', async () => {
    const user = await makeUser(t.database.db);
    const wrong = await login({ username: user.row.username, password: 'Verkeerd123' });
    const unknown = await login({ username: 'bestaat_niet', password: 'Verkeerd123' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.cookies).toHaveLength(0);
  });

  it('answers 206 without a token, 403 Token ongeldig for a wrong one and 200 for the right one', async () => {
    const user = await makeUser(t.database.db);
    const secret = createTotpSecret();
    await enableTwoFactor(t.database.db, user.row.id, secret);
    const creds = { username: user.row.username, password: user.password };
    const needToken = await login(creds);
    expect(needToken.statusCode).toBe(206);
    expect(needToken.cookies).toHaveLength(0);
    const good = generateTotp(secret);
    const bad = good === '000000' ? '111111' : '000000';
    const wrongToken = await login({ ...creds, token: bad });
    expect(wrongToken.statusCode).toBe(403);
    expect(wrongToken.json().message).toBe('Vul een geldig token in');
    const ok = await login({ ...creds, token: good });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()['2fa']).toBe(true);
  });

  it('GET /api/auth/me answers the account with the cookie and 401 without', async () => {
    const user = await makeUser(t.database.db);
    const cookie = await loginCookie(t.app, user);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe(user.row.username);
    const anon = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(anon.statusCode).toBe(401);
  });
});
