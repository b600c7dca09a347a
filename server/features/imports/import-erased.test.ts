import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SKIP_REASON_LABELS, type SkipReason } from '../../../common/skipped-rows';
import { withClientTransaction } from '../../db/client';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import {
  columnMapping as col,
  type ImportSetup,
  recordsOf,
  setupDataset,
  uploadFile,
  waitForTask,
} from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { lockOutWaysIn, suppressionHash } from '../avg/suppression';

// An address erased under the AVG (art. 17) never comes back through an import: every row of its
// e-mail is left out, whatever its case or surrounding white space, on a first import's direct path
// (SQL's rows and the side rows only Node takes), on a re-import and on the general path, and counted
// under its own reason in the result and the skipped-rows download. An import waits for an erasure
// that is running and then sees it.
const t = setupTestApp();

const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);

/** Marks normalised e-mail addresses as erased, as an erasure leaves them: their keyed hash only. */
async function suppress(...emails: string[]): Promise<void> {
  for (const email of emails)
    await q('INSERT INTO avg_suppressions (hash) VALUES ($1) ON CONFLICT DO NOTHING', [
      suppressionHash(t.ctx.columnKeys(), email),
    ]);
}

/** Imports `content` into `s`; returns the finished task (id and result). */
async function runImport(s: ImportSetup, content: string) {
  const res = await uploadFile(t, t.cookie, s, content);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task as { _id: string; result: Record<string, unknown> };
}

/** The skipped-rows download of a task as rows, header first. */
async function skippedCsv(taskId: string): Promise<string[][]> {
  const res = await t.api('GET', `/api/tasks/${taskId}/skipped`);
  expect(res.statusCode, res.body).toBe(200);
  return parse(csvBody(res)) as string[][];
}

/**
 * A download's line: the file line (row + header), the reason in Dutch, the e-mail as in the file
 * (one that starts with a tab comes with the download's guard against formulas, a leading "'");
 * empty for a row of an erased address, whatever its reason.
 */
const line = (row: number, reason: SkipReason, email: string) => [
  String(row + 1),
  SKIP_REASON_LABELS[reason],
  email,
];

/** The skipped rows stored for any task whose e-mail field, as the ways in normalise it, is one of `emails`. */
async function storedSkippedEmails(emails: string[]): Promise<string[]> {
  const { rows } = await q('SELECT email FROM import_skipped_rows WHERE email IS NOT NULL');
  return rows.map((r) => r.email as string).filter((e) => emails.includes(e.trim().toLowerCase()));
}

/** Which of `emails` the addresses table holds. */
async function storedAddresses(emails: string[]): Promise<string[]> {
  const { rows } = await q('SELECT email FROM addresses WHERE email = ANY($1) ORDER BY email', [emails]);
  return rows.map((r) => r.email);
}

const ERASED = ['weg@x.nl', 'josé@x.nl', 'stil@x.nl'];

describe('an import of erased addresses', () => {
  it('leaves every row of an erased e-mail out of a first import and a re-import, counted as erased', async () => {
    await suppress(...ERASED);
    const s = await setupDataset(t, [col('naam', 'naam')]);
    const first = [
      'email,naam',
      'a@x.nl,1', // 1 kept
      'weg@x.nl,2', // 2 erased (its first row too)
      ' WEG@x.nl ,3', // 3 erased (SQL takes it for the same address)
      'b@x.nl,4', // 4 kept
      '"\tweg@x.nl",5', // 5 erased (a side row: only Node takes it)
      'josé@x.nl,6', // 6 erased (a side row)
      'JOSÉ@x.nl,7', // 7 erased (a side row)
      'geen,8', // 8 invalid
      'a@x.nl,9', // 9 repeated
      '"\tc@x.nl",10', // 10 kept (a side row)
      '"\tstil@x.nl",11', // 11 erased (only as a side row)
      'weg@x.nl,12', // 12 erased
    ].join('\n');
    const task = await runImport(s, first);
    expect(task.result).toEqual({
      read: 12,
      saved: 3,
      skipped: 9,
      deleted: 0,
      unchanged: 0,
      skippedBy: { invalid: 1, repeated: 1, excluded: 0, erased: 7 },
    });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['a@x.nl', 'b@x.nl', 'c@x.nl']);
    expect(await storedAddresses(ERASED)).toEqual([]);
    expect(await storedSkippedEmails(ERASED)).toEqual([]);
    expect(await skippedCsv(task._id)).toEqual([
      ['regel', 'reden', 'email'],
      line(2, 'erased', ''),
      line(3, 'erased', ''),
      line(5, 'erased', ''),
      line(6, 'erased', ''),
      line(7, 'erased', ''),
      line(8, 'invalid', 'geen'),
      line(9, 'repeated', 'a@x.nl'),
      line(11, 'erased', ''),
      line(12, 'erased', ''),
    ]);
    const counted = await q('SELECT record_count FROM datasets WHERE id = $1', [s.datasetId]);
    expect(Number(counted.rows[0].record_count)).toBe(3);

    // A re-import (the general path, the dataset has records): c is absent, so deleted.
    const again = [
      'email,naam',
      'weg@x.nl,1', // 1 erased
      'a@x.nl,1', // 2 unchanged
      'b@x.nl,4', // 3 unchanged
      ' Weg@X.NL ,2', // 4 erased
      'd@x.nl,5', // 5 new
      '"\tjosé@x.nl",6', // 6 erased
      'd@x.nl,7', // 7 repeated
    ].join('\n');
    const re = await runImport(s, again);
    expect(re.result).toEqual({
      read: 7,
      saved: 1,
      skipped: 4,
      deleted: 1,
      unchanged: 2,
      skippedBy: { invalid: 0, repeated: 1, excluded: 0, erased: 3 },
    });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['a@x.nl', 'b@x.nl', 'd@x.nl']);
    expect(await storedAddresses(ERASED)).toEqual([]);
    expect(await storedSkippedEmails(ERASED)).toEqual([]);
    expect(await skippedCsv(re._id)).toEqual([
      ['regel', 'reden', 'email'],
      line(1, 'erased', ''),
      line(4, 'erased', ''),
      line(6, 'erased', ''),
      line(7, 'repeated', 'd@x.nl'),
    ]);
  });

  it('leaves them out on the general path of a first import (an exclude filter), an excluded row counted as excluded', async () => {
    await suppress(...ERASED);
    const s = await setupDataset(t, [col('naam', 'naam', { exclude: '/^x$/' })]);
    const file = [
      'email,naam',
      'weg@x.nl,x', // 1 excluded (the filter comes first)
      'weg@x.nl,1', // 2 erased
      'e@x.nl,x', // 3 excluded
      'e@x.nl,2', // 4 kept
      'WEG@x.nl,3', // 5 erased
      '"\tstil@x.nl",4', // 6 erased
      'f@x.nl,5', // 7 kept
      'f@x.nl,6', // 8 repeated
      'JOSÉ@x.nl ,7', // 9 erased
    ].join('\n');
    const task = await runImport(s, file);
    expect(task.result).toEqual({
      read: 9,
      saved: 2,
      skipped: 7,
      deleted: 0,
      unchanged: 0,
      skippedBy: { invalid: 0, repeated: 1, excluded: 2, erased: 4 },
    });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['e@x.nl', 'f@x.nl']);
    expect(await storedAddresses(ERASED)).toEqual([]);
    expect(await storedSkippedEmails(ERASED)).toEqual([]);
    expect(await skippedCsv(task._id)).toEqual([
      ['regel', 'reden', 'email'],
      line(1, 'excluded', ''), // an erased address's e-mail is never stored
      line(2, 'erased', ''),
      line(3, 'excluded', 'e@x.nl'),
      line(5, 'erased', ''),
      line(6, 'erased', ''),
      line(8, 'repeated', 'f@x.nl'),
      line(9, 'erased', ''),
    ]);
  });

  it('imports an address erased nowhere as usual while others are erased', async () => {
    await suppress(...ERASED);
    const s = await setupDataset(t);
    const task = await runImport(s, 'email\nnieuw@x.nl\nNieuw@x.nl\n');
    expect(task.result).toMatchObject({
      read: 2,
      saved: 1,
      skippedBy: { invalid: 0, repeated: 1, excluded: 0, erased: 0 },
    });
  });

  it('waits for an erasure that holds the ways in off, then sees the address it erased', async () => {
    const s = await setupDataset(t);
    const erasure = await startErasure('later@x.nl');
    const res = await uploadFile(t, t.cookie, s, 'email\nblijft@x.nl\nlater@x.nl\nLATER@x.nl\n');
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().task._id;
    await expectWaiting(id);
    expect(await storedAddresses(['blijft@x.nl'])).toEqual([]);
    await erasure.commit();
    const task = await waitForTask(t, t.cookie, id);
    expect(task.state, task.error).toBe('done');
    expect(task.result).toMatchObject({
      read: 3,
      saved: 1,
      skipped: 2,
      skippedBy: { erased: 2, repeated: 0 },
    });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['blijft@x.nl']);
    expect(await storedAddresses(['later@x.nl'])).toEqual([]);
  });

  it('holds a remap off until an erasure ends (a remap waits too)', async () => {
    const s = await setupDataset(t, [col('naam', 'naam')]);
    await runImport(s, 'email,naam\nr1@x.nl,a\nr2@x.nl,b\n');
    const erasure = await startErasure('ander@x.nl');
    const res = await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/remap`);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().task._id;
    await expectWaiting(id);
    await erasure.commit();
    const task = await waitForTask(t, t.cookie, id);
    expect(task.state, task.error).toBe('done');
    expect(task.result).toMatchObject({ read: 2, deleted: 0 });
  });

  it('holds a delete from file off until an erasure ends (it waits too)', async () => {
    const s = await setupDataset(t);
    await runImport(s, 'email\nd1@x.nl\nd2@x.nl\n');
    const erasure = await startErasure('ander2@x.nl');
    const body = multipartBody({}, { name: 'weg.csv', content: 'email\nd1@x.nl\n' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/deleteall/${s.partnerId}/${s.datasetId}`,
      payload: body.payload,
      headers: { ...body.headers, cookie: t.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().task._id;
    await expectWaiting(id);
    await erasure.commit();
    const task = await waitForTask(t, t.cookie, id);
    expect(task.state, task.error).toBe('done');
    expect(task.result).toEqual({ read: 1, deleted: 1 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['d2@x.nl']);
  });
});

/**
 * An erasure in progress: a transaction holding the ways in off (lockOutWaysIn) that suppresses
 * `email` and commits when told; resolves once it holds the lock.
 */
async function startErasure(email: string): Promise<{ commit: () => Promise<void> }> {
  let locked!: () => void;
  let release!: () => void;
  const isLocked = new Promise<void>((r) => {
    locked = r;
  });
  const released = new Promise<void>((r) => {
    release = r;
  });
  const erasure = withClientTransaction(t.database, async (tx) => {
    await lockOutWaysIn(tx);
    locked();
    await released;
    const hash = suppressionHash(t.ctx.columnKeys(), email);
    await tx.execute(sql`INSERT INTO avg_suppressions (hash) VALUES (${hash})`);
  });
  await isLocked;
  return {
    commit: async () => {
      release();
      await erasure;
    },
  };
}

/** Expects task `id` to wait for the erasure's lock (an advisory lock request not granted) and not finish. */
async function expectWaiting(id: string): Promise<void> {
  let waiting = false;
  for (let i = 0; i < 400 && !waiting; i++) {
    const { rows } = await q(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
       WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`,
    );
    waiting = rows[0].n > 0;
    if (!waiting) await new Promise((r) => setTimeout(r, 25));
  }
  expect(waiting).toBe(true);
  await new Promise((r) => setTimeout(r, 200));
  const during = (await t.api('GET', `/api/tasks/${id}`)).json();
  expect(during.state).not.toBe('done');
}
