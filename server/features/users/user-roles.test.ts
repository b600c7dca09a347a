import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { UserMessages } from '../../../common/users';
import { setupTestApp } from '../../test/app';
import { enrolTwoFactor, loginCookie, makeSession, makeUser, type TestUser } from '../../test/factories';
import { generateTotp } from '../auth/totp';

// Roles: administrators manage every user; other staff read and change only their
// own account (password with the current one) and their own 2fa, never their role. One test per
// users and 2fa route, for staff and for administrators.

// The file's session is an administrator's; a staff member logs in beside it.
const t = setupTestApp({ startWorker: false });
let staff: { user: TestUser; cookie: string };
let other: TestUser;
beforeAll(async () => {
  staff = await makeSession(t.app, t.db, 'staff');
  other = await makeUser(t.db, { role: 'staff' });
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const as = (cookie: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: { cookie } });
const expectForbidden = (res: { statusCode: number; json(): { message: string } }) => {
  expect(res.statusCode).toBe(403);
  expect(res.json().message).toBe(UserMessages.adminOnly);
};
const getRole = async (id: string) =>
  (await t.db.execute<{ role: string }>(sql`SELECT role FROM users WHERE id = ${id}`)).rows[0]?.role;

describe('staff', () => {
  it('GET /api/auth/me includes the role', async () => {
    expect((await as(staff.cookie, 'GET', '/api/auth/me')).json().role).toBe('staff');
    expect((await as(t.cookie, 'GET', '/api/auth/me')).json().role).toBe('admin');
  });

  it('GET /api/users answers 403', async () => {
    expectForbidden(await as(staff.cookie, 'GET', '/api/users'));
  });

  it('GET /api/users/:id answers their own account and 403 for another', async () => {
    const own = await as(staff.cookie, 'GET', `/api/users/${staff.user.row.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ _id: staff.user.row.id, role: 'staff' });
    expectForbidden(await as(staff.cookie, 'GET', `/api/users/${t.user.row.id}`));
    expectForbidden(await as(staff.cookie, 'GET', '/api/users/bestaatniet'));
  });

  it('POST /api/users answers 403, also an admin role or an invalid body, and creates nothing', async () => {
    const username = `via_staff_${Date.now()}`;
    for (const payload of [
      { name: 'X', username, password: 'Welkom123' },
      { name: 'X', username, password: 'Welkom123', role: 'admin' },
      { name: '' },
    ]) {
      expectForbidden(await as(staff.cookie, 'POST', '/api/users', payload));
    }
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password: 'Welkom123' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("PUT /api/users/:id answers 403 for another user's name, password or role, and changes nothing", async () => {
    for (const target of [t.user, other]) {
      for (const payload of [
        { name: 'Overgenomen', username: target.row.username },
        { name: target.row.name, username: target.row.username, password: 'Overgenomen1' },
        { name: target.row.name, username: target.row.username, role: 'admin' },
      ]) {
        expectForbidden(await as(staff.cookie, 'PUT', `/api/users/${target.row.id}`, payload));
      }
      expect((await loginCookie(t.app, target)).startsWith('lijstwerk_session=')).toBe(true);
    }
    expect(await getRole(other.row.id)).toBe('staff');
  });

  it('PUT /api/users/:id saves their own name; their own role only unchanged', async () => {
    const me = staff.user.row;
    const saved = await as(staff.cookie, 'PUT', `/api/users/${me.id}`, {
      name: 'Eigen Naam',
      username: me.username,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ name: 'Eigen Naam', role: 'staff' });
    const same = await as(staff.cookie, 'PUT', `/api/users/${me.id}`, {
      name: 'Eigen Naam',
      username: me.username,
      role: 'staff',
    });
    expect(same.statusCode).toBe(200);
    const promote = await as(staff.cookie, 'PUT', `/api/users/${me.id}`, {
      name: 'Eigen Naam',
      username: me.username,
      role: 'admin',
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().message).toBe(UserMessages.ownRole);
    expect(await getRole(me.id)).toBe('staff');
  });

  it('PUT /api/users/:id changes their own password only with the right current password', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const cookie = await loginCookie(t.app, user);
    const base = { name: user.row.name, username: user.row.username, password: 'NieuwGeheim1' };
    const missing = await as(cookie, 'PUT', `/api/users/${user.row.id}`, base);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(UserMessages.currentPasswordRequired);
    const wrong = await as(cookie, 'PUT', `/api/users/${user.row.id}`, {
      ...base,
      currentPassword: 'Verkeerd123',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(UserMessages.currentPasswordWrong);
    expect((await loginCookie(t.app, user)).length).toBeGreaterThan(0);
    const right = await as(cookie, 'PUT', `/api/users/${user.row.id}`, {
      ...base,
      currentPassword: user.password,
    });
    expect(right.statusCode).toBe(200);
    expect((await loginCookie(t.app, { ...user, password: 'NieuwGeheim1' })).length).toBeGreaterThan(0);
  });

  it('DELETE /api/users/:id answers 403 for anyone, themselves included', async () => {
    expectForbidden(await as(staff.cookie, 'DELETE', `/api/users/${other.row.id}`));
    expectForbidden(await as(staff.cookie, 'DELETE', `/api/users/${t.user.row.id}`));
    expectForbidden(await as(staff.cookie, 'DELETE', `/api/users/${staff.user.row.id}`));
    expect((await as(t.cookie, 'GET', `/api/users/${other.row.id}`)).statusCode).toBe(200);
  });

  it("POST /api/auth/2fa/:userId enrols their own 2fa and answers 403 for another's, without a secret", async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const cookie = await loginCookie(t.app, user);
    const forAdmin = await as(cookie, 'POST', `/api/auth/2fa/${t.user.row.id}`, {
      username: t.user.row.username,
    });
    expectForbidden(forAdmin);
    expect(forAdmin.body).not.toContain('secret');
    expect((await as(t.cookie, 'GET', `/api/users/${t.user.row.id}`)).json()['2fa']).toBe(false);
    const own = await as(cookie, 'POST', `/api/auth/2fa/${user.row.id}`, { username: user.row.username });
    expect(own.statusCode).toBe(200);
    expect(own.json().secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it("POST /api/auth/2fa/:userId/confirm confirms their own enrolment and answers 403 for another's", async () => {
    const victim = await makeUser(t.db, { role: 'staff' });
    const started = await as(t.cookie, 'POST', `/api/auth/2fa/${victim.row.id}`, {
      username: victim.row.username,
    });
    const code = generateTotp(started.json().secret);
    expectForbidden(
      await as(staff.cookie, 'POST', `/api/auth/2fa/${victim.row.id}/confirm`, { token: code }),
    );
    expect((await as(t.cookie, 'GET', `/api/users/${victim.row.id}`)).json()['2fa']).toBe(false);

    const user = await makeUser(t.db, { role: 'staff' });
    const cookie = await loginCookie(t.app, user);
    const own = await as(cookie, 'POST', `/api/auth/2fa/${user.row.id}`, { username: user.row.username });
    const on = await as(cookie, 'POST', `/api/auth/2fa/${user.row.id}/confirm`, {
      token: generateTotp(own.json().secret),
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()['2fa']).toBe(true);
  });

  it("PUT /api/auth/2fa/:userId/disable turns off their own 2fa and answers 403 for another's", async () => {
    const victim = await makeUser(t.db, { role: 'staff' });
    await enrolTwoFactor(t.app, t.cookie, victim.row);
    expectForbidden(await as(staff.cookie, 'PUT', `/api/auth/2fa/${victim.row.id}/disable`));
    expect((await as(t.cookie, 'GET', `/api/users/${victim.row.id}`)).json()['2fa']).toBe(true);

    const user = await makeUser(t.db, { role: 'staff' });
    const cookie = await loginCookie(t.app, user);
    await enrolTwoFactor(t.app, cookie, user.row);
    const off = await as(cookie, 'PUT', `/api/auth/2fa/${user.row.id}/disable`);
    expect(off.statusCode).toBe(200);
    expect(off.json()['2fa']).toBe(false);
  });
});

describe('administrators', () => {
  it("POST /api/users makes 'staff' unless the administrator chooses 'admin'", async () => {
    const make = (username: string, role?: string) =>
      as(t.cookie, 'POST', '/api/users', { name: 'Nieuw', username, password: 'Welkom123', role });
    const plain = await make(`rol_plain_${Date.now()}`);
    expect(plain.json().role).toBe('staff');
    const chosen = await make(`rol_admin_${Date.now()}`, 'admin');
    expect(chosen.json().role).toBe('admin');
    const invalid = await make(`rol_fout_${Date.now()}`, 'root');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toContain(UserMessages.roleInvalid);
  });

  it('PUT /api/users/:id promotes and demotes another user', async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const body = { name: user.row.name, username: user.row.username };
    expect(
      (await as(t.cookie, 'PUT', `/api/users/${user.row.id}`, { ...body, role: 'admin' })).json().role,
    ).toBe('admin');
    // Without a role the role stays.
    expect((await as(t.cookie, 'PUT', `/api/users/${user.row.id}`, body)).json().role).toBe('admin');
    expect(
      (await as(t.cookie, 'PUT', `/api/users/${user.row.id}`, { ...body, role: 'staff' })).json().role,
    ).toBe('staff');
  });

  it("PUT /api/users/:id sets another user's password without a current password", async () => {
    const user = await makeUser(t.db, { role: 'staff' });
    const res = await as(t.cookie, 'PUT', `/api/users/${user.row.id}`, {
      name: user.row.name,
      username: user.row.username,
      password: 'DoorBeheer1',
    });
    expect(res.statusCode).toBe(200);
    expect((await loginCookie(t.app, { ...user, password: 'DoorBeheer1' })).length).toBeGreaterThan(0);
  });

  it('their own new password also needs the current one', async () => {
    const me = t.user;
    const res = await as(t.cookie, 'PUT', `/api/users/${me.row.id}`, {
      name: me.row.name,
      username: me.row.username,
      password: 'AnderGeheim1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(UserMessages.currentPasswordRequired);
  });
});

describe('the last administrator', () => {
  const own = setupTestApp({ startWorker: false, session: false });
  const put = (cookie: string, user: TestUser, role: string) =>
    own.app.inject({
      method: 'PUT',
      url: `/api/users/${user.row.id}`,
      headers: { cookie },
      payload: { name: user.row.name, username: user.row.username, role },
    });

  it('cannot demote themselves (409); with a second administrator they can', async () => {
    const only = await makeSession(own.app, own.database.db, 'admin');
    const demote = await put(only.cookie, only.user, 'staff');
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(UserMessages.lastAdmin);
    const second = await makeUser(own.database.db, { role: 'admin' });
    expect((await put(only.cookie, only.user, 'staff')).statusCode).toBe(200);
    // Now the second one is the last: nobody may demote or delete it.
    const secondCookie = await loginCookie(own.app, second);
    expect((await put(secondCookie, second, 'staff')).statusCode).toBe(409);
    const deleteByStaff = await own.app.inject({
      method: 'DELETE',
      url: `/api/users/${second.row.id}`,
      headers: { cookie: only.cookie },
    });
    expect(deleteByStaff.statusCode).toBe(403);
  });

  it('two administrators demoting or deleting each other at once leave one administrator', async () => {
    await own.database.db.execute(sql`UPDATE users SET role = 'staff'`);
    for (const action of ['demote', 'delete'] as const) {
      const a = await makeSession(own.app, own.database.db, 'admin');
      const b = await makeSession(own.app, own.database.db, 'admin');
      const act = (actor: { cookie: string }, target: TestUser) =>
        action === 'demote'
          ? put(actor.cookie, target, 'staff')
          : own.app.inject({
              method: 'DELETE',
              url: `/api/users/${target.row.id}`,
              headers: { cookie: actor.cookie },
            });
      const results = await Promise.all([act(a, b.user), act(b, a.user)]);
      // The loser meets the lock (409), or, when the winner was quicker, has lost its role or
      // session already (403/401): never do both succeed.
      expect(
        results.filter((r) => r.statusCode === 200),
        action,
      ).toHaveLength(1);
      const admins = await own.database.db.execute(sql`SELECT id FROM users WHERE role = 'admin'`);
      expect(admins.rows, action).toHaveLength(1);
      await own.database.db.execute(sql`UPDATE users SET role = 'staff'`);
    }
  });
});
