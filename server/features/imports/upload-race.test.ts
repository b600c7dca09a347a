import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { makeSession } from '../../test/factories';
import { recordsOf, setupDataset, waitForTask } from '../../test/imports';
import { claimTask } from '../tasks/task.queries';
import { queueUpload, stageUpload } from './import.service';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await makeSession(t.app, t.database.db)).cookie;
});
afterAll(() => t.close());

describe('an upload still arriving', () => {
  it('is never claimed by a worker before its file is staged and its task queued', async () => {
    const s = await setupDataset(t);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* body() {
      yield Buffer.from('email\na@race.nl\n');
      await gate;
      yield Buffer.from('b@race.nl\n');
    }
    const staging = stageUpload(t.ctx, {
      type: 'import',
      partnerId: s.partnerId,
      datasetName: s.name,
      file: Readable.from(body()),
      fileName: 'race.csv',
      expectedBytes: 30,
      username: 'test',
    });

    // While the bytes arrive the task is visible, 'parsing', and owned by this process.
    let task: { id: string; state: string; worker_key: number | null } | undefined;
    for (let i = 0; i < 100 && !task; i++) {
      const found = await t.database.db.execute<{ id: string; state: string; worker_key: number | null }>(
        sql`SELECT id, state, worker_key FROM tasks WHERE file = 'race.csv'`,
      );
      task = found.rows[0];
      if (!task) await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({ state: 'parsing', worker_key: t.ctx.tasks.workerKey });
    // Neither this process's worker nor another one can take it.
    expect(await claimTask(t.database.db, ['import'], 424242)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 300));
    const still = await t.database.db.execute<{ state: string }>(
      sql`SELECT state FROM tasks WHERE id = ${task!.id}`,
    );
    expect(still.rows[0].state).toBe('parsing');

    release();
    const staged = await staging;
    expect(staged.rows).toBe(2);
    const queued = await queueUpload(t.ctx, staged, s.datasetId, undefined);
    expect(queued.state).toBe('queued');
    const done = await waitForTask(t, cookie, queued.id);
    expect(done.state).toBe('done');
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['a@race.nl', 'b@race.nl']);
  });
});
