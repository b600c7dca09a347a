import { describe, expect, it } from 'vitest';
import { taskDefinition } from '../../tasks/handlers';
import { setupTestApp } from '../../test/app';
import { holdAtFirstCount } from '../../test/held-task';
import { columnMapping, importFile, setupDataset, uploadFile, waitForTask } from '../../test/imports';
import { waitFor } from '../../test/wait';

// An import and a remap count their rows done of the total as they go, and the
// connector is busy while they run.
const t = setupTestApp();

const ROWS = 6000;
const csvOf = (rows: number) => {
  let csv = 'email,naam,stad\n';
  for (let i = 0; i < rows; i++) csv += `persoon${i}@voorbeeld${i % 40}.nl,Naam ${i},Stad ${i % 9}\n`;
  return csv;
};

const getTask = async (id: string) => (await t.api('GET', `/api/tasks/${id}`)).json();
const connectorStatus = async () => (await t.api('GET', '/api/connector/status')).json().status as string;

/** A promise with its resolve function. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

describe('rows done of total', () => {
  it('an import reports its rows as it maps them, ever more, and ends with all of them', async () => {
    const s = await setupDataset(t, [columnMapping('naam', 'firstName')]);
    const seen: [number, number][] = [];
    const real = taskDefinition(t.ctx, 'import');
    t.ctx.tasks.register('import', {
      ...real,
      run: (task, tctx) =>
        real.run(task, {
          ...tctx,
          count: (done, total, options) => {
            seen.push([done, total]);
            return tctx.count(done, total, options);
          },
        }),
    });
    const res = await uploadFile(t, t.cookie, s, csvOf(ROWS));
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task.state, task.error).toBe('done');
    expect(task.progress).toEqual({ done: ROWS, total: ROWS, unit: 'rows' });
    expect(task.percentage).toBe(100);
    // Counted from 0, block by block (more than once between none and all), never backwards.
    expect(seen[0]).toEqual([0, ROWS]);
    expect(seen.every(([, total]) => total === ROWS)).toBe(true);
    expect(seen.filter(([done]) => done > 0 && done < ROWS).length).toBeGreaterThan(1);
    expect(seen.map(([done]) => done)).toEqual(seen.map(([done]) => done).sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual([ROWS, ROWS]);
  });

  it('a held remap shows its rows done of total and the connector busy, then all rows and idle', async () => {
    const s = await setupDataset(t, [columnMapping('naam', 'firstName')]);
    await importFile(t, t.cookie, s, csvOf(ROWS));
    const release = gate();
    const held = gate();
    const real = taskDefinition(t.ctx, 'remap');
    t.ctx.tasks.register('remap', {
      ...real,
      run: (task, tctx) => real.run(task, holdAtFirstCount(tctx, release.promise, held.open)),
    });
    expect(await connectorStatus()).toBe('idle');
    const res = await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/remap`);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().task._id;
    try {
      await held.promise;
      // The count is written within a moment (at most every 250 ms).
      const running = await waitFor(
        () => getTask(id),
        (task) => (task.progress?.done ?? 0) > 0,
      );
      expect(running.state).toBe('updating');
      expect(running.progress.total).toBe(ROWS);
      expect(running.progress.unit).toBe('rows');
      expect(running.progress.done).toBeLessThan(ROWS);
      expect(running.percentage).toBeGreaterThan(5);
      expect(running.percentage).toBeLessThan(65);
      expect(await connectorStatus()).toBe('busy');
      const listed = (await t.api('GET', '/api/tasks')).json().find((x: { _id: string }) => x._id === id);
      expect(listed.progress).toEqual(running.progress);
    } finally {
      release.open();
    }
    const task = await waitForTask(t, t.cookie, id);
    expect(task.state, task.error).toBe('done');
    expect(task.progress).toEqual({ done: ROWS, total: ROWS, unit: 'rows' });
    expect(task.result).toMatchObject({ read: ROWS, unchanged: ROWS });
    expect(await connectorStatus()).toBe('idle');
  });
});
