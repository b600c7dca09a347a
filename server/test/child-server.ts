import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findFreePort } from '../db/embedded';
import { withDatabase } from './global-setup';

// The real server as a child process for the stop tests (server/graceful-stop*.test.ts): its own
// DATA_DIR (the embedded PostgreSQL) or, with TEST_DATABASE_URL, a fresh database of that server;
// its output kept, so a test waits for the server's own lines instead of for a time.

/** Where a child server keeps its data: DATA_DIR, and the database on TEST_DATABASE_URL's server. */
export interface ChildServerPlace {
  dataDir: string;
  /** The fresh database's URL on TEST_DATABASE_URL's server; undefined on the embedded PostgreSQL. */
  databaseUrl: string | undefined;
  /** Creates the fresh database (on TEST_DATABASE_URL's server; nothing on the embedded one). */
  create(): Promise<void>;
  /** Drops the database and removes DATA_DIR's folder. */
  remove(): Promise<void>;
}

/** A place for a child server's data, named after `prefix` (a folder in the temp dir, a database). */
export async function childServerPlace(prefix: string): Promise<ChildServerPlace> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), `lijstwerk-${prefix}-`));
  // As root the embedded PostgreSQL runs as 'postgres', which must be able to reach DATA_DIR.
  await fs.chmod(work, 0o711);
  const adminUrl = process.env.TEST_DATABASE_URL;
  const databaseName = `lw_${prefix.replace(/\W/g, '')}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    if (!adminUrl) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    dataDir: path.join(work, 'data'),
    databaseUrl: adminUrl ? withDatabase(adminUrl, databaseName) : undefined,
    create: () => admin(`CREATE DATABASE ${databaseName}`),
    async remove() {
      await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => {});
      await fs.rm(work, { recursive: true, force: true });
    },
  };
}

/** The server as a child process: its base URL, cookie (empty until a test logs in), output so far and exit. */
export interface ChildServer {
  base: string;
  cookie: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `entry` (e.g. server/main.ts) on `place` with the admin `stopper` and `env` added, logging
 * at info; returns once it answers HTTP.
 */
export async function startChildServer(
  entry: string,
  place: ChildServerPlace,
  env: Record<string, string>,
): Promise<ChildServer> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      DATABASE_URL: place.databaseUrl ?? '',
      DATA_DIR: place.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: CHILD_ADMIN.username,
      ADMIN_PASSWORD: CHILD_ADMIN.password,
      // Info: the tests wait for the server's own lines (a request arrived, the stop began).
      LOG_LEVEL: 'info',
      WEB_DIR: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const server: ChildServer = {
    base: `http://127.0.0.1:${port}`,
    cookie: '',
    child,
    output: () => output,
    exited,
  };
  for (let i = 0; ; i++) {
    const up = await fetch(`${server.base}/api/auth/me`).then(
      () => true,
      () => false,
    );
    if (up) return server;
    if (i > 1200 || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The administrator a child server is started with. */
export const CHILD_ADMIN = { username: 'stopper', password: 'Stopper12345' };

/**
 * Waits until the server has written a line matching `pattern`: under load a request or a signal
 * reaches the server later than the test sent it, so the test waits for the server to say so.
 */
export async function waitForOutput(s: ChildServer, pattern: RegExp): Promise<void> {
  for (let i = 0; !pattern.test(s.output()); i++) {
    if (i > 1200) throw new Error(`the server never wrote ${pattern}:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
