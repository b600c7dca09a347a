import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, HTTPMethods, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Role } from '../../common/users';
import { buildApp } from '../app';
import { type AppConfig, loadConfig } from '../config';
import type { AppContext } from '../context';
import { type Database, type Db, openDatabase } from '../db/client';
import { selCountDriftSql } from '../features/counts/sel-count.sql';
import { selRecordDriftSql } from '../features/selections/sel-record.sql';
import type { AllocateOptions } from '../features/selections/selection-allocate';
import { makeSession, type TestUser } from './factories';
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

/** How a test app is built: its worker, config overrides and log. */
export interface TestAppOptions {
  startWorker?: boolean;
  config?: Partial<AppConfig>;
  logger?: object;
  /** Knobs of the app's selection counts and allocations (e.g. a look before an allocation's insert). */
  selectionRuns?: AllocateOptions;
  /**
   * False for a file that changes sel_record's inputs behind the writers' backs on purpose; else
   * closing the app checks that every write of the file marked what it changed (expectSelRecordMarked).
   */
  checkSelRecord?: boolean;
}

/**
 * The generic check that no writer forgets to mark sel_dirty: after a test file's writes, every
 * address whose sel_record or sel_multi rows differ from their definition must be in sel_dirty.
 * Every test app runs it when it closes, so a new writer of records, addresses, datasets or
 * blacklists that does not mark fails the tests that use it, without a list to extend.
 */
export async function expectSelRecordMarked(database: Database, collation: string): Promise<void> {
  const { rows } = await database.db.execute<{ side: string; tbl: string; address_id: string; row: string }>(
    sql`SELECT * FROM (${await selRecordDriftSql(database.db, collation)}) d LIMIT 5`,
  );
  if (rows.length > 0) {
    throw new Error(
      `sel_record differs from its definition for addresses not in sel_dirty: a write did not mark them.\n${rows
        .map((r) => `${r.tbl} ${r.side} address ${r.address_id}: ${r.row}`)
        .join('\n')}`,
    );
  }
}

/**
 * The check that sel_count (the counters of /counts, migration 0029) equals the units of the rows
 * sel_record and sel_multi hold: its triggers keep it so whatever writes the rows, so every test
 * app runs it when it closes.
 */
export async function expectSelCountExact(database: Database): Promise<void> {
  const { rows } = await database.db.execute(sql`SELECT * FROM (${selCountDriftSql()}) d LIMIT 5`);
  if (rows.length > 0) {
    throw new Error(
      `sel_count differs from the narrow rows it counts:\n${rows.map((r) => JSON.stringify(r)).join('\n')}`,
    );
  }
}

/**
 * Builds the app on a fresh database; the worker starts unless `startWorker` is false.
 * Config overrides apply on top of the defaults (e.g. a low login rate limit); `logger` (pino
 * options, e.g. a stream) turns the log on for tests that read it.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
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
  const { app, ctx } = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    selectionRuns: options.selectionRuns,
  });
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
      try {
        if (options.checkSelRecord !== false)
          await expectSelRecordMarked(database, await ctx.caseCollation());
        await expectSelCountExact(database);
      } finally {
        await database.close();
      }
      await dropTestDatabase(url);
    },
  };
}

/** The test app of one file (or describe block) with a logged-in client; usable inside hooks and tests only. */
export interface TestClient extends TestApp {
  /** The app's Drizzle handle (`database.db`). */
  readonly db: Db;
  /** The logged-in user with its plain password. */
  readonly user: TestUser;
  /** The Cookie header value of that user's session. */
  readonly cookie: string;
  /** Sends a request with the session's cookie (headers given here are added, or override it). */
  api(
    method: HTTPMethods,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

/** Options of setupTestApp: those of createTestApp plus the logged-in user's role, or none. */
export interface SetupTestAppOptions extends TestAppOptions {
  /** The role of the session's user; an administrator unless said otherwise. */
  role?: Role;
  /** False for a file that logs in on its own: no user is made, `user`, `cookie` and `api` throw. */
  session?: boolean;
}

/**
 * Registers the beforeAll/afterAll hooks that build the app on a fresh database, log in a user
 * and close it all after the file; returns a handle whose fields are read once the hooks ran.
 * `options` may be a function, called in the hook (for values an earlier hook made). Throws when
 * a field is read before the app exists.
 */
export function setupTestApp(options: SetupTestAppOptions | (() => SetupTestAppOptions) = {}): TestClient {
  let made: { t: TestApp; session?: { user: TestUser; cookie: string } } | undefined;
  beforeAll(async () => {
    const { role, session, ...appOptions } = typeof options === 'function' ? options() : options;
    const t = await createTestApp(appOptions);
    try {
      made = { t, session: session === false ? undefined : await makeSession(t.app, t.database.db, role) };
    } catch (err) {
      await t.close();
      throw err;
    }
  });
  afterAll(() => made?.t.close());
  const ready = () => {
    if (!made) throw new Error('setupTestApp: the app exists only inside hooks and tests');
    return made;
  };
  const session = () => {
    const { session } = ready();
    if (!session) throw new Error('setupTestApp: made with session: false, so there is no logged-in user');
    return session;
  };
  return {
    get app() {
      return ready().t.app;
    },
    get ctx() {
      return ready().t.ctx;
    },
    get database() {
      return ready().t.database;
    },
    get db() {
      return ready().t.database.db;
    },
    get url() {
      return ready().t.url;
    },
    get user() {
      return session().user;
    },
    get cookie() {
      return session().cookie;
    },
    close: () => ready().t.close(),
    api(method, url, payload, headers) {
      const { cookie } = session();
      return ready().t.app.inject({
        method,
        url,
        payload: payload as InjectOptions['payload'],
        headers: { cookie, ...headers },
      });
    },
  };
}
