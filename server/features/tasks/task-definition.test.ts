import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ImportMessages } from '../../../common/imports';
import { TaskMessages } from '../../../common/tasks';
import { TaskError } from '../../tasks/worker';
import { setupTestApp } from '../../test/app';
import { waitFor } from '../../test/wait';
import { insertTask } from './task.queries';

// A task type's definition: its stored payload is parsed by its schema before the work runs, and
// the staging tables it owns are dropped when the work ends, however it ends.
const t = setupTestApp();

const getTask = async (id: string) => (await t.api('GET', `/api/tasks/${id}`)).json();
const waitFinished = (id: string) =>
  waitFor(
    () => getTask(id),
    (task) => task.state === 'done' || task.state === 'failed',
  );

/** Whether a table of that name exists in the test database. */
async function tableExists(name: string): Promise<boolean> {
  const res = await t.db.execute<{ found: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM pg_tables WHERE tablename = ${name}) AS found`,
  );
  return res.rows[0].found;
}

/** A new staging table (named as an upload's are) with one row. */
async function makeStaging(): Promise<string> {
  const table = `stg_def${Math.random().toString(36).slice(2, 10)}`;
  await t.db.execute(sql.raw(`CREATE TABLE ${table} (c1 text)`));
  await t.db.execute(sql.raw(`INSERT INTO ${table} VALUES ('a@b.nl')`));
  return table;
}

describe('a stored payload that does not match its schema', () => {
  it('fails the task with a message that names the fields, without running it', async () => {
    // Queued as an older version or a hand-made row could have: inserted past the typed enqueue.
    const row = await insertTask(t.db, { type: 'remap', payload: { datasetId: 42 } });
    t.ctx.tasks.kick();
    const task = await waitFinished(row.id);
    expect(task).toMatchObject({ state: 'failed', error: TaskMessages.badPayload(['datasetId']) });
    expect(task.error).toBe(
      'De taak kon niet worden uitgevoerd: de opgeslagen gegevens van de taak kloppen niet (datasetId)',
    );
    expect(task.result).toBeNull();
  });

  it('names every field that is missing or wrong', async () => {
    const row = await insertTask(t.db, { type: 'import', payload: { datasetId: 'x', rows: 'veel' } });
    t.ctx.tasks.kick();
    const task = await waitFinished(row.id);
    expect(task.state).toBe('failed');
    expect(task.error).toBe(
      TaskMessages.badPayload(['staging', 'headers', 'emailIndex', 'rows', 'deleteOld']),
    );
  });

  it('runs the work with the parsed payload when it matches', async () => {
    const seen: unknown[] = [];
    t.ctx.tasks.register('test.parsed', {
      payload: z.object({ n: z.number() }),
      run: async (task) => {
        seen.push(task.payload);
        return { read: task.payload.n };
      },
    });
    const row = await t.ctx.tasks.enqueue({ type: 'test.parsed', payload: { n: 3, extra: 'weg' } });
    expect(await waitFinished(row.id)).toMatchObject({ state: 'done', result: { read: 3 } });
    expect(seen).toEqual([{ n: 3 }]);
  });
});

describe('the staging tables a task owns', () => {
  const StagedSchema = z.object({ staging: z.string(), fail: z.boolean() });
  const existedDuringRun = new Map<string, boolean>();
  beforeAll(() => {
    t.ctx.tasks.register('test.staged', {
      payload: StagedSchema,
      staging: (p) => [p.staging],
      run: async (task) => {
        existedDuringRun.set(task.payload.staging, await tableExists(task.payload.staging));
        if (task.payload.fail) throw new TaskError('Kapot', { read: 1 });
        return { read: 1 };
      },
    });
  });

  it('are dropped after the work succeeds', async () => {
    const staging = await makeStaging();
    const row = await t.ctx.tasks.enqueue({ type: 'test.staged', payload: { staging, fail: false } });
    expect(await waitFinished(row.id)).toMatchObject({ state: 'done', result: { read: 1 } });
    expect(existedDuringRun.get(staging)).toBe(true);
    expect(await tableExists(staging)).toBe(false);
  });

  it('are dropped after the work fails', async () => {
    const staging = await makeStaging();
    const row = await t.ctx.tasks.enqueue({ type: 'test.staged', payload: { staging, fail: true } });
    expect(await waitFinished(row.id)).toMatchObject({
      state: 'failed',
      error: 'Kapot',
      result: { read: 1 },
    });
    expect(existedDuringRun.get(staging)).toBe(true);
    expect(await tableExists(staging)).toBe(false);
  });

  it('a drop that fails leaves the task as its work ended', async () => {
    // A view on the table makes DROP TABLE refuse.
    const staging = await makeStaging();
    await t.db.execute(sql.raw(`CREATE VIEW ${staging}_v AS SELECT * FROM ${staging}`));
    const row = await t.ctx.tasks.enqueue({ type: 'test.staged', payload: { staging, fail: false } });
    expect(await waitFinished(row.id)).toMatchObject({ state: 'done', error: null, result: { read: 1 } });
    expect(await tableExists(staging)).toBe(true);
    await t.db.execute(sql.raw(`DROP VIEW ${staging}_v; DROP TABLE ${staging}`));
  });

  it('of a registered type are dropped when its work fails', async () => {
    // A delete from file of a dataset that is gone fails before it reads the file.
    const staging = await makeStaging();
    const row = await t.ctx.tasks.enqueue({
      type: 'deleteall',
      payload: { datasetId: 'weg', staging, headers: ['email'], emailIndex: 0, rows: 1, deleteOld: true },
    });
    expect(await waitFinished(row.id)).toMatchObject({ state: 'failed', error: ImportMessages.datasetGone });
    expect(await tableExists(staging)).toBe(false);
  });
});
