import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { enrolTwoFactor, loginCookie, makeUser } from '../../test/factories';

// A new password or a 2fa change ends the user's other sessions (the acting
// session stays when it is their own), and the cookie's lifetime follows the sliding expiry.

// The file's session is an administrator's.
const t = setupTestApp({ startWorker: false });

const status = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode;
const as = (cookie: string, method: 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: { cookie } });

describe('ending other sessions', () => {
  it("an administrator's new password for a user ends all of that user's sessions, not the administrator's", async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const [a, b] = [await loginCookie(t.app, user), await loginCookie(t.app, user)];
    const res = await as(t.cookie, 'PUT', `/api/users/${user.row.id}`, {
      name: user.row.name,
      username: user.row.username,
      password: 'Vervangen123',
    });
    expect(res.statusCode).toBe(200);
    expect([await status(a), await status(b), await status(t.cookie)]).toEqual([401, 401, 200]);
  });

  it('changing their own password keeps the current session and ends the others', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const [current, elsewhere] = [await loginCookie(t.app, user), await loginCookie(t.app, user)];
    const res = await as(current, 'PUT', `/api/users/${user.row.id}`, {
      name: user.row.name,
      username: user.row.username,
      password: 'EigenNieuw123',
      currentPassword: user.password,
    });
    expect(res.statusCode).toBe(200);
    expect([await status(current), await status(elsewhere)]).toEqual([200, 401]);
  });

  it('saving without a new password ends no session', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const cookie = await loginCookie(t.app, user);
    await as(t.cookie, 'PUT', `/api/users/${user.row.id}`, {
      name: 'Alleen Naam',
      username: user.row.username,
    });
    expect(await status(cookie)).toBe(200);
  });

  it('enabling and disabling 2fa end the other sessions; the own acting session stays', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const [current, elsewhere] = [await loginCookie(t.app, user), await loginCookie(t.app, user)];
    await enrolTwoFactor(t.app, current, user.row);
    expect([await status(current), await status(elsewhere)]).toEqual([200, 401]);

    const later = await loginCookie(t.app, user, undefined).catch(() => 'needs a token');
    expect(later).toBe('needs a token');
    const disable = await as(current, 'PUT', `/api/auth/2fa/${user.row.id}/disable`);
    expect(disable.statusCode).toBe(200);
    expect(await status(current)).toBe(200);
  });

  it("an administrator's 2fa change for a user ends every session of that user", async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const cookie = await loginCookie(t.app, user);
    await enrolTwoFactor(t.app, t.cookie, user.row);
    expect([await status(cookie), await status(t.cookie)]).toEqual([401, 200]);
    const again = await loginCookie(t.app, user).catch(() => '');
    expect(again).toBe('');
    await as(t.cookie, 'PUT', `/api/auth/2fa/${user.row.id}/disable`);
    const fresh = await loginCookie(t.app, user);
    await enrolTwoFactor(t.app, t.cookie, user.row);
    expect(await status(fresh)).toBe(401);
  });
});

describe('cookie lifetime', () => {
  const ttlSeconds = () => t.ctx.config.sessionTtlHours * 3600;
  const tokenOf = (c: string) => c.slice('lijstwerk_session='.length);

  it('login sets Max-Age to the session lifetime', async () => {
    const user = await makeUser(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: user.row.username, password: user.password },
    });
    expect(res.cookies.find((c) => c.name === 'lijstwerk_session')?.maxAge).toBe(ttlSeconds());
  });

  it('a request that slides the session sets the cookie again with the full lifetime; a fresh one does not', async () => {
    const user = await makeUser(t.db);
    const cookie = await loginCookie(t.app, user);
    const fresh = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(fresh.cookies).toHaveLength(0);

    // An hour left of the session: the server slides it, and the cookie must live as long.
    await t.db.execute(sql`
      UPDATE sessions SET expires_at = now() + interval '1 hour'
      WHERE token_hash = encode(sha256(convert_to(${tokenOf(cookie)}, 'UTF8')), 'hex')`);
    const slid = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(slid.statusCode).toBe(200);
    const set = slid.cookies.find((c) => c.name === 'lijstwerk_session');
    expect(set?.value).toBe(tokenOf(cookie));
    expect(set?.maxAge).toBe(ttlSeconds());
    expect(set?.httpOnly).toBe(true);
    expect(set?.sameSite).toBe('Strict');
  });

  it('logout of a session that slides still clears the cookie', async () => {
    const user = await makeUser(t.db);
    const cookie = await loginCookie(t.app, user);
    await t.db.execute(sql`
      UPDATE sessions SET expires_at = now() + interval '1 hour'
      WHERE token_hash = encode(sha256(convert_to(${tokenOf(cookie)}, 'UTF8')), 'hex')`);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    const set = out.cookies.filter((c) => c.name === 'lijstwerk_session');
    expect(set).toHaveLength(1);
    expect(set[0].value).toBe('');
  });
});
