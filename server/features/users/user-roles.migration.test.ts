import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../db/client';
import { setupDatabaseMigratedTo } from '../../test/migrations';

// Migration 0011 gives users a role: on an upgrade the oldest account (the first administrator)
// becomes 'admin' and every other existing account 'staff'.
const m = setupDatabaseMigratedTo(10);

describe('migration 0011 (user roles)', () => {
  it('makes the oldest user admin and the others staff; new rows default to staff', async () => {
    const q = (text: string) => m.database.pool.query(text);
    await q(`INSERT INTO users (id, name, username, password_hash, created_at) VALUES
      ('u2', 'Later', 'later', 'x', '2024-02-01'),
      ('u1', 'Eerste', 'eerste', 'x', '2024-01-01'),
      ('u3', 'Laatste', 'laatste', 'x', '2024-03-01')`);
    await migrateDatabase(m.database);
    const { rows } = await q('SELECT id, role, totp_last_step FROM users ORDER BY id');
    expect(rows).toEqual([
      { id: 'u1', role: 'admin', totp_last_step: null },
      { id: 'u2', role: 'staff', totp_last_step: null },
      { id: 'u3', role: 'staff', totp_last_step: null },
    ]);
    await q(`INSERT INTO users (id, name, username, password_hash) VALUES ('u4', 'Nieuw', 'nieuw', 'x')`);
    expect((await q(`SELECT role FROM users WHERE id = 'u4'`)).rows[0].role).toBe('staff');
    await expect(q(`UPDATE users SET role = 'root' WHERE id = 'u4'`)).rejects.toThrow(/users_role_check/);
  });
});
