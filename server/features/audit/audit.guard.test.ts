import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { recordAudit } from './audit';

// The audit log is append-only in the database itself: the application's own connection (the
// role it runs as) cannot update, truncate, or delete an entry within the retention period.
const t = setupTestApp({ session: false });

/** The SQLSTATE a statement fails with, or null when it succeeds. */
async function failure(statement: ReturnType<typeof sql>): Promise<string | null> {
  try {
    await t.db.execute(statement);
    return null;
  } catch (err) {
    return (
      (err as { code?: string; cause?: { code?: string } }).cause?.code ??
      (err as { code?: string }).code ??
      'error'
    );
  }
}

describe('audit_log', () => {
  it('takes entries and refuses to change, truncate or delete them within the retention period', async () => {
    await recordAudit(t.db, {
      kind: 'login',
      username: 'jan',
      ip: '127.0.0.1',
      details: { method: 'wachtwoord' },
    });
    const { rows } = await t.db.execute(sql`SELECT id, username, kind, details FROM audit_log`);
    expect(rows).toEqual([
      expect.objectContaining({ username: 'jan', kind: 'login', details: { method: 'wachtwoord' } }),
    ]);
    expect(await failure(sql`UPDATE audit_log SET username = 'piet'`)).toBe('42501');
    expect(await failure(sql`DELETE FROM audit_log`)).toBe('42501');
    expect(await failure(sql`TRUNCATE audit_log`)).toBe('42501');
    const after = await t.db.execute(sql`SELECT username FROM audit_log`);
    expect(after.rows).toEqual([{ username: 'jan' }]);
  });

  it('lets an entry older than the retention period be deleted, and only such an entry', async () => {
    await t.db.execute(sql`UPDATE settings SET retention_days = 30`);
    // An old entry can only be written as old (its time is the insert's unless given).
    await t.db.execute(sql`INSERT INTO audit_log (at, kind) VALUES (now() - interval '31 days', 'logout'),
      (now() - interval '29 days', 'logout')`);
    await t.db.execute(sql`DELETE FROM audit_log WHERE at < now() - interval '30 days'`);
    expect(await failure(sql`DELETE FROM audit_log WHERE kind = 'logout'`)).toBe('42501');
    const { rows } = await t.db.execute(sql`SELECT count(*)::int AS n FROM audit_log WHERE kind = 'logout'`);
    expect(rows[0].n).toBe(1);
  });
});
