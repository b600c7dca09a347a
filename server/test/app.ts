import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type AppConfig, loadConfig } from '../config';
import type { AppContext } from '../context';
import { type Database, openDatabase } from '../db/client';
import { withDatabase } from './global-setup';

/** One app on its own fresh database (cloned from the migrated template), for one test file. */
export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  url: string;
  close(): Promise<void>;
}

/** Creates an empty database cloned from the migrated template; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('adminUrl');
  const templateDb = inject('templateDb');
  const name = `${templateDb.replace('lw_tpl_', 'lw_t_')}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateDb}`);
  } finally {
    await admin.end();
  }
  return withDatabase(adminUrl, name);
}

/** Drops a test database, closing what still uses it. */
export async function dropTestDatabase(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('adminUrl') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * Builds the app on a fresh database; the worker starts unless `startWorker` is false.
 * Config overrides apply on top of the defaults (e.g. a low login rate limit); `logger` (pino
 * options, e.g. a stream) turns the log on for tests that read it.
 */
export async function createTestApp(
  options: { startWorker?: boolean; config?: Partial<AppConfig>; logger?: object } = {},
): Promise<TestApp> {
  const url = await createTestDatabase();
  const config: AppConfig = {
    ...loadConfig({}),
    databaseUrl: url,
    loginRateMax: 1000,
    taskPollMs: 200,
    webDir: '/nonexistent',
    encryptionKey: crypto.randomBytes(32).toString('base64'),
    ...options.config,
  };
  const database = openDatabase(url, 10);
  const { app, ctx } = await buildApp({ config, database, logger: options.logger ?? false });
  await app.ready();
  if (options.startWorker !== false) await ctx.tasks.start();
  return {
    app,
    ctx,
    database,
    url,
    async close() {
      await app.close();
      await ctx.tasks.stop();
      await database.close();
      await dropTestDatabase(url);
    },
  };
}
