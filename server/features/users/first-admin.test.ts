import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { PasswordSchema } from '../../../common/password';
import { setupTestApp } from '../../test/app';
import { makeUser } from '../../test/factories';
import { listUsers } from './user.queries';
import { ensureFirstAdmin } from './user.service';

const t = setupTestApp({ startWorker: false, session: false });
// Each case starts from an empty users table, as on a first start.
beforeEach(async () => {
  await t.db.execute(sql`DELETE FROM users`);
});

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('ensureFirstAdmin', () => {
  it('on an empty table creates the administrator from ADMIN_USERNAME/ADMIN_PASSWORD', async () => {
    const result = await ensureFirstAdmin(t.db, 'beheer', 'Beheer2024');
    expect(result).toEqual({ username: 'beheer', generatedPassword: undefined });
    const users = await listUsers(t.db);
    expect(users.map((u) => [u.name, u.username, u.role])).toEqual([['beheer', 'beheer', 'admin']]);
    const res = await login('beheer', 'Beheer2024');
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe('beheer');
    expect(res.json().role).toBe('admin');
  });

  it("without credentials creates 'admin' with a generated password that meets the rules and logs in", async () => {
    const result = await ensureFirstAdmin(t.db);
    expect(result?.username).toBe('admin');
    const generated = result?.generatedPassword ?? '';
    expect(PasswordSchema.safeParse(generated).success).toBe(true);
    expect((await listUsers(t.db)).map((u) => [u.username, u.role])).toEqual([['admin', 'admin']]);
    expect((await login('admin', generated)).statusCode).toBe(200);
    expect((await login('admin', 'Verkeerd123')).statusCode).toBe(401);
  });

  it('generates a different password on each first start', async () => {
    const first = await ensureFirstAdmin(t.db);
    await t.db.execute(sql`DELETE FROM users`);
    const second = await ensureFirstAdmin(t.db);
    expect(first?.generatedPassword).toBeTruthy();
    expect(second?.generatedPassword).not.toBe(first?.generatedPassword);
  });

  it('does nothing when users exist, also when a configured administrator is missing', async () => {
    const existing = await makeUser(t.db);
    expect(await ensureFirstAdmin(t.db)).toBeNull();
    expect(await ensureFirstAdmin(t.db, 'beheer', 'Beheer2024')).toBeNull();
    expect((await listUsers(t.db)).map((u) => u.id)).toEqual([existing.row.id]);
    expect((await login('beheer', 'Beheer2024')).statusCode).toBe(401);
  });

  it('two instances starting at once make exactly one administrator and neither throws', async () => {
    const results = await Promise.all([ensureFirstAdmin(t.db), ensureFirstAdmin(t.db)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect((await listUsers(t.db)).map((u) => u.username)).toEqual(['admin']);
  });
});
