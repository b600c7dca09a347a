import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupDatabaseMigratedTo } from '../test/migrations';
import { migrateDatabase } from './client';

// Drizzle's migrator applies only the migrations whose journal time is later than the last one a
// database has applied: a migration whose time is earlier would be skipped on every existing
// database (a fresh one still gets it). The journal's times must rise with its order, and a
// database one migration behind gets the rest.
const journal = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8'),
) as { entries: { idx: number; when: number; tag: string }[] };

describe('the migration journal', () => {
  it('has times that rise with its order', () => {
    const late = journal.entries.filter((e, i) => i > 0 && e.when <= journal.entries[i - 1].when);
    expect(late.map((e) => e.tag)).toEqual([]);
  });
});

const before = journal.entries.length - 3;
const m = setupDatabaseMigratedTo(before);

describe('an existing database behind the newest migrations', () => {
  it('gets every later migration when the app migrates it', async () => {
    await migrateDatabase(m.database);
    const { rows } = await m.database.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
    );
    expect(rows[0].n).toBe(journal.entries.length);
  });
});
