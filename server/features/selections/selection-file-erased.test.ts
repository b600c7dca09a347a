import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { suppress, whileErasing } from '../avg/suppression.test-helpers';
import { intersectSelection as intersectSelectionOf } from './line-file.test-helpers';

// A selection's line file and erased addresses (AVG art. 17): a row holding an erased e-mail is
// not stored, and the upload's task counts it as erased.

const t = setupTestApp();
let a: ImportSetup;

beforeAll(async () => {
  a = await setupDataset(t, [], 'email');
  await importFile(t, t.cookie, a, 'email\njan@lijn.nl\npiet@lijn.nl\n');
  await suppress(t, ['weg@lijn.nl', 'ook-weg@lijn.nl']);
});

/** A selection whose tree is one Bestandsmatch line `l1`; returns its URL. */
const intersectSelection = async () => (await intersectSelectionOf(t)).url;

/** Posts a line file (columns mail: the e-mail base, extra: an attribute) to line l1; returns its task id. */
async function uploadLine(url: string, content: string): Promise<string> {
  const body = multipartBody(
    {
      mappings: JSON.stringify([
        { type: 'base', field: 'mail', base: 'id', generated: 'gen_id' },
        { field: 'extra', mapped: 'extra' },
      ]),
    },
    { name: 'lijst.csv', content: `mail,extra\n${content}` },
  );
  const up = await t.app.inject({
    method: 'POST',
    url: `${url}/l1/csv`,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
  expect(up.statusCode, up.body).toBe(200);
  return up.json().task._id;
}

/** Uploads a line file and waits for its task; returns the finished task. */
async function uploaded(url: string, content: string) {
  const task = await waitForTask(t, t.cookie, await uploadLine(url, content));
  expect(task.state, task.error).toBe('done');
  return task;
}

/** The stored rows of line l1 of a selection, each as its values joined by '|'. */
async function storedRows(url: string): Promise<string[]> {
  const id = url.split('/').pop();
  const { rows } = await t.db.execute<{ v: string }>(
    sql`SELECT array_to_string(vals, '|', '') AS v FROM selection_file_rows WHERE selection_id = ${id} AND line_id = 'l1'`,
  );
  return rows.map((r) => r.v).sort();
}

describe('a line file with erased e-mails', () => {
  it('stores the other rows and counts every row holding an erased e-mail, in any column', async () => {
    const url = await intersectSelection();
    const task = await uploaded(
      url,
      'jan@lijn.nl,a\n WEG@lijn.nl ,b\npiet@lijn.nl,Ook-Weg@Lijn.nl\nweg@lijn.nl,b\nnooit@lijn.nl,\n',
    );
    expect(task.result).toEqual({ read: 5, saved: 2, erased: 3 });
    expect(await storedRows(url)).toEqual(['jan@lijn.nl|a', 'nooit@lijn.nl|']);
    // The selection counts what was stored: jan (nooit is in no dataset).
    const run = await t.api('GET', `${url}/query`);
    const counted = await waitForTask(t, t.cookie, run.json().task._id);
    expect(counted.state, counted.error).toBe('done');
    expect((counted.result as { total: number }[]).map((r) => r.total)).toEqual([1]);
  });

  it('counts none when no row holds an erased e-mail', async () => {
    const url = await intersectSelection();
    const task = await uploaded(url, 'jan@lijn.nl,a\n');
    expect(task.result).toEqual({ read: 1, saved: 1, erased: 0 });
  });

  it('waits for an erasure that runs, then leaves its address out', async () => {
    const url = await intersectSelection();
    const task = await whileErasing(
      t,
      () => uploaded(url, 'jan@lijn.nl,a\npiet@lijn.nl,b\n'),
      (tx) => suppress(t, ['piet@lijn.nl'], tx),
    );
    expect(task.result).toEqual({ read: 2, saved: 1, erased: 1 });
    expect(await storedRows(url)).toEqual(['jan@lijn.nl|a']);
  });
});
