import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WEB_VERSION } from '../../../common/constants';
import { TaskMessages } from '../../../common/tasks';
import { openDatabase } from '../../db/client';
import { WorkCancelled } from '../../db/request-transaction';
import { TaskError, TaskRunner } from '../../tasks/worker';
import { setupTestApp } from '../../test/app';
import { waitFor } from '../../test/wait';
import { insertTask } from './task.queries';
import { tasks } from './task.table';

// The default configuration runs two tasks at once.
const t = setupTestApp({ config: { taskConcurrency: 2 } });

const SUM = { read: 3, saved: 2, skipped: 1, deleted: 0, unchanged: 0 };

/** A promise with its resolve function, for handlers the test holds and releases. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const getTask = async (id: string) => (await t.api('GET', `/api/tasks/${id}`)).json();
const connectorStatus = async () => (await t.api('GET', '/api/connector/status')).json().status as string;

const waitFinished = (id: string) =>
  waitFor(
    () => getTask(id),
    (task) => task.state === 'done' || task.state === 'failed',
  );

describe('running tasks', () => {
  it('a task runs to done with percentage 100 and its result', async () => {
    t.ctx.tasks.register('test.sum', async () => SUM);
    const row = await t.ctx.tasks.enqueue({ type: 'test.sum', username: 'piet' });
    expect(row.state).toBe('queued');
    const task = await waitFinished(row.id);
    expect(task).toMatchObject({
      _id: row.id,
      type: 'test.sum',
      state: 'done',
      percentage: 100,
      error: null,
    });
    expect(task.result).toEqual(SUM);
  });

  it('a TaskError fails the task with its message (and partial result)', async () => {
    t.ctx.tasks.register('test.fail', async () => {
      throw new TaskError('Kapot', { read: 5 });
    });
    const row = await t.ctx.tasks.enqueue({ type: 'test.fail' });
    const task = await waitFinished(row.id);
    expect(task).toMatchObject({ state: 'failed', error: 'Kapot', message: 'Kapot', result: { read: 5 } });
  });

  it('any other error fails the task with the generic Dutch message and no internals', async () => {
    t.ctx.tasks.register('test.crash', async () => {
      throw new Error('geheime details uit /srv/app');
    });
    const row = await t.ctx.tasks.enqueue({ type: 'test.crash' });
    const task = await waitFinished(row.id);
    expect(task.state).toBe('failed');
    expect(task.error).toBe('De taak is mislukt door een serverfout');
    const body = (await t.api('GET', `/api/tasks/${row.id}`)).body;
    expect(body).not.toContain('geheime details');
    expect(body).not.toContain('worker.ts');
  });

  it('GET /api/tasks lists newest first with username, file, partner and dataset', async () => {
    const first = await t.ctx.tasks.enqueue({
      type: 'test.sum',
      username: 'anna',
      file: 'eerste.csv',
      partnerId: 'p1',
      datasetId: 'd1',
    });
    const second = await t.ctx.tasks.enqueue({
      type: 'test.sum',
      username: 'bert',
      file: 'tweede.csv',
      partnerId: 'p2',
      datasetId: 'd2',
    });
    await waitFinished(first.id);
    await waitFinished(second.id);
    const res = await t.api('GET', '/api/tasks');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { _id: string; date: string }[];
    const ids = list.map((task) => task._id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(second.id)).toBe(0);
    expect(list[ids.indexOf(first.id)]).toMatchObject({
      type: 'test.sum',
      state: 'done',
      username: 'anna',
      file: 'eerste.csv',
      partner: 'p1',
      dataset: 'd1',
      result: SUM,
    });
    expect(list[0]).toMatchObject({ username: 'bert', file: 'tweede.csv', partner: 'p2', dataset: 'd2' });
    const dates = list.map((task) => Date.parse(task.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it('lists a task still at work however many tasks came after it', async () => {
    const old = await insertTask(t.db, { type: 'import', state: 'parsing', workerKey: 1, file: 'oud.csv' });
    try {
      await t.db.execute(sql`UPDATE tasks SET created_at = now() - interval '1 day' WHERE id = ${old.id}`);
      await t.db.execute(sql`INSERT INTO tasks (id, type, state, created_at)
        SELECT 'newer' || i, 'test.sum', 'done', now() - make_interval(secs => i) FROM generate_series(1, 201) i`);
      const { rows } = await t.db.execute<{ id: string }>(
        sql`SELECT id FROM tasks ORDER BY created_at DESC, id DESC LIMIT 200`,
      );
      const list = (await t.api('GET', '/api/tasks')).json() as { _id: string; state: string }[];
      expect(list.map((task) => task._id)).toEqual([...rows.map((r) => r.id), old.id]);
      expect(list.at(-1)).toMatchObject({ state: 'parsing', file: 'oud.csv' });
    } finally {
      await t.db.execute(sql`DELETE FROM tasks WHERE id = ${old.id} OR id LIKE 'newer%'`);
    }
  });

  it('GET /api/tasks/:id answers 404 with the Dutch message for an unknown id', async () => {
    const res = await t.api('GET', '/api/tasks/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(TaskMessages.notFound);
  });
});

describe('progress and connector status', () => {
  it("shows state 'saving' at 50% while running and the connector busy, then idle", async () => {
    const reached = deferred();
    const release = deferred();
    t.ctx.tasks.register('test.progress', async (_task, ctx) => {
      await ctx.progress(50, 'saving');
      reached.resolve();
      await release.promise;
      return SUM;
    });
    expect(await connectorStatus()).toBe('idle');
    const row = await t.ctx.tasks.enqueue({ type: 'test.progress' });
    await reached.promise;
    expect(await getTask(row.id)).toMatchObject({ state: 'saving', percentage: 50 });
    expect(await connectorStatus()).toBe('busy');
    release.resolve();
    expect(await waitFinished(row.id)).toMatchObject({ state: 'done', percentage: 100 });
    expect(await connectorStatus()).toBe('idle');
  });
});

describe('rows done of total', () => {
  /** Records every write of a task's progress columns (a trigger of this test's database). */
  async function countWrites(taskType: string) {
    await t.db.execute(
      sql`CREATE TABLE IF NOT EXISTS progress_writes (type text, done bigint, percentage int)`,
    );
    await t.db.execute(sql`CREATE OR REPLACE FUNCTION record_progress_write() RETURNS trigger AS $$
      BEGIN INSERT INTO progress_writes VALUES (NEW.type, NEW.progress_done, NEW.percentage); RETURN NEW; END $$
      LANGUAGE plpgsql`);
    await t.db.execute(sql`CREATE OR REPLACE TRIGGER progress_writes AFTER UPDATE OF progress_done ON tasks
      FOR EACH ROW WHEN (NEW.state NOT IN ('done', 'failed')) EXECUTE FUNCTION record_progress_write()`);
    return async () =>
      (
        await t.db.execute<{ done: number; percentage: number }>(
          sql`SELECT done::int, percentage FROM progress_writes WHERE type = ${taskType}`,
        )
      ).rows;
  }

  it('counts rows done of total, writes at most every 250 ms (the last one late), ends at the total', async () => {
    const writes = await countWrites('test.count');
    const started = deferred();
    const counted = deferred();
    const release = deferred();
    t.ctx.tasks.register('test.count', async (_task, ctx) => {
      await ctx.count(0, 1000, { span: [0, 90], state: 'saving' });
      started.resolve();
      // A thousand reports at once, as a pass reports its blocks: the first goes out at once (the
      // count's start), the last a moment later, none in between.
      for (let done = 1; done < 1000; done++) await ctx.count(done, 1000, { span: [0, 90] });
      counted.resolve();
      await release.promise;
      return SUM;
    });
    const row = await t.ctx.tasks.enqueue({ type: 'test.count' });
    await started.promise;
    expect(await getTask(row.id)).toMatchObject({
      state: 'saving',
      percentage: 0,
      progress: { done: 0, total: 1000, unit: 'rows' },
    });
    expect(await connectorStatus()).toBe('busy');
    await counted.promise;
    const late = await waitFor(
      () => getTask(row.id),
      (task) => task.progress.done === 999,
    );
    expect(late.percentage).toBe(90);
    expect(late.state).toBe('saving');
    expect((await writes()).map((w) => w.done)).toEqual([0, 999]);
    release.resolve();
    expect(await waitFinished(row.id)).toMatchObject({
      state: 'done',
      percentage: 100,
      progress: { done: 1000, total: 1000, unit: 'rows' },
    });
    expect(await connectorStatus()).toBe('idle');
  });

  it('set-based work shows its step of all steps', async () => {
    const reached = deferred();
    const release = deferred();
    t.ctx.tasks.register('test.steps', async (_task, ctx) => {
      await ctx.step(1, 4, 'executing');
      await ctx.step(2, 4);
      reached.resolve();
      await release.promise;
      return null;
    });
    const row = await t.ctx.tasks.enqueue({ type: 'test.steps' });
    await reached.promise;
    expect(await getTask(row.id)).toMatchObject({
      state: 'executing',
      percentage: 25,
      progress: { done: 2, total: 4, unit: 'steps' },
    });
    release.resolve();
    expect(await waitFinished(row.id)).toMatchObject({ state: 'done', progress: { done: 4, total: 4 } });
  });

  it('a report still waiting when the task ends never turns it back from done', async () => {
    t.ctx.tasks.register('test.trailing', async (_task, ctx) => {
      await ctx.count(0, 10);
      // Too soon after the first: these wait for their moment, which comes after the end.
      void ctx.count(3, 10);
      void ctx.progress(40);
      return SUM;
    });
    const row = await t.ctx.tasks.enqueue({ type: 'test.trailing' });
    await waitFinished(row.id);
    await new Promise((r) => setTimeout(r, 400));
    expect(await getTask(row.id)).toMatchObject({
      state: 'done',
      percentage: 100,
      progress: { done: 10, total: 10, unit: 'rows' },
    });
  });

  it('a task that never counted has no progress count', async () => {
    const row = await t.ctx.tasks.enqueue({ type: 'test.sum' });
    expect((await waitFinished(row.id)).progress).toBeNull();
  });
});

describe('concurrency', () => {
  it('runs at most `concurrency` tasks at once: with 2, three blocking tasks leave one queued', async () => {
    const release = deferred();
    let running = 0;
    let maxRunning = 0;
    const started: string[] = [];
    t.ctx.tasks.register('test.block', async (task) => {
      started.push(task.id);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await release.promise;
      running--;
      return { read: 1 };
    });
    const rows = [];
    for (let i = 0; i < 3; i++) rows.push(await t.ctx.tasks.enqueue({ type: 'test.block' }));
    const ids = rows.map((r) => r.id);
    const states = () =>
      t.db.select({ id: tasks.id, state: tasks.state }).from(tasks).where(inArray(tasks.id, ids));
    await waitFor(
      async () => started.length,
      (n) => n === 2,
    );
    const during = await waitFor(states, (rs) => rs.filter((r) => r.state === 'executing').length === 2);
    expect(during.map((r) => r.state).sort()).toEqual(['executing', 'executing', 'queued']);
    // Claimed in order of creation: the oldest two run, the newest waits.
    expect(started.sort()).toEqual([ids[0], ids[1]].sort());
    expect(during.find((r) => r.id === ids[2])?.state).toBe('queued');

    release.resolve();
    for (const id of ids) expect((await waitFinished(id)).state).toBe('done');
    expect(started).toHaveLength(3);
    expect(maxRunning).toBe(2);
  });
});

describe('several workers on one database', () => {
  it('two TaskRunner instances never run the same task', async () => {
    const runs = new Map<string, number>();
    const runners = [0, 1].map(() => {
      const runner = new TaskRunner(t.database, { concurrency: 3, pollMs: 20, log: t.app.log });
      runner.register('test.once', async (task) => {
        runs.set(task.id, (runs.get(task.id) ?? 0) + 1);
        // Yield a few times so both runners are claiming while the other one works.
        for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
        return { read: 1 };
      });
      return runner;
    });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await insertTask(t.db, { type: 'test.once' })).id);
    try {
      await Promise.all(runners.map((r) => r.start()));
      const done = () =>
        t.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM tasks WHERE type = 'test.once' AND state = 'done'`,
        );
      await waitFor(done, (res) => res.rows[0].n === 20);
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });
});

describe('versions and a stopped worker', () => {
  it('/api/version gives the api and updater versions while the worker runs', async () => {
    const res = await t.api('GET', '/api/version');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ api: WEB_VERSION, updater: WEB_VERSION });
    expect(WEB_VERSION).toBe('1.5.0');
  });

  it("without a running worker the connector says 'error' and the updater is null", async () => {
    await t.ctx.tasks.stop();
    try {
      expect(await connectorStatus()).toBe('error');
      expect((await t.api('GET', '/api/version')).json()).toEqual({ api: '1.5.0', updater: null });
    } finally {
      await t.ctx.tasks.start();
    }
    expect(await connectorStatus()).toBe('idle');
  });
});

describe('adopted work (a request hands its running work on)', () => {
  /** Work that ends only when it is cancelled, as startTransactionWork's does. */
  function cancellable() {
    let cancel!: () => void;
    const done = new Promise<unknown>((_resolve, reject) => {
      cancel = () => reject(new WorkCancelled());
    });
    return { done, cancel };
  }

  it('fails with the given message when its own cancel stops it (its client left), never as a server error', async () => {
    const work = cancellable();
    const row = await t.ctx.tasks.adopt({ type: 'test.adopted' }, work, 'Afgebroken');
    expect(row.state).toBe('executing');
    work.cancel();
    const task = await waitFinished(row.id);
    expect(task).toMatchObject({ state: 'failed', error: 'Afgebroken' });
  });

  it('is cancelled when its runner stops, so a stop does not wait for it, and fails as stopped', async () => {
    const runner = new TaskRunner(t.database, { concurrency: 1, pollMs: 1000, log: t.app.log });
    await runner.start();
    const work = cancellable();
    const row = await runner.adopt({ type: 'test.adopted' }, work, 'Afgebroken');
    await runner.stop();
    const task = await waitFinished(row.id);
    expect(task).toMatchObject({ state: 'failed', error: TaskMessages.serverStopped });
  });
});

describe('a stop with a grace period', () => {
  it('aborts a task still running after it: rolled back, staging dropped, failed as stopped', async () => {
    // A runner on a pool of its own: the abort ends every connection of its pool.
    const database = openDatabase(t.url, 4);
    await t.db.execute(sql`CREATE TABLE stop_probe (n int)`);
    await t.db.execute(sql`CREATE UNLOGGED TABLE stg_stop_probe (n int)`);
    const runner = new TaskRunner(database, { concurrency: 1, pollMs: 20, log: t.app.log });
    let inside = false;
    runner.register('test.hold', {
      payload: z.object({}),
      staging: () => ['stg_stop_probe'],
      run: async (_task, ctx) => {
        await ctx.db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO stop_probe VALUES (1)`);
          inside = true;
          await tx.execute(sql`SELECT pg_sleep(60)`);
        });
        return {};
      },
    });
    const row = await insertTask(t.db, { type: 'test.hold' });
    try {
      await runner.start();
      await waitFor(
        async () => inside,
        (x) => x,
      );
      const startedAt = Date.now();
      await runner.stop(300);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
    } finally {
      await database.close();
    }
    expect(await getTask(row.id)).toMatchObject({ state: 'failed', error: TaskMessages.serverStopped });
    const left = await t.db.execute<{ n: number; staging: string | null }>(
      sql`SELECT (SELECT count(*)::int FROM stop_probe) AS n, to_regclass('stg_stop_probe')::text AS staging`,
    );
    expect(left.rows[0]).toEqual({ n: 0, staging: null });
  });
});
