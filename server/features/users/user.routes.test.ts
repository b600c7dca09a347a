import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PasswordMessages } from '../../../common/password';
import { UserMessages } from '../../../common/users';
import { setupTestApp } from '../../test/app';
import { loginCookie, makeUser } from '../../test/factories';
import { sessions } from '../auth/session.table';

// The file's session is an administrator's.
const t = setupTestApp({ startWorker: false });
const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

let counter = 0;
// A unique username per call, so the tests of this file do not depend on each other.
const uniqueName = (base: string) => `${base}_${++counter}_${Date.now().toString(36)}`;

describe('GET /api/users', () => {
  it('lists users sorted by name, as {_id, name, username, role, 2fa}', async () => {
    const zed = await makeUser(t.db, { name: 'Zwaan Zeeman' });
    const aap = await makeUser(t.db, { name: 'aap Aalders', role: 'staff' });
    const res = await t.api('GET', '/api/users');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { _id: string; name: string }[];
    expect(list.find((u) => u._id === aap.row.id)).toEqual({
      _id: aap.row.id,
      name: 'aap Aalders',
      username: aap.row.username,
      role: 'staff',
      '2fa': false,
    });
    // Sorted by name, case-insensitively: 'aap' < 'Tester ...' (the admin) < 'Zwaan'.
    const position = (id: string) => list.findIndex((u) => u._id === id);
    expect(position(aap.row.id)).toBeGreaterThanOrEqual(0);
    expect(position(aap.row.id)).toBeLessThan(position(t.user.row.id));
    expect(position(t.user.row.id)).toBeLessThan(position(zed.row.id));
  });
});

describe('GET /api/users/:id', () => {
  it('answers the user', async () => {
    const user = await makeUser(t.db);
    const res = await t.api('GET', `/api/users/${user.row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: user.row.id,
      name: user.row.name,
      username: user.row.username,
      role: 'admin',
      '2fa': false,
    });
  });

  it('answers 404 with the Dutch message for an unknown id', async () => {
    const res = await t.api('GET', '/api/users/bestaatniet');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(UserMessages.notFound);
  });
});

describe('POST /api/users', () => {
  it("creates a user ('staff' unless a role is given) who can then log in; the answer never holds the password", async () => {
    const username = uniqueName('nieuw');
    const res = await t.api('POST', '/api/users', {
      name: '  Nieuwe Collega ',
      username,
      password: 'Welkom123',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Nieuwe Collega',
      username,
      role: 'staff',
      '2fa': false,
    });
    expect(res.body).not.toContain('Welkom123');
    expect(res.body).not.toContain('argon2');
    expect((await t.api('GET', `/api/users/${body._id}`)).json().username).toBe(username);
    const ok = await login(username, 'Welkom123');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()._id).toBe(body._id);
  });

  it.each([
    ['missing name', { username: 'x1', password: 'Welkom123' }, UserMessages.nameRequired],
    ['blank name', { name: '   ', username: 'x2', password: 'Welkom123' }, UserMessages.nameRequired],
    ['missing username', { name: 'X', password: 'Welkom123' }, UserMessages.usernameRequired],
    ['empty username', { name: 'X', username: '', password: 'Welkom123' }, UserMessages.usernameRequired],
    ['missing password', { name: 'X', username: 'x3' }, PasswordMessages.required],
    ['empty password', { name: 'X', username: 'x4', password: '' }, PasswordMessages.required],
    ['short password', { name: 'X', username: 'x5', password: 'Kort12' }, PasswordMessages.min],
    [
      'password without a capital',
      { name: 'X', username: 'x6', password: 'welkom123' },
      PasswordMessages.capital,
    ],
    [
      'password without a digit',
      { name: 'X', username: 'x7', password: 'Welkomwelkom' },
      PasswordMessages.digit,
    ],
  ])('%s answers 400 with the Dutch message', async (_case, payload, message) => {
    const res = await t.api('POST', '/api/users', payload);
    expect(res.statusCode).toBe(400);
    const body = res.json() as { message: string; errors: string[] };
    expect(body.errors).toContain(message);
    expect(body.message).toContain(message);
  });

  it('a password that breaks every rule lists each message once', async () => {
    const res = await t.api('POST', '/api/users', { name: 'X', username: 'x8', password: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      PasswordMessages.min,
      PasswordMessages.capital,
      PasswordMessages.digit,
    ]);
  });

  it('answers 409 for a username that is taken, also in another case', async () => {
    const existing = await makeUser(t.db);
    for (const username of [existing.row.username, existing.row.username.toUpperCase()]) {
      const res = await t.api('POST', '/api/users', { name: 'Dubbel', username, password: 'Welkom123' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(UserMessages.usernameTaken);
    }
  });
});

describe('PUT /api/users/:id', () => {
  it('saves name and username; an absent or empty password keeps the old one', async () => {
    const user = await makeUser(t.db);
    const renamed = uniqueName('hernoemd');
    const absent = await t.api('PUT', `/api/users/${user.row.id}`, {
      name: 'Andere Naam',
      username: renamed,
    });
    expect(absent.statusCode).toBe(200);
    expect(absent.json()).toEqual({
      _id: user.row.id,
      name: 'Andere Naam',
      username: renamed,
      role: 'admin',
      '2fa': false,
    });
    expect((await login(renamed, user.password)).statusCode).toBe(200);

    const empty = await t.api('PUT', `/api/users/${user.row.id}`, {
      name: 'Weer Anders',
      username: renamed,
      password: '',
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().name).toBe('Weer Anders');
    expect((await login(renamed, user.password)).statusCode).toBe(200);
    expect((await t.api('GET', `/api/users/${user.row.id}`)).json().name).toBe('Weer Anders');
  });

  it('a filled invalid password answers 400 and changes nothing', async () => {
    const user = await makeUser(t.db);
    const res = await t.api('PUT', `/api/users/${user.row.id}`, {
      name: 'Niet Opgeslagen',
      username: user.row.username,
      password: 'kort',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContain(PasswordMessages.min);
    expect((await t.api('GET', `/api/users/${user.row.id}`)).json().name).toBe(user.row.name);
    expect((await login(user.row.username, user.password)).statusCode).toBe(200);
  });

  it('a filled valid password replaces the old one', async () => {
    const user = await makeUser(t.db);
    const res = await t.api('PUT', `/api/users/${user.row.id}`, {
      name: user.row.name,
      username: user.row.username,
      password: 'NieuwWachtwoord9',
    });
    expect(res.statusCode).toBe(200);
    expect((await login(user.row.username, user.password)).statusCode).toBe(401);
    expect((await login(user.row.username, 'NieuwWachtwoord9')).statusCode).toBe(200);
  });

  it('validates name and username like create', async () => {
    const user = await makeUser(t.db);
    const res = await t.api('PUT', `/api/users/${user.row.id}`, { name: '', username: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([UserMessages.nameRequired, UserMessages.usernameRequired]),
    );
  });

  it("answers 409 when taking another user's username (any case), and allows re-casing one's own", async () => {
    const a = await makeUser(t.db);
    const b = await makeUser(t.db);
    const taken = await t.api('PUT', `/api/users/${a.row.id}`, {
      name: a.row.name,
      username: b.row.username.toUpperCase(),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(UserMessages.usernameTaken);
    const own = await t.api('PUT', `/api/users/${a.row.id}`, {
      name: a.row.name,
      username: a.row.username.toUpperCase(),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().username).toBe(a.row.username.toUpperCase());
  });

  it('answers 404 for an unknown id', async () => {
    const res = await t.api('PUT', '/api/users/bestaatniet', { name: 'X', username: uniqueName('x') });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(UserMessages.notFound);
  });
});

describe('DELETE /api/users/:id', () => {
  it('deletes the user and ends its sessions', async () => {
    const victim = await makeUser(t.db);
    const victimCookie = await loginCookie(t.app, victim);
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: victimCookie } });
    expect((await me()).statusCode).toBe(200);

    const res = await t.api('DELETE', `/api/users/${victim.row.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(UserMessages.deleted);

    expect((await t.api('GET', `/api/users/${victim.row.id}`)).statusCode).toBe(404);
    expect((await me()).statusCode).toBe(401);
    const left = await t.db.select().from(sessions).where(eq(sessions.userId, victim.row.id));
    expect(left).toHaveLength(0);
    expect((await login(victim.row.username, victim.password)).statusCode).toBe(401);
  });

  it('refuses to delete the own account with 400', async () => {
    const res = await t.api('DELETE', `/api/users/${t.user.row.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(UserMessages.deleteSelf);
    expect((await t.api('GET', '/api/auth/me')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await t.api('DELETE', '/api/users/bestaatniet');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(UserMessages.notFound);
  });
});
