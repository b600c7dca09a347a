import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { withDatabase } from './global-setup';

const MIGRATIONS = path.join(import.meta.dirname, '../db/migrations');

/**
 * For a test of a data migration: registers hooks that make a fresh database migrated up to and
 * including migration `lastIdx` (from a folder holding only those), and drop it after the file.
 * Returns a handle whose `database` is set once the hooks ran; `migrateDatabase` takes it further.
 */
export function setupDatabaseMigratedTo(lastIdx: number): { database: Database } {
  const handle = {} as { database: Database };
  let url = '';
  let folder = '';
  beforeAll(async () => {
    const name = `lw_mig_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    url = withDatabase(inject('adminUrl'), name);
    handle.database = openDatabase(url, 2);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-mig-'));
    fs.mkdirSync(path.join(folder, 'meta'));
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8'));
    journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= lastIdx);
    fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
    for (const e of journal.entries as { tag: string }[])
      fs.copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
    await migrate(drizzle(handle.database.pool), { migrationsFolder: folder });
  });
  afterAll(async () => {
    await handle.database?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
    if (!url) return;
    const admin = new pg.Client({ connectionString: inject('adminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
  });
  return handle;
}
