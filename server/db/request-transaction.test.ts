import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementTimeoutMessage } from '../../common/api-error';
import { registerErrorHandling } from '../plugins/errors';
import { setupTestApp } from '../test/app';
import { runRequestTransaction } from './request-transaction';

// runRequestTransaction through HTTP on a real socket: a server of its own whose routes run
// statements that take long (pg_sleep), against the test app's database.
const t = setupTestApp({ startWorker: false, session: false, config: { selRefresher: false } });
let server: FastifyInstance;
let port: number;
let watcher: pg.Client;

beforeAll(async () => {
  server = Fastify();
  registerErrorHandling(server);
  const ctx = { database: t.database, config: { statementTimeoutMs: 10_000 } };
  // A statement of `seconds`, after a pause in JavaScript of `pauseMs` (no statement running then).
  server.post<{ Body: { seconds: number; pauseMs?: number } }>('/sleep', async (request, reply) =>
    runRequestTransaction(ctx, reply, async (tx) => {
      await tx.execute(sql`SELECT 1`);
      await new Promise((resolve) => setTimeout(resolve, request.body.pauseMs ?? 0));
      await tx.execute(sql`SELECT pg_sleep(${request.body.seconds})`);
      return { slept: request.body.seconds };
    }),
  );
  server.get('/timeout', async (_request, reply) =>
    runRequestTransaction(ctx, reply, (tx) => tx.execute(sql`SELECT pg_sleep(5)`), { timeoutMs: 200 }),
  );
  await server.listen({ port: 0, host: '127.0.0.1' });
  port = (server.server.address() as AddressInfo).port;
  watcher = new pg.Client({ connectionString: t.url });
  await watcher.connect();
});
afterAll(async () => {
  await server?.close();
  await watcher?.end();
});

/** The statements active on the test database but the watcher's own. */
async function running(): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`);
  return rows[0].n;
}

/** Sends a JSON POST to the server; the request, not awaited. */
function post(path: string, body: unknown): http.ClientRequest {
  const request = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  });
  request.on('error', () => {});
  request.end(JSON.stringify(body));
  return request;
}

describe('runRequestTransaction', () => {
  it('answers when the client waits, though a request with a body closes once the body is read', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/sleep`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 0.3 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ slept: 0.3 });
  });

  it('cancels the running statement when the client goes away', async () => {
    const request = post('/sleep', { seconds: 30 });
    await expect.poll(running, { timeout: 10_000 }).toBe(1);
    request.destroy();
    await expect.poll(running, { timeout: 3_000 }).toBe(0);
  });

  it('cancels a statement the work starts after the client went away', async () => {
    const request = post('/sleep', { seconds: 30, pauseMs: 500 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    request.destroy();
    // The pause ends and its statement starts; it must not run its 30 s.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect.poll(running, { timeout: 3_000 }).toBe(0);
  });

  it('answers 503 with the Dutch message past the timeout, and leaves nothing running', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/timeout`);
    expect(res.status).toBe(503);
    expect((await res.json()).message).toBe(StatementTimeoutMessage);
    expect(await running()).toBe(0);
  });

  it('gives its connections back to the pool in order', async () => {
    expect(t.database.pool.totalCount - t.database.pool.idleCount).toBe(0);
    const res = await fetch(`http://127.0.0.1:${port}/sleep`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 0 }),
    });
    expect(res.status).toBe(200);
  });
});
