import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImportMessages } from '../../../common/imports';
import { setupTestApp } from '../../test/app';
import { type ImportSetup, setupDataset, waitForTask } from '../../test/imports';
import { UploadMessages } from './upload';

// Every way an upload can end (complete, malformed, aborted by the client, too slow) ends its
// task, drops its staging table and is answered. Real HTTP on a listening port: app.inject
// cannot hold a request open or break it off.

const t = setupTestApp({ config: { uploadIdleMs: 1000 } });
let port: number;
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

const BOUNDARY = 'lijstwerkgrens';
const fieldPart = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (fileName: string, content: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`;
const closing = `--${BOUNDARY}--\r\n`;
const CSV = 'email;naam\na@einde.nl;A\nb@einde.nl;B\n';

interface Answer {
  status: number;
  message?: string;
  taskId?: string;
  connection?: string;
}

/**
 * Posts `body` to `path` by HTTP with a Content-Length of `length` (default: the body's). `ending`:
 * 'end' finishes the request, 'hold' keeps it open without sending more, 'abort' breaks the
 * connection once `abortWhen` holds. Resolves with the answer, or null for a broken-off request.
 */
function post(
  path: string,
  body: string,
  options: { length?: number; ending?: 'end' | 'hold' | 'abort'; abortWhen?: () => Promise<boolean> } = {},
): Promise<Answer | null> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: {
        cookie: t.cookie,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(options.length ?? bytes.length),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const json = JSON.parse(Buffer.concat(chunks).toString() || '{}');
        resolve({
          status: res.statusCode ?? 0,
          message: json.message,
          taskId: json.task?._id,
          connection: res.headers.connection,
        });
        req.destroy();
      });
    });
    req.on('error', (err) => (options.ending === 'abort' ? resolve(null) : reject(err)));
    req.write(bytes);
    if ((options.ending ?? 'end') === 'end') req.end();
    if (options.ending === 'abort') {
      void (async () => {
        while (!(await options.abortWhen!())) await new Promise((r) => setTimeout(r, 20));
        req.destroy();
        resolve(null);
      })();
    }
  });
}

const importPath = (s: ImportSetup) => `/api/import/${s.partnerId}/${s.name}`;

/** The task of the upload of `fileName` (unique per test), or undefined before it exists. */
async function taskOf(fileName: string) {
  const rows = await t.db.execute<{ id: string; state: string; error: string | null }>(
    sql`SELECT id, state, error FROM tasks WHERE file = ${fileName}`,
  );
  return rows.rows[0];
}

/** Waits until the task of `fileName` has ended; returns it. */
async function endedTask(fileName: string) {
  for (;;) {
    const task = await taskOf(fileName);
    if (task && (task.state === 'done' || task.state === 'failed')) return task;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stagingTables(): Promise<string[]> {
  const rows = await t.db.execute<{ tablename: string }>(
    sql`SELECT tablename FROM pg_tables WHERE tablename LIKE 'stg\\_%'`,
  );
  return rows.rows.map((r) => r.tablename);
}

/** The rows committed to staging tables: the file is staged once its COPY has ended. */
async function stagedRows(): Promise<number> {
  let rows = 0;
  for (const table of await stagingTables()) {
    const count = await t.database.pool
      .query(`SELECT count(*)::int AS n FROM ${table}`)
      .catch(() => ({ rows: [{ n: 0 }] }));
    rows += count.rows[0].n;
  }
  return rows;
}

async function connectorStatus(): Promise<string> {
  const res = await t.api('GET', '/api/connector/status');
  return res.json().status;
}

/** Asserts that the upload of `fileName` failed with `message`, left no staging table and no busy connector. */
async function expectFailedAndClean(fileName: string, message: string) {
  const task = await endedTask(fileName);
  expect(task).toMatchObject({ state: 'failed', error: message });
  expect(await stagingTables()).toEqual([]);
  expect(await connectorStatus()).toBe('idle');
}

describe('an upload that completes', () => {
  it('is answered with its queued task, which imports and drops the staging table', async () => {
    const s = await setupDataset(t);
    const answer = await post(
      importPath(s),
      `${fieldPart('note', 'voor')}${filePart('heel.csv', CSV)}${closing}`,
    );
    expect(answer?.status).toBe(200);
    const task = await waitForTask(t, t.cookie, answer!.taskId!);
    expect(task.state, task.error).toBe('done');
    expect(task.result).toMatchObject({ saved: 2 });
    expect(await stagingTables()).toEqual([]);
    expect(await connectorStatus()).toBe('idle');
  });

  it('takes text fields after the file', async () => {
    const s = await setupDataset(t);
    const answer = await post(
      importPath(s),
      `${filePart('veld-na.csv', CSV)}${fieldPart('note', 'na')}${closing}`,
    );
    expect(answer?.status).toBe(200);
    expect((await waitForTask(t, t.cookie, answer!.taskId!)).state).toBe('done');
  });
});

describe('a malformed upload', () => {
  it('with two files answers 400 that one file at a time can be uploaded, and ends its task', async () => {
    const s = await setupDataset(t);
    const answer = await post(
      importPath(s),
      `${filePart('twee-1.csv', CSV)}${filePart('twee-2.csv', CSV)}${closing}`,
    );
    expect(answer).toMatchObject({ status: 400, message: UploadMessages.oneFile });
    await expectFailedAndClean('twee-1.csv', UploadMessages.oneFile);
  });

  it('with more fields than allowed after the file answers 400 and ends its task', async () => {
    const s = await setupDataset(t);
    const fields = Array.from({ length: 21 }, (_, i) => fieldPart(`f${i}`, 'x')).join('');
    const answer = await post(importPath(s), `${filePart('velden.csv', CSV)}${fields}${closing}`);
    expect(answer).toMatchObject({ status: 400, message: UploadMessages.tooManyFields });
    await expectFailedAndClean('velden.csv', UploadMessages.tooManyFields);
  });

  it('with a field after the file that the route refuses answers 400 and ends its task', async () => {
    const s = await setupDataset(t);
    const answer = await post(
      `/api/deleteall/${s.partnerId}/${s.datasetId}`,
      `${filePart('lang-veld.csv', CSV)}${fieldPart('emailColumn', 'x'.repeat(201))}${closing}`,
    );
    expect(answer).toMatchObject({ status: 400, message: 'De kolomnaam is te lang' });
    await expectFailedAndClean('lang-veld.csv', 'De kolomnaam is te lang');
  });

  it('without its closing boundary answers 400 and ends its task', async () => {
    const s = await setupDataset(t);
    const answer = await post(importPath(s), filePart('open.csv', CSV));
    expect(answer).toMatchObject({ status: 400, message: UploadMessages.broken });
    await expectFailedAndClean('open.csv', UploadMessages.broken);
  });

  it('with a bad CSV file answers 400 with the reason and ends its task', async () => {
    const s = await setupDataset(t);
    const answer = await post(importPath(s), `${filePart('leeg.csv', 'email\n')}${closing}`);
    expect(answer).toMatchObject({
      status: 400,
      message: 'Het bestand bevat geen regels, alleen een kopregel',
    });
    await expectFailedAndClean('leeg.csv', 'Het bestand bevat geen regels, alleen een kopregel');
  });
});

describe('an upload broken off by the client', () => {
  it('while its file arrives ends its task and drops its staging table', async () => {
    const s = await setupDataset(t);
    const body = `${filePart('afgebroken.csv', `${CSV}c@einde.nl;C\n`)}`;
    const answer = await post(importPath(s), body, {
      length: body.length + 100_000,
      ending: 'abort',
      abortWhen: async () => (await stagingTables()).length > 0,
    });
    expect(answer).toBeNull();
    await expectFailedAndClean('afgebroken.csv', UploadMessages.aborted);
  });

  it('after its file arrived ends its task and drops its staging table', async () => {
    const s = await setupDataset(t);
    const body = `${filePart('daarna.csv', CSV)}${fieldPart('note', 'x')}`;
    const answer = await post(importPath(s), body, {
      length: body.length + 100,
      ending: 'abort',
      abortWhen: async () => (await stagedRows()) > 0,
    });
    expect(answer).toBeNull();
    await expectFailedAndClean('daarna.csv', UploadMessages.aborted);
  });
});

describe('an upload that stops sending', () => {
  it('without its closing boundary is answered 408 after the idle time, and ends its task', async () => {
    const s = await setupDataset(t);
    const body = filePart('stil.csv', CSV);
    const answer = await post(importPath(s), body, { length: body.length + 1000, ending: 'hold' });
    expect(answer).toMatchObject({ status: 408, message: UploadMessages.idle(1), connection: 'close' });
    await expectFailedAndClean('stil.csv', UploadMessages.idle(1));
  });

  it('between two parts after its file is answered 408 and ends its task', async () => {
    const s = await setupDataset(t);
    // The field is not yet complete without the next boundary, but the file before it is.
    const body = `${filePart('tussen.csv', CSV)}${fieldPart('note', 'x')}`;
    const answer = await post(importPath(s), body, { length: body.length + 1000, ending: 'hold' });
    expect(answer).toMatchObject({ status: 408, message: UploadMessages.idle(1) });
    await expectFailedAndClean('tussen.csv', UploadMessages.idle(1));
  });

  it('after a file that is not .csv is answered 400 at once, without waiting for the rest', async () => {
    const s = await setupDataset(t);
    const body = filePart('lijst.txt', CSV);
    const answer = await post(importPath(s), body, { length: body.length + 1000, ending: 'hold' });
    expect(answer).toMatchObject({ status: 400, message: ImportMessages.onlyCsv, connection: 'close' });
    expect(await taskOf('lijst.txt')).toBeUndefined();
  });

  it('before any part is answered 408 without a task', async () => {
    const s = await setupDataset(t);
    const answer = await post(importPath(s), '', { length: 5000, ending: 'hold' });
    expect(answer).toMatchObject({ status: 408, message: UploadMessages.idle(1) });
    expect(await stagingTables()).toEqual([]);
    expect(await connectorStatus()).toBe('idle');
  });
});
