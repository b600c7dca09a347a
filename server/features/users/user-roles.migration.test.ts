import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, migrateDatabase, openDatabase } from '../../db/client';
import { withDatabase } from '../../test/global-setup';

// Migration 0011 gives users a role: on an upgrade the oldest account (the first administrator)
// becomes 'admin' and every other existing account 'staff'.
const migrations = path.join(import.meta.dirname, '../../db/migrations');
let url: string;
let database: Database;
let before: string;

beforeAll(async () => {
  const name = `lw_mig_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('adminUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  url = withDatabase(inject('adminUrl'), name);
  database = openDatabase(url, 2);
  // The migrations up to 0010 in a folder of their own.
  before = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-mig-'));
  fs.mkdirSync(path.join(before, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 10);
  fs.writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries as { tag: string }[])
    fs.copyFileSync(path.join(migrations, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
  await migrate(drizzle(database.pool), { migrationsFolder: before });
});

afterAll(async () => {
  await database.close();
  fs.rmSync(before, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: inject('adminUrl') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  await admin.end();
});

describe('migration 0011 (user roles)', () => {
  it('makes the oldest user admin and the others staff; new rows default to staff', async () => {
    const q = (text: string) => database.pool.query(text);
    await q(`INSERT INTO users (id, name, username, password_hash, created_at) VALUES
      ('u2', 'Later', 'later', 'x', '2024-02-01'),
      ('u1', 'Eerste', 'eerste', 'x', '2024-01-01'),
      ('u3', 'Laatste', 'laatste', 'x', '2024-03-01')`);
    await migrateDatabase(database);
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
