import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultRow } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { intersectSelection as intersectSelectionOf } from './line-file.test-helpers';

const t = setupTestApp();
let a: ImportSetup;

// One dataset of 2,000 addresses: file one holds the first 1,000, file two the other 1,000.
const address = (i: number) => `r${i}@voorbeeld.nl`;
const addresses = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `${address(from + k)}\n`).join('');

beforeAll(async () => {
  a = await setupDataset(t, [], 'email');
  await importFile(t, t.cookie, a, `email\n${addresses(1, 2000)}`);
});

/** A selection whose tree is one Bestandsmatch line `l1`; returns its URL. */
const intersectSelection = async () => (await intersectSelectionOf(t)).url;

/** Posts a line file of `content` to line l1; returns its task id. */
async function uploadLine(url: string, content: string): Promise<string> {
  const body = multipartBody(
    { mappings: JSON.stringify([{ type: 'base', field: 'mail', base: 'id', generated: 'gen_id' }]) },
    { name: 'lijst.csv', content: `mail\n${content}` },
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

/** The stored rows of line l1 of a selection, as the e-mails they hold. */
async function storedRows(url: string): Promise<string[]> {
  const id = url.split('/').pop();
  const { rows } = await t.db.execute<{ v: string }>(
    sql`SELECT vals[1] AS v FROM selection_file_rows WHERE selection_id = ${id} AND line_id = 'l1'`,
  );
  return rows.map((r) => r.v).sort();
}

describe('line files', () => {
  it('stores one whole file when two uploads of one line run at once (the last wins)', async () => {
    const url = await intersectSelection();
    const first = await waitForTask(t, t.cookie, await uploadLine(url, addresses(1, 10)));
    expect(first.state, first.error).toBe('done');
    // GET of the selection names the line's stored file with its data rows (the builder's line text).
    const opened = await t.api('GET', url);
    expect(opened.json().lineFiles).toEqual([{ lineId: 'l1', name: expect.any(String), rows: 10 }]);
    // Hold the line's row so both tasks reach their write before either commits: the race is
    // then certain rather than a matter of timing.
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    let tasks: string[];
    try {
      await holder.query('BEGIN');
      await holder.query(
        `SELECT 1 FROM selection_files WHERE selection_id = $1 AND line_id = 'l1' FOR UPDATE`,
        [url.split('/').pop()],
      );
      tasks = [await uploadLine(url, addresses(1, 1000)), await uploadLine(url, addresses(1001, 2000))];
      for (let i = 0; ; i++) {
        const { rows } = await holder.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        );
        if (rows[0].n >= 2) break;
        if (i > 600) throw new Error('the two line-file tasks never both waited');
        await new Promise((r) => setTimeout(r, 50));
      }
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    for (const id of tasks) {
      const task = await waitForTask(t, t.cookie, id);
      expect(task.state, task.error).toBe('done');
    }
    const stored = await storedRows(url);
    expect(stored).toHaveLength(1000);
    const one = addresses(1, 1000).trim().split('\n').sort();
    const two = addresses(1001, 2000).trim().split('\n').sort();
    expect([one, two]).toContainEqual(stored);
    const run = await t.api('GET', `${url}/query`);
    expect(run.statusCode, run.body).toBe(200);
    const task = await waitForTask(t, t.cookie, run.json().task._id);
    expect(task.state, task.error).toBe('done');
    expect((task.result as ResultRow[]).map((r) => r.total)).toEqual([1000]);
  });
});
