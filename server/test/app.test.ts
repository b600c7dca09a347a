import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from './app';

const early = setupTestApp({ startWorker: false });
let readBeforeHooks: unknown;
try {
  readBeforeHooks = early.cookie;
} catch (err) {
  readBeforeHooks = err;
}

describe('setupTestApp', () => {
  it('refuses to hand out the app before its hook made it', () => {
    expect(readBeforeHooks).toBeInstanceOf(Error);
  });

  it('gives a client logged in as an administrator: api sends its cookie', async () => {
    const me = await early.api('GET', '/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: early.user.row.username, role: 'admin' });
    expect(early.db).toBe(early.database.db);
    expect((await early.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('sends the payload, and headers given to api are added or replace the cookie', async () => {
    const res = await early.api('POST', '/api/types', '{"type":', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    const anon = await early.api('GET', '/api/auth/me', undefined, { cookie: 'lijstwerk_session=onbekend' });
    expect(anon.statusCode).toBe(401);
    expect((await early.api('POST', '/api/types', { type: 'Proef' })).statusCode).toBe(200);
    expect((await early.api('GET', '/api/types')).json()).toContain('Proef');
  });

  describe('with a staff role and a worker', () => {
    const staff = setupTestApp({ role: 'staff' });

    it('logs in a staff user on its own database', async () => {
      const me = await staff.api('GET', '/api/auth/me');
      expect(me.json()).toMatchObject({ username: staff.user.row.username, role: 'staff' });
      expect(staff.url).not.toBe(early.url);
      expect((await staff.api('GET', '/api/users')).statusCode).toBe(403);
    });
  });

  describe('with session: false', () => {
    const bare = setupTestApp({ startWorker: false, session: false });

    it('makes no user and refuses to hand out a cookie', async () => {
      const users = await bare.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM users`);
      expect(users.rows[0].n).toBe(0);
      expect(() => bare.cookie).toThrow(/session: false/);
      expect(() => bare.api('GET', '/api/auth/me')).toThrow(/session: false/);
      expect((await bare.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    });
  });
});
