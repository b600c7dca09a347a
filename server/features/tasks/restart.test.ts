import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskMessages } from '../../../common/tasks';
import { TaskRunner } from '../../tasks/worker';
import { setupTestApp } from '../../test/app';
import { failOrphanedTasks, getTask, WORKER_LOCK_NAMESPACE } from './task.queries';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// This app plays the restarted process: its worker starts only when the test says so.
const t = setupTestApp({ startWorker: false });
let child: ChildProcess | undefined;
let taskId: string;

/** Polls until `check` holds (the hook or test timeout bounds the wait); returns the last value. */
async function waitFor<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts server/test/worker-child.ts on the test database; resolves with the id it printed. */
function startChild(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/test/worker-child.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let out = '';
    let err = '';
    proc.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).taskId);
    });
    proc.stderr!.on('data', (chunk) => {
      err += chunk;
    });
    proc.on('exit', (code) => reject(new Error(`worker child exited with ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  taskId = await startChild(t.url);
  await waitFor(
    () => getTask(t.db, taskId),
    (row) => row?.state === 'saving',
  );
});
afterAll(() => {
  child?.kill('SIGKILL');
});

describe('a task whose process dies', () => {
  it('is not failed while its runner lives, also when another runner starts', async () => {
    const other = new TaskRunner(t.database, { concurrency: 1, pollMs: 1000, log: t.app.log });
    await other.start();
    await other.stop();
    expect(await failOrphanedTasks(t.db, TaskMessages.orphaned)).toBe(0);
    const row = await getTask(t.db, taskId);
    expect(row).toMatchObject({ state: 'saving', percentage: 10, error: null });
    expect(row?.workerKey).toBeGreaterThan(0);
  });

  it('is failed with the orphaned message after a SIGKILL and the next start', async () => {
    const { workerKey } = (await getTask(t.db, taskId))!;
    const exited = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGKILL');
    await exited;
    // PostgreSQL releases the dead process's advisory lock when it notices the closed connection.
    await waitFor(
      () =>
        t.db.execute<{ held: boolean }>(sql`
          SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
            AND classid = ${WORKER_LOCK_NAMESPACE}::oid AND objid::bigint = ${workerKey}) AS held`),
      (res) => res.rows[0].held === false,
    );
    expect((await getTask(t.db, taskId))?.state).toBe('saving');

    await t.ctx.tasks.start();
    const res = await t.api('GET', `/api/tasks/${taskId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: taskId,
      type: 'test.hang',
      state: 'failed',
      error: TaskMessages.orphaned,
      username: 'kind',
    });
    const status = await t.api('GET', '/api/connector/status');
    expect(status.json()).toEqual({ status: 'idle' });
  });
});
