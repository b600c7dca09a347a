import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthMessages } from '../../../common/auth';
import { UserMessages } from '../../../common/users';
import { SESSION_COOKIE } from '../../plugins/auth';
import { setupTestApp } from '../../test/app';
import { enableTwoFactor, loginCookie, makeSession, makeUser } from '../../test/factories';
import { createTotpSecret, generateTotp } from './totp';

const t = setupTestApp({ startWorker: false, session: false });

const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload });

describe('POST /api/auth/login', () => {
  it('answers 200 with the account and sets an httpOnly SameSite=Strict cookie', async () => {
    const user = await makeUser(t.db);
    const res = await login({ username: user.row.username, password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: user.row.id,
      name: user.row.name,
      username: user.row.username,
      role: 'admin',
      '2fa': false,
    });
    const cookie = res.cookies.find((c) => c.name === 'lijstwerk_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
  });

  it('answers 401 with the same body for a wrong password and for an unknown user', async () => {
    const user = await makeUser(t.db);
    const wrong = await login({ username: user.row.username, password: 'Verkeerd123' });
    const unknown = await login({ username: 'bestaat_niet', password: 'Verkeerd123' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.cookies).toHaveLength(0);
  });

  it('answers 206 without a token, 403 Token ongeldig for a wrong one and 200 for the right one', async () => {
    const user = await makeUser(t.db);
    const secret = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, secret);
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
    const user = await makeUser(t.db);
    const cookie = await loginCookie(t.app, user);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe(user.row.username);
    const anon = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().message).toBe(AuthMessages.notLoggedIn);
  });

  it('GET /api/auth/me?optional=true answers 204 for nobody, so the login page logs no failed request', async () => {
    const user = await makeUser(t.db);
    const cookie = await loginCookie(t.app, user);
    const url = '/api/auth/me?optional=true';
    const me = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().username).toBe(user.row.username);
    const anon = await t.app.inject({ method: 'GET', url });
    expect(anon.statusCode).toBe(204);
    expect(anon.body).toBe('');
    const stale = await t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: `${SESSION_COOKIE}=onbekend` },
    });
    expect(stale.statusCode).toBe(204);
    for (const query of ['', '?optional=false']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/auth/me${query}` })).statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me?optional=ja' })).statusCode).toBe(400);
  });
});

describe('sessions', () => {
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });

  it('logout ends the session: the old cookie then gets 401 on /api/auth/me', async () => {
    const { cookie } = await makeSession(t.app, t.db);
    expect((await me(cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === 'lijstwerk_session');
    expect(cleared?.value).toBe('');
    const after = await me(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(AuthMessages.notLoggedIn);
  });

  it('logout without a session still answers 200', async () => {
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(200);
  });

  it('an expired session gets 401 while another session of the same user still works', async () => {
    const user = await makeUser(t.db);
    const expired = await loginCookie(t.app, user);
    const live = await loginCookie(t.app, user);
    const tokenOf = (c: string) => c.slice('lijstwerk_session='.length);
    // Only the first session's row is moved into the past (rows are found by the token's SHA-256).
    await t.db.execute(sql`
      UPDATE sessions SET expires_at = now() - interval '1 minute'
      WHERE token_hash = encode(sha256(convert_to(${tokenOf(expired)}, 'UTF8')), 'hex')`);
    expect((await me(expired)).statusCode).toBe(401);
    expect((await me(live)).statusCode).toBe(200);
  });
});

describe('2fa management', () => {
  let admin: { cookie: string };
  beforeAll(async () => {
    admin = await makeSession(t.app, t.db);
  });

  it('enable returns an otpauth link with the secret; login then needs the token; disable turns it off', async () => {
    const user = await makeUser(t.db);
    const creds = { username: user.row.username, password: user.password };
    const enable = await t.app.inject({
      method: 'POST',
      url: `/api/auth/2fa/${user.row.id}`,
      headers: admin,
      payload: { username: user.row.username },
    });
    expect(enable.statusCode).toBe(200);
    const { link, secret } = enable.json() as { link: string; secret: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(link.startsWith('otpauth://totp/')).toBe(true);
    expect(link).toContain(`secret=${secret}`);
    expect(link).toContain(encodeURIComponent(user.row.username));

    const listed = await t.app.inject({ method: 'GET', url: '/api/users', headers: admin });
    expect(listed.json().find((u: { _id: string }) => u._id === user.row.id)['2fa']).toBe(false);
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/api/auth/2fa/${user.row.id}/confirm`,
      headers: admin,
      payload: { token: generateTotp(secret, Date.now() - 30_000) },
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()['2fa']).toBe(true);

    expect((await login(creds)).statusCode).toBe(206);
    const ok = await login({ ...creds, token: generateTotp(secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()['2fa']).toBe(true);

    const disable = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/2fa/${user.row.id}/disable`,
      headers: admin,
    });
    expect(disable.statusCode).toBe(200);
    expect(disable.json()).toEqual({
      _id: user.row.id,
      name: user.row.name,
      username: user.row.username,
      role: 'admin',
      '2fa': false,
    });

    const after = await t.app.inject({ method: 'GET', url: '/api/users', headers: admin });
    expect(after.json().find((u: { _id: string }) => u._id === user.row.id)['2fa']).toBe(false);
    const plain = await login(creds);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()['2fa']).toBe(false);
  });

  it("enabling keeps 2fa off until the first code is confirmed; a wrong code answers 400 'Token ongeldig' and changes nothing", async () => {
    const user = await makeUser(t.db);
    const creds = { username: user.row.username, password: user.password };
    const confirm = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/auth/2fa/${user.row.id}/confirm`,
        headers: admin,
        payload: { token },
      });
    expect((await confirm('123456')).statusCode).toBe(409);

    const enable = await t.app.inject({
      method: 'POST',
      url: `/api/auth/2fa/${user.row.id}`,
      headers: admin,
      payload: { username: user.row.username },
    });
    const { secret } = enable.json() as { secret: string };
    expect((await login(creds)).statusCode).toBe(200);

    const good = generateTotp(secret);
    const wrong = good === '000000' ? '111111' : '000000';
    for (const token of [wrong, 'abc', '', generateTotp(createTotpSecret())]) {
      const res = await confirm(token);
      // 400, not 403: the web app logs out on every 403, and a mistyped code is no permission failure.
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(AuthMessages.tokenInvalidTitle);
    }
    const stillOff = await t.app.inject({ method: 'GET', url: `/api/users/${user.row.id}`, headers: admin });
    expect(stillOff.json()['2fa']).toBe(false);
    expect((await login(creds)).statusCode).toBe(200);

    const on = await confirm(good);
    expect(on.statusCode).toBe(200);
    expect(on.json()['2fa']).toBe(true);
    // The confirming code was used: it does not log in again, and the enrolment is done.
    const replay = await login({ ...creds, token: good });
    expect(replay.statusCode).toBe(403);
    expect(replay.json().message).toBe(AuthMessages.tokenInvalid);
    expect((await confirm(good)).statusCode).toBe(409);
  });

  it('a new enrolment while 2fa is on keeps the old secret until the new one is confirmed', async () => {
    const user = await makeUser(t.db);
    const creds = { username: user.row.username, password: user.password };
    const old = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, old);
    const enable = await t.app.inject({
      method: 'POST',
      url: `/api/auth/2fa/${user.row.id}`,
      headers: admin,
      payload: { username: user.row.username },
    });
    expect(enable.statusCode).toBe(200);
    expect((await login({ ...creds, token: generateTotp(old) })).statusCode).toBe(200);
  });

  it('answers 404 with the user message for an unknown user id', async () => {
    const enable = await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/bestaatniet',
      headers: admin,
      payload: { username: 'bestaatniet' },
    });
    expect(enable.statusCode).toBe(404);
    expect(enable.json().message).toBe(UserMessages.notFound);
    const disable = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/2fa/bestaatniet/disable',
      headers: admin,
    });
    expect(disable.statusCode).toBe(404);
    expect(disable.json().message).toBe(UserMessages.notFound);
  });

  it('needs a session', async () => {
    const user = await makeUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/auth/2fa/${user.row.id}`,
      payload: { username: user.row.username },
    });
    expect(res.statusCode).toBe(401);
  });

  it('never shows the TOTP secret or the password hash in the user list or a single user', async () => {
    const user = await makeUser(t.db);
    const secret = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, secret);
    const list = await t.app.inject({ method: 'GET', url: '/api/users', headers: admin });
    const one = await t.app.inject({ method: 'GET', url: `/api/users/${user.row.id}`, headers: admin });
    expect(list.statusCode).toBe(200);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      _id: user.row.id,
      name: user.row.name,
      username: user.row.username,
      role: 'admin',
      '2fa': true,
    });
    for (const body of [list.body, one.body]) {
      expect(body).toContain(user.row.username);
      expect(body).not.toContain(secret);
      expect(body).not.toContain('argon2');
      expect(body).not.toContain(user.row.passwordHash);
    }
  });
});

describe('login rate limit', () => {
  const limited = setupTestApp({ startWorker: false, session: false, config: { loginRateMax: 3 } });

  const attempt = (username: string) =>
    limited.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: 'Verkeerd123' },
    });

  it('answers 429 in Dutch on the 4th attempt for one username, while another username still gets 401', async () => {
    const user = await makeUser(limited.database.db);
    for (let i = 0; i < 3; i++) expect((await attempt(user.row.username)).statusCode).toBe(401);
    const blocked = await attempt(user.row.username);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(AuthMessages.tooManyAttempts);
    // The key is IP plus lower-cased username: a different spelling of the same name is the same key.
    expect((await attempt(user.row.username.toUpperCase())).statusCode).toBe(429);
    // Even the right password is refused while the limit holds.
    const right = await limited.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.row.username, password: user.password },
    });
    expect(right.statusCode).toBe(429);

    const other = await attempt('iemand_anders');
    expect(other.statusCode).toBe(401);
    expect(other.json().message).toBe(AuthMessages.invalidCredentials);
  });

  it('counts per IP: the same username from another IP is not blocked', async () => {
    const username = 'gedeelde_naam';
    for (let i = 0; i < 4; i++) await attempt(username);
    expect((await attempt(username)).statusCode).toBe(429);
    const elsewhere = await limited.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.1.2.3',
      payload: { username, password: 'Verkeerd123' },
    });
    expect(elsewhere.statusCode).toBe(401);
  });
});
