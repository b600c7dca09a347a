import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveCountAnswerSchema } from '../common/live-count';
import { columnMapping } from '../common/mappings';
import { RUNNING_TASK_STATES, TaskMessages } from '../common/tasks';
import { startEmbeddedDatabase } from './db/embedded';
import {
  CHILD_ADMIN,
  type ChildServer,
  childServerPlace,
  startChildServer,
  waitForOutput,
} from './test/child-server';
import { multipartBody } from './test/multipart';

// SIGTERM to the real server (server/main.ts as a child process) while an import and a live count
// run: new requests are refused, the count's request gets its answer, the import is failed with
// TaskMessages.serverStopped (or done) without a half import or a staging table left, the process
// exits 0, and the server starts again on the same data. On the embedded PostgreSQL of DATA_DIR
// without TEST_DATABASE_URL, on a fresh database of that server with it.
const GRACE_SECONDS = 2;
const place = await childServerPlace('stop');
const { dataDir, databaseUrl } = place;
afterAll(() => place.remove());

/** server/main.ts as a child process, logged in as its administrator. */
async function startServer(): Promise<ChildServer> {
  const server = await startChildServer('server/main.ts', place, {
    TASK_POLL_MS: '100',
    STOP_GRACE_SECONDS: String(GRACE_SECONDS),
  });
  const res = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(CHILD_ADMIN),
  });
  expect(res.status, await res.text()).toBe(200);
  server.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  return server;
}

/** A JSON call to the server; returns its status and parsed body. */
async function call(s: ChildServer, method: string, url: string, body?: unknown) {
  const res = await fetch(`${s.base}/api${url}`, {
    method,
    headers: { cookie: s.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

/** Uploads a CSV into the dataset; returns the import task's id. */
async function upload(
  s: ChildServer,
  partnerId: string,
  datasetName: string,
  content: string,
): Promise<string> {
  const body = multipartBody({}, { name: 'bestand.csv', content });
  const res = await fetch(`${s.base}/api/import/${partnerId}/${datasetName}`, {
    method: 'POST',
    headers: { ...body.headers, cookie: s.cookie },
    body: new Uint8Array(body.payload),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text).task._id;
}

/** Polls a task until it leaves `states`; returns it. */
async function waitWhile(s: ChildServer, id: string, states: string[]) {
  for (let i = 0; i < 3000; i++) {
    const task = (await call(s, 'GET', `/tasks/${id}`)).json;
    if (!states.includes(task.state)) return task;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('task did not move on');
}

/** The dataset's CSV download: every record as the app gives it. */
async function datasetCsv(s: ChildServer, partnerId: string, datasetId: string): Promise<string> {
  const res = await fetch(`${s.base}/api/datasets/${partnerId}/${datasetId}/csv`, {
    headers: { cookie: s.cookie },
  });
  expect(res.status).toBe(200);
  return res.text();
}

const file = (from: number, to: number) => {
  const lines = ['email,postcode'];
  for (let i = from; i <= to; i++) lines.push(`p${i}@voorbeeld.nl,${1000 + (i % 9000)}AB`);
  return `${lines.join('\n')}\n`;
};

describe('SIGTERM', () => {
  it('refuses new requests, answers the one in flight, fails the running import cleanly and exits 0', async () => {
    await place.create();
    let s = await startServer();
    const partnerId = `stop${crypto.randomBytes(3).toString('hex')}`;
    expect((await call(s, 'POST', '/crud-partner', { id: partnerId, name: 'Stoppartner' })).status).toBe(200);
    const dataset = (
      await call(s, 'POST', `/datasets/${partnerId}`, { name: 'stop', emailColumnName: 'email' })
    ).json;
    const mapped = await call(s, 'PUT', `/datasets/${partnerId}/${dataset._id}/mappings`, [
      columnMapping('postcode', 'postcode'),
    ]);
    expect(mapped.status, mapped.text).toBe(200);
    const first = await waitWhile(s, await upload(s, partnerId, dataset.name, file(1, 2000)), [
      'queued',
      ...RUNNING_TASK_STATES,
    ]);
    expect(first.state, first.error).toBe('done');
    const before = await datasetCsv(s, partnerId, dataset._id);
    expect(before.trim().split('\n')).toHaveLength(2001);
    const campaign = (await call(s, 'POST', '/campaigns', { name: 'Campagne' })).json;
    const mailing = (
      await call(s, 'POST', `/campaigns/${campaign._id}/mailings`, {
        name: 'Verzending',
        plannedSend: '2030-01-09T10:00:00Z',
      })
    ).json;

    // A big import into the same dataset, running (past its upload) when the signal comes.
    const importId = await upload(s, partnerId, dataset.name, file(1, 200_000));
    const running = await waitWhile(s, importId, ['queued']);
    expect(running.state, 'the import still runs at the signal').not.toMatch(/done|failed/);
    const count = call(
      s,
      'POST',
      `/campaigns/${campaign._id}/mailings/${mailing._id}/selections/live-count`,
      {
        query: { startsWith: { postcode: '1' } },
        useCampaignLabel: false,
        activeDatasetsOnly: false,
        useBlacklist: false,
        useDate: false,
      },
    );
    // The signal once the count's request is in the server; a request after the stop began is refused.
    await waitForOutput(s, /"url":"[^"]*\/live-count"[^\n]*"msg":"incoming request"/);
    const signalledAt = Date.now();
    s.child.kill('SIGTERM');
    await waitForOutput(s, /SIGTERM: stopping/);
    const late = await fetch(`${s.base}/api/auth/me`, { headers: { cookie: s.cookie } }).then(
      (res) => res.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);
    const counted = await count.catch(async (err) => {
      console.log('COUNT ERR', err, await s.exited, s.output());
      throw err;
    });
    expect(counted.status, counted.text).toBe(200);
    LiveCountAnswerSchema.parse(counted.json);
    const code = await s.exited;
    const seconds = (Date.now() - signalledAt) / 1000;
    expect(code, s.output()).toBe(0);
    if (process.env.STOP_TEST_LOG) console.log(s.output());
    expect(seconds).toBeLessThan(GRACE_SECONDS + 20);

    // The task rows and the staging tables, read straight from the database the server left.
    const pgLog: string[] = [];
    const embedded = databaseUrl ? undefined : await startEmbeddedDatabase(dataDir, (m) => pgLog.push(m));
    const db = new pg.Client({ connectionString: databaseUrl ?? embedded!.url });
    await db.connect();
    const { rows: tasks } = await db.query<{ id: string; state: string; error: string | null }>(
      `SELECT id, state, error FROM tasks WHERE id = $1 OR type = 'selection-count'`,
      [importId],
    );
    const { rows: staging } = await db.query(
      `SELECT tablename FROM pg_tables WHERE tablename LIKE 'stg\\_%'`,
    );
    await db.end();
    await embedded?.stop();
    const imported = tasks.find((r) => r.id === importId)!;
    if (process.env.STOP_TEST_LOG) console.log({ seconds, counted: counted.json.state, tasks, pgLog });
    expect(
      imported.state === 'done' || imported.error === TaskMessages.serverStopped,
      imported.error ?? '',
    ).toBe(true);
    for (const task of tasks) expect(task.state).toMatch(/^(done|failed)$/);
    expect(staging).toEqual([]);
    expect(pgLog.join('\n')).not.toMatch(/not properly shut down|interrupted/);
    if (embedded) expect(pgLog.join('\n')).toMatch(/database system was shut down at/);

    // The server starts again on the same data; the dataset holds what it held, or the whole import.
    s = await startServer();
    const after = await datasetCsv(s, partnerId, dataset._id);
    if (imported.state === 'done') expect(after.trim().split('\n')).toHaveLength(200_001);
    else expect(after).toBe(before);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 240_000);
});
