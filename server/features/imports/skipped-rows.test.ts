import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { SKIP_REASON_LABELS, SKIPPED_ROWS_KEPT, type SkipReason } from '../../../common/skipped-rows';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import {
  columnMapping as col,
  type ImportSetup,
  setupDataset,
  uploadFile,
  waitForTask,
} from '../../test/imports';
import { WORKER_THRESHOLD } from '../records/copy-pass';

const t = setupTestApp();
const threadsBefore = () => t.ctx.config.importThreads;
let restoreThreads: number | null = null;
afterEach(() => {
  if (restoreThreads !== null) t.ctx.config.importThreads = restoreThreads;
  restoreThreads = null;
});

/** Imports `content` into `s`; returns the finished task (id and result). */
async function runImport(s: ImportSetup, content: string) {
  const res = await uploadFile(t, t.cookie, s, content);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task as { _id: string; result: Record<string, unknown> };
}

/** The skipped-rows download of a task as rows (header first), read past its BOM. */
async function skippedCsv(taskId: string, format = ''): Promise<string[][]> {
  const res = await t.api('GET', `/api/tasks/${taskId}/skipped${format}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return parse(csvBody(res), { delimiter: format.includes('excel') ? ';' : ',' }) as string[][];
}

/** A download's line: the file line (row + header), the reason in Dutch, the e-mail as in the file. */
const line = (row: number, reason: SkipReason, email: string) => [
  String(row + 1),
  SKIP_REASON_LABELS[reason],
  email,
];

describe('the skipped rows of an import', () => {
  it('keeps why each row was skipped on the direct first import: invalid, repeated (also among the side rows)', async () => {
    const s = await setupDataset(t);
    const file = [
      'email,naam',
      'a@x.nl,1', // 1 kept
      'geen-email,2', // 2 invalid
      ' A@x.nl ,3', // 3 repeat of 1 (SQL takes it for the same address)
      ',4', // 4 invalid (empty)
      'josé@x.nl,5', // 5 kept (a side row: only Node takes it)
      'JOSÉ@x.nl,6', // 6 repeat of 5 (a side row)
      '"\tc@x.nl",7', // 7 kept (side) and replaces the record of 8
      'c@x.nl,8', // 8 repeat of 7 (the row SQL took first)
      'b@x.nl,9', // 9 kept
      'a@x.nl,10', // 10 repeat of 1
    ].join('\n');
    const task = await runImport(s, file);
    expect(task.result).toMatchObject({
      read: 10,
      saved: 4,
      skipped: 6,
      skippedBy: { invalid: 2, repeated: 4, excluded: 0 },
    });
    expect(await skippedCsv(task._id)).toEqual([
      ['regel', 'reden', 'email'],
      line(2, 'invalid', 'geen-email'),
      line(3, 'repeated', ' A@x.nl '),
      line(4, 'invalid', ''),
      line(6, 'repeated', 'JOSÉ@x.nl'),
      line(8, 'repeated', 'c@x.nl'),
      line(10, 'repeated', 'a@x.nl'),
    ]);
  });

  it('keeps them on the general path too (an exclude filter), and on a re-import', async () => {
    const s = await setupDataset(t, [col('naam', 'naam', { exclude: '/^weg/i' })]);
    const file = [
      'email,naam',
      'a@y.nl,Anna', // 1 kept
      'b@y.nl,Weg ermee', // 2 excluded
      'niet-geldig,weg', // 3 excluded (the filter first)
      'niet-geldig,Piet', // 4 invalid
      'A@Y.NL,Anna', // 5 repeat of 1
      'b@y.nl,Bob', // 6 kept (the excluded row 2 does not count)
      'b@y.nl,Bob2', // 7 repeat of 6
    ].join('\n');
    for (const pass of ['first', 're-import']) {
      const task = await runImport(s, file);
      expect(task.result, pass).toMatchObject({
        read: 7,
        skipped: 5,
        skippedBy: { invalid: 1, repeated: 2, excluded: 2 },
      });
      const excel = await skippedCsv(task._id, '?format=excel');
      expect(excel).toEqual([
        ['regel', 'reden', 'email'],
        line(2, 'excluded', 'b@y.nl'),
        line(3, 'excluded', 'niet-geldig'),
        line(4, 'invalid', 'niet-geldig'),
        line(5, 'repeated', 'A@Y.NL'),
        line(7, 'repeated', 'b@y.nl'),
      ]);
    }
  });

  it('gives the same reasons when worker threads map the rows, and keeps the first 10,000 skipped rows', async () => {
    restoreThreads = threadsBefore();
    t.ctx.config.importThreads = 2;
    const rows = WORKER_THRESHOLD + 10_000;
    const emailOf = (i: number) =>
      i % 4 === 0 ? `geen adres ${i}` : i % 6 === 1 ? 'same@t.nl' : `u${i}@t.nl`;
    const file = (exclude: boolean) =>
      `email,naam\n${Array.from({ length: rows }, (_, k) => {
        const i = k + 1;
        return `${emailOf(i)},${exclude && i % 9 === 0 ? 'weg' : `n${i}`}`;
      }).join('\n')}\n`;
    const reasonOf = (i: number, exclude: boolean): SkipReason | null =>
      exclude && i % 9 === 0
        ? 'excluded'
        : i % 4 === 0
          ? 'invalid'
          : i % 6 === 1 && i > 1
            ? 'repeated'
            : null;

    for (const exclude of [false, true]) {
      // Without a filter the direct first import; with one the general path.
      const s = await setupDataset(t, exclude ? [col('naam', 'naam', { exclude: 'weg' })] : []);
      const task = await runImport(s, file(exclude));
      const expected: string[][] = [];
      const counts = { invalid: 0, repeated: 0, excluded: 0, erased: 0 };
      for (let i = 1; i <= rows; i++) {
        const reason = reasonOf(i, exclude);
        if (!reason) continue;
        counts[reason]++;
        if (expected.length < SKIPPED_ROWS_KEPT) expected.push(line(i, reason, emailOf(i)));
      }
      expect(counts.invalid + counts.repeated + counts.excluded).toBeGreaterThan(SKIPPED_ROWS_KEPT);
      expect(task.result, `exclude ${exclude}`).toMatchObject({
        read: rows,
        skipped: counts.invalid + counts.repeated + counts.excluded,
        skippedBy: counts,
      });
      const csv = await skippedCsv(task._id);
      expect(csv[0]).toEqual(['regel', 'reden', 'email']);
      expect(csv.slice(1)).toEqual(expected);
    }
  });

  it('answers 404 for an unknown task, an empty list for a task without skipped rows, 400 for a bad format, 401', async () => {
    expect((await t.api('GET', '/api/tasks/onbekend/skipped')).statusCode).toBe(404);
    const s = await setupDataset(t);
    const task = await runImport(s, 'email\nok@z.nl\n');
    expect(task.result).toMatchObject({ skipped: 0, skippedBy: { invalid: 0, repeated: 0, excluded: 0 } });
    expect(await skippedCsv(task._id)).toEqual([['regel', 'reden', 'email']]);
    expect((await t.api('GET', `/api/tasks/${task._id}/skipped?format=x`)).statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/tasks/${task._id}/skipped` });
    expect(anonymous.statusCode).toBe(401);
  });
});
