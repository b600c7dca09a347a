import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { TaskMessages } from '../../../common/tasks';
import { setupTestApp } from '../../test/app';
import { type ImportSetup, importFile, recordsOf, setupDataset, uploadFile } from '../../test/imports';
import { recordsPartition } from '../records/records.queries';
import { getTask } from '../tasks/task.queries';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const t = setupTestApp();
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
});

function startWorkerChild(url: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/test/worker-only-child.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, TEST_ENCRYPTION_KEY: t.ctx.config.encryptionKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    proc.stdout!.on('data', (chunk) => String(chunk).includes('ready') && resolve(proc));
    proc.stderr!.on('data', (chunk) => {
      err += chunk;
    });
    proc.on('exit', (code) => reject(new Error(`worker child exited with ${code}: ${err}`)));
  });
}

/**
 * Uploads a file of 300,000 new addresses (`<prefix><n>@groot.nl`) into the dataset, lets a child
 * process run its import and kills that process in the middle of its mapping pass; returns the
 * task id.
 */
async function killDuringImport(s: ImportSetup, prefix: string): Promise<string> {
  // This process stops claiming; the child process will run (and die in) the big import.
  await t.ctx.tasks.stop();
  const rows = Array.from({ length: 300_000 }, (_, i) => `${prefix}${i}@groot.nl,${i}`).join('\n');
  const res = await uploadFile(t, t.cookie, s, `email,nummer\n${rows}\n`);
  expect(res.statusCode, res.body).toBe(200);
  const taskId: string = res.json().task._id;
  child = await startWorkerChild(t.url);
  // Killed while PostgreSQL is taking the pass's rows: a COPY FROM of the child's past a fifth of
  // them (as the server counts them, not the task's throttled percentage, which can lag behind a
  // pass that already ended).
  for (;;) {
    const copied = await t.database.pool.query<{ n: number }>(
      `SELECT coalesce(max(tuples_processed), 0)::int AS n FROM pg_stat_progress_copy
       WHERE datname = current_database() AND command = 'COPY FROM'`,
    );
    if (copied.rows[0].n >= 60_000) break;
    expect((await getTask(t.db, taskId))?.state).not.toBe('done');
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  await new Promise((r) => child!.once('exit', r));
  return taskId;
}

describe('a killed import', () => {
  it('leaves the dataset as it was, the task failed and no staging table', async () => {
    const s = await setupDataset(t);
    await importFile(t, t.cookie, s, 'email\nblijft@x.nl\nook@x.nl\n');
    const taskId = await killDuringImport(s, 'nieuw');

    await t.ctx.tasks.start(); // a restart: sweeps tasks of dead workers and their staging tables
    const failed = await getTask(t.db, taskId);
    expect(failed?.state).toBe('failed');
    expect(failed?.error).toBe(TaskMessages.orphaned);
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['blijft@x.nl', 'ook@x.nl']);
    const count = await t.db.execute(sql`SELECT record_count FROM datasets WHERE id = ${s.datasetId}`);
    expect(Number(count.rows[0].record_count)).toBe(2);
    const staging = await t.db.execute(sql`SELECT tablename FROM pg_tables WHERE tablename LIKE 'stg\\_%'`);
    expect(staging.rows).toHaveLength(0);
  }, 120_000);

  it('as a first import leaves no record, no address and no records table', async () => {
    const s = await setupDataset(t);
    // Mid-pass the records go into the dataset's new table in the writer's transaction: killed
    // then, the table was never committed.
    const taskId = await killDuringImport(s, 'eerst');
    const table = recordsPartition(s.datasetId);
    const found = await t.database.pool.query('SELECT to_regclass($1) IS NOT NULL AS found', [table]);
    expect(found.rows[0].found).toBe(false);

    await t.ctx.tasks.start(); // the sweep drops what is left in the background
    const failed = await getTask(t.db, taskId);
    expect(failed?.state).toBe('failed');
    const swept = async () =>
      (await t.database.pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'stg\\_%'`))
        .rows[0].n === 0;
    for (let i = 0; i < 200 && !(await swept()); i++) await new Promise((r) => setTimeout(r, 50));
    // Its staging table and the first-row and side tables named after it are swept too.
    const staging = await t.database.pool.query(
      `SELECT tablename FROM pg_tables WHERE tablename LIKE 'stg\\_%'`,
    );
    expect(staging.rows).toEqual([]);
    expect(await recordsOf(t, s.datasetId)).toEqual([]);
    const addresses = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM addresses WHERE email LIKE 'eerst%'`,
    );
    expect(addresses.rows[0].n).toBe(0);
    // The dataset takes its next import as a first import.
    expect(await importFile(t, t.cookie, s, 'email\neerst1@groot.nl\n')).toMatchObject({ saved: 1 });
  }, 120_000);
});
