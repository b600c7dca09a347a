import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type AppConfig, loadConfig } from '../../config';
import { type Database, migrateDatabase, openDatabase } from '../../db/client';
import { setupTestApp } from '../../test/app';
import { setupDatabaseMigratedTo } from '../../test/migrations';
import { readShippedMigrations } from './readiness';

/** An app on `database` as production builds it, its worker not meant to run here unless said. */
async function appOn(
  database: Database,
  config: Partial<AppConfig> = {},
  logger: false | object = false,
): Promise<FastifyInstance> {
  const { app } = await buildApp({
    config: {
      ...loadConfig({}),
      databaseUrl: database.url,
      webDir: '/nonexistent',
      encryptionKey: crypto.randomBytes(32).toString('base64'),
      selRefresher: false,
      startWorker: false,
      ...config,
    },
    database,
    logger,
  });
  await app.ready();
  return app;
}

describe('the probes of a running app', () => {
  const t = setupTestApp({ session: false });

  it('/healthz answers 200 ok without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '203.0.113.7' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 ok when the database is migrated and the worker runs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz', remoteAddress: '203.0.113.7' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 503 naming the worker once it has stopped', async () => {
    await t.ctx.tasks.stop();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', failed: ['worker'] });
    } finally {
      await t.ctx.tasks.start();
    }
  });

  it('/readyz probes that come at once share one check: one connection, whatever their number', async () => {
    const blocker = await t.database.pool.connect();
    const readyzBackends = async () =>
      Number(
        (
          await t.database.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE application_name = 'lijstwerk-readyz' AND datname = current_database()`,
          )
        ).rows[0].n,
      );
    let most = 0;
    let probes: Promise<{ statusCode: number }[]> | undefined;
    try {
      // The check's read of the migrations waits behind this lock, so every probe arrives while it runs.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE drizzle.__drizzle_migrations IN ACCESS EXCLUSIVE MODE');
      probes = Promise.all(Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/readyz' })));
      for (let i = 0; i < 10; i++) {
        most = Math.max(most, await readyzBackends());
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await blocker.query('COMMIT');
      blocker.release();
    }
    const answers = await probes;
    expect(most).toBe(1);
    expect(answers?.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
  });
});

describe('/readyz of an app whose database is unreachable', () => {
  // Port 1 on this machine: nothing listens, so every connection is refused.
  const database = openDatabase('postgres://postgres@127.0.0.1:1/lijstwerk', 2);
  afterAll(() => database.close());

  it('answers 503 naming only the database, no error text or address', async () => {
    const app = await appOn(database);
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', failed: ['database'] });
      expect(res.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres/i);
    } finally {
      await app.close();
    }
  });

  it('answers 503 for the worker as well when this process should run one', async () => {
    const app = await appOn(database, { startWorker: true });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.json()).toEqual({ status: 'unavailable', failed: ['database', 'worker'] });
    } finally {
      await app.close();
    }
  });
});

describe('the log of the probes', () => {
  const database = openDatabase('postgres://postgres@127.0.0.1:1/lijstwerk', 2);
  afterAll(() => database.close());

  it('holds no line per probe or scrape, and a failing readiness once until it changes', async () => {
    const lines: { msg: string; req?: { url: string }; failed?: string[] }[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const app = await appOn(database, {}, { level: 'info', stream });
    try {
      for (let i = 0; i < 3; i++) {
        await app.inject({ method: 'GET', url: '/healthz' });
        await app.inject({ method: 'GET', url: '/readyz' });
        await app.inject({ method: 'GET', url: '/metrics' });
      }
      expect(lines.filter((l) => l.msg === 'not ready').map((l) => l.failed)).toEqual([['database']]);
      expect(lines.filter((l) => l.msg !== 'not ready')).toEqual([]);
      // Any other request is logged as ever: the log is on.
      await app.inject({ method: 'GET', url: '/nope' });
      expect(lines.some((l) => l.req?.url === '/nope')).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('/readyz of an app whose database lacks a migration', () => {
  const shipped = readShippedMigrations();
  // Every migration but the last two applied: the code is newer than its database.
  const m = setupDatabaseMigratedTo(shipped.length - 3);

  it('answers 503 naming the migrations; 200 once they are applied', async () => {
    const app = await appOn(m.database);
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', failed: ['migrations'] });
      await migrateDatabase(m.database);
      const after = await app.inject({ method: 'GET', url: '/readyz' });
      expect(after.statusCode, after.body).toBe(200);
    } finally {
      await app.close();
    }
  });
});
