import { describe, expect, it } from 'vitest';
import { AuthMessages } from '../../../common/auth';
import { PASSWORD_MAX_LENGTH } from '../../../common/constants';
import { PasswordMessages } from '../../../common/password';
import { UserMessages } from '../../../common/users';
import { setupTestApp, type TestApp } from '../../test/app';
import { enableTwoFactor, enrolTwoFactor, makeSession, makeUser } from '../../test/factories';
import { createTotpSecret, generateTotp } from './totp';

// At the login: one-time TOTP codes, failed logins counted per IP across usernames, the one
// password limit, and usernames normalised and checked before the lookup.

const t = setupTestApp({ startWorker: false, session: false });

const login = (app: TestApp, payload: object, remoteAddress?: string) =>
  app.app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress });

describe('one-time TOTP codes', () => {
  it('a code logs in once; the replay answers 403 Token ongeldig', async () => {
    const user = await makeUser(t.db);
    const secret = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, secret);
    const creds = { username: user.row.username, password: user.password, token: generateTotp(secret) };
    expect((await login(t, creds)).statusCode).toBe(200);
    const replay = await login(t, creds);
    expect(replay.statusCode).toBe(403);
    expect(replay.json().message).toBe(AuthMessages.tokenInvalid);
    expect(replay.cookies).toHaveLength(0);
  });

  it("after a code, the previous step's code (still inside the drift window) is refused too", async () => {
    const user = await makeUser(t.db);
    const secret = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, secret);
    const now = Date.now();
    const creds = { username: user.row.username, password: user.password };
    expect((await login(t, { ...creds, token: generateTotp(secret, now + 30_000) })).statusCode).toBe(200);
    expect((await login(t, { ...creds, token: generateTotp(secret, now) })).statusCode).toBe(403);
  });

  it('two logins racing with one code: exactly one gets a session', async () => {
    const user = await makeUser(t.db);
    const secret = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, secret);
    const creds = { username: user.row.username, password: user.password, token: generateTotp(secret) };
    const results = await Promise.all([login(t, creds), login(t, creds), login(t, creds)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403, 403]);
  });

  it('a new enrolment starts afresh: the code of the new secret works', async () => {
    const { user, cookie } = await makeSession(t.app, t.db);
    const first = createTotpSecret();
    await enableTwoFactor(t.db, user.row.id, first);
    expect(
      (
        await login(t, {
          username: user.row.username,
          password: user.password,
          token: generateTotp(first, Date.now() + 30_000),
        })
      ).statusCode,
    ).toBe(200);
    const secret = await enrolTwoFactor(t.app, cookie, user.row);
    expect(
      (await login(t, { username: user.row.username, password: user.password, token: generateTotp(secret) }))
        .statusCode,
    ).toBe(200);
  });
});

describe('failed logins per client IP across usernames', () => {
  const limited = setupTestApp({
    startWorker: false,
    session: false,
    config: { loginRateMax: 1000, loginRateIpMax: 3 },
  });

  it('after 3 failures on 3 usernames the 4th username is refused with 429, even with the right password', async () => {
    const user = await makeUser(limited.database.db);
    const ip = '10.0.0.7';
    for (const name of ['spray_a', 'spray_b', 'spray_c']) {
      expect((await login(limited, { username: name, password: 'Zomer2024' }, ip)).statusCode).toBe(401);
    }
    const blocked = await login(limited, { username: user.row.username, password: user.password }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(AuthMessages.tooManyAttempts);
    // Another address is not affected.
    expect(
      (await login(limited, { username: user.row.username, password: user.password }, '10.0.0.8')).statusCode,
    ).toBe(200);
  });

  it('successful logins do not count: colleagues behind one address keep logging in', async () => {
    const ip = '10.0.0.9';
    for (let i = 0; i < 5; i++) {
      const user = await makeUser(limited.database.db);
      expect(
        (await login(limited, { username: user.row.username, password: user.password }, ip)).statusCode,
      ).toBe(200);
    }
  });

  it('wrong TOTP codes count as failures', async () => {
    const ip = '10.0.0.10';
    const user = await makeUser(limited.database.db);
    const secret = createTotpSecret();
    await enableTwoFactor(limited.database.db, user.row.id, secret);
    const good = generateTotp(secret);
    const bad = good === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      const res = await login(
        limited,
        { username: user.row.username, password: user.password, token: bad },
        ip,
      );
      expect(res.statusCode).toBe(403);
    }
    const res = await login(
      limited,
      { username: user.row.username, password: user.password, token: good },
      ip,
    );
    expect(res.statusCode).toBe(429);
  });
});

describe('the password limit', () => {
  const long = `A1${'x'.repeat(PASSWORD_MAX_LENGTH - 1)}`;

  it('a password longer than the login accepts is refused at creation and at update', async () => {
    const { cookie, user } = await makeSession(t.app, t.db);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie },
      payload: { name: 'Lang', username: `lang_${Date.now()}`, password: long },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().errors).toContain(PasswordMessages.max);
    const other = await makeUser(t.db);
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${other.row.id}`,
      headers: { cookie },
      payload: { name: other.row.name, username: other.row.username, password: long },
    });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().errors).toContain(PasswordMessages.max);
    // The login refuses it too: such a password could never be used.
    expect((await login(t, { username: user.row.username, password: long })).statusCode).toBe(400);
  });

  it('a password of exactly the limit is accepted and logs in', async () => {
    const { cookie } = await makeSession(t.app, t.db);
    const password = long.slice(0, PASSWORD_MAX_LENGTH);
    const username = `precies_${Date.now()}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie },
      payload: { name: 'Precies', username, password },
    });
    expect(created.statusCode).toBe(200);
    expect((await login(t, { username, password })).statusCode).toBe(200);
  });
});

describe('usernames', () => {
  const create = async (username: string) => {
    const { cookie } = await makeSession(t.app, t.db);
    return t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { cookie },
      payload: { name: 'Naam', username, password: 'Welkom123' },
    });
  };

  it.each([
    ['a Cyrillic а among Latin letters', '\u0430dmin', UserMessages.usernameMixedScripts],
    ['a Greek ο among Latin letters', 'r\u03BFot', UserMessages.usernameMixedScripts],
    ['a zero-width space', 'admin\u200b', UserMessages.usernameInvisible],
    ['a right-to-left override', 'admin\u202Egpj', UserMessages.usernameInvisible],
    ['a control character', 'ad\u0007min', UserMessages.usernameInvisible],
    ['a Hangul filler', 'admin\u3164', UserMessages.usernameInvisible],
  ])('%s is refused with 400 at creation and at login', async (_case, username, message) => {
    const res = await create(username);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(message);
    const atLogin = await login(t, { username, password: 'Welkom123' });
    expect(atLogin.statusCode).toBe(400);
    expect(atLogin.json().errors).toContain(message);
  });

  it('is stored NFKC-normalised, and a login with a compatible spelling finds it', async () => {
    const res = await create('\uFF4A\uFF41\uFF4E_\uFF56\uFF4B'); // fullwidth 'jan_vk'
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('jan_vk');
    expect((await login(t, { username: 'jan_vk', password: 'Welkom123' })).statusCode).toBe(200);
    expect(
      (await login(t, { username: '\uFF2A\uFF21\uFF2E_\uFF36\uFF2B', password: 'Welkom123' })).statusCode,
    ).toBe(200);
    // One name, one account: the compatible spelling is taken.
    expect((await create('\uFF4Aan_vk')).statusCode).toBe(409);
  });

  it('a single script other than Latin is accepted', async () => {
    const res = await create(`\u0438\u0432\u0430\u043D_${Date.now()}`); // 'иван_...'
    expect(res.statusCode).toBe(200);
  });
});
