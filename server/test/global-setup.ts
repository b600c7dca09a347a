import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openDatabase } from '../db/client';
import { startEmbeddedDatabase } from '../db/embedded';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
  }
}

/** Replaces the database name of a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

// One PostgreSQL for the whole run: the embedded one in a temporary directory, or the server of
// TEST_DATABASE_URL. A migrated template database is cloned for each test file.
export default async function setup(project: TestProject) {
  let stopEmbedded: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-test-'));
    const embedded = await startEmbeddedDatabase(dir);
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const templateDb = `lw_tpl_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${templateDb}`);
  const database = openDatabase(withDatabase(adminUrl, templateDb), 2);
  await migrateDatabase(database);
  await database.close();
  project.provide('adminUrl', adminUrl);
  project.provide('templateDb', templateDb);

  return async () => {
    // Drop what this run made, also the per-file databases a crashed file left behind.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [templateDb, `${templateDb.replace('lw_tpl_', 'lw_t_')}_%`],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await stopEmbedded?.();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
}
