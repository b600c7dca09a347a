import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from './db/embedded';
import { withDatabase } from './test/global-setup';

// The stop's bound on HTTP: a request that never ends (a long download) is cut off after
// STOP_GRACE_SECONDS, and a second SIGTERM cuts it off at once; either way the process exits 0
// after stopping its database. The server (server/test/endless-child.ts) runs as a child process;
// the test waits for its own log lines, never for a time. On the embedded PostgreSQL of DATA_DIR
// without TEST_DATABASE_URL, on a fresh database of that server with it.
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lijstwerk-stop-http-'));
// As root the embedded PostgreSQL runs as 'postgres', which must be able to reach DATA_DIR.
await fs.chmod(work, 0o711);
const dataDir = path.join(work, 'data');
const adminUrl = process.env.TEST_DATABASE_URL;
const databaseName = `lw_stophttp_${crypto.randomBytes(4).toString('hex')}`;
const databaseUrl = adminUrl ? withDatabase(adminUrl, databaseName) : undefined;

beforeAll(async () => {
  if (!adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
});

afterAll(async () => {
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
  await fs.rm(work, { recursive: true, force: true });
});

interface Server {
  base: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(graceSeconds: number): Promise<Server> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/test/endless-child.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: 'stopper',
      ADMIN_PASSWORD: 'Stopper12345',
      LOG_LEVEL: 'info',
      STOP_GRACE_SECONDS: String(graceSeconds),
      WEB_DIR: '/nonexistent',
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
  const server = { base: `http://127.0.0.1:${port}`, child, output: () => output, exited };
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

async function waitForOutput(s: Server, pattern: RegExp): Promise<void> {
  for (let i = 0; !pattern.test(s.output()); i++) {
    if (i > 1200) throw new Error(`the server never wrote ${pattern}:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the endless download, reads its first line, and signals SIGTERM; returns how the body ends. */
async function stopDuringDownload(s: Server): Promise<{ body: Promise<string> }> {
  const res = await fetch(`${s.base}/test/endless`);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read();
  s.child.kill('SIGTERM');
  await waitForOutput(s, /SIGTERM: stopping/);
  const body = (async () => {
    for (;;) if ((await reader.read()).done) return 'ended';
  })().catch(() => 'cut off');
  return { body };
}

describe('a stop with a request that never ends', () => {
  it('cuts the request off after the grace and exits 0', async () => {
    const s = await startServer(1);
    const { body } = await stopDuringDownload(s);
    await waitForOutput(s, /stopping: grace over, closing the connections still open/);
    expect(await body).toBe('cut off');
    expect(await s.exited, s.output()).toBe(0);
  }, 120_000);

  it('cuts it off at once on a second SIGTERM, and exits 0', async () => {
    // A grace longer than the test's own timeout: only the second signal can end the stop in time.
    const s = await startServer(3600);

    const { body } = await stopDuringDownload(s);
    s.child.kill('SIGTERM');
    await waitForOutput(s, /stopping: asked again, closing the connections still open/);
    expect(await body).toBe('cut off');
    expect(await s.exited, s.output()).toBe(0);
    expect(s.output()).not.toMatch(/grace over/);
  }, 120_000);
});
