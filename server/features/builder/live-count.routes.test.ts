import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveCountAnswerSchema, LiveCountMessages } from '../../../common/live-count';
import {
  LiveCountSchema,
  type ResultRow,
  SelectionFunnelSchema,
  SelectionMessages,
  SelectionSchema,
} from '../../../common/selections';
import { TaskMessages } from '../../../common/tasks';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { withDatasetsLocked } from './draft-world.test-helpers';

// POST .../selections/live-count through HTTP: the draft on screen counted with its funnel, equal
// to the spec's count task and the funnel route of the same saved selection; a saved selection's
// count kept as its last count; a slow count handed on to a task (made slow by a lock on
// datasets, which the count reads), cancelled on request; a client that leaves cancels its statement.
const t = setupTestApp();
let a: ImportSetup;
let b: ImportSetup;
let watcher: pg.Client;

const line = (i: number) => `a${i}@voorbeeld.nl,${1000 + i}AB,${i % 2 ? 'M' : 'V'}\n`;
const file = (from: number, to: number) =>
  `email,postcode,geslacht\n${Array.from({ length: to - from + 1 }, (_, k) => line(from + k)).join('')}`;

beforeAll(async () => {
  const mappings = [columnMapping('postcode', 'postcode'), columnMapping('geslacht', 'gender')];
  a = await setupDataset(t, mappings, 'email');
  b = await setupDataset(t, mappings, 'email');
  await t.database.db.execute(sql`UPDATE datasets SET sort = CASE id WHEN ${a.datasetId} THEN 1 ELSE 2 END
    WHERE id IN (${a.datasetId}, ${b.datasetId})`);
  await importFile(t, t.cookie, a, file(1, 20));
  await importFile(t, t.cookie, b, file(11, 30));
  watcher = new pg.Client({ connectionString: t.url });
  await watcher.connect();
});
afterAll(async () => {
  await watcher?.end();
});

const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };
const query = { and: [{ startsWith: { postcode: '10' } }, { match: { gender: 'M' } }] };

/** A new draft mailing's selections URL. */
async function mailingUrl(): Promise<string> {
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  return `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
}

/** The live count's answer for `body`, checked against its contract. */
async function live(url: string, body: unknown) {
  const res = await t.api('POST', `${url}/live-count`, body);
  expect(res.statusCode, res.body).toBe(200);
  return LiveCountAnswerSchema.parse(res.json());
}

/** The statements of the app waiting on or running a count, but the watcher's. */
async function counting(): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
      AND query NOT ILIKE '%pg_advisory%' AND query NOT ILIKE '%pg_stat_activity%'`);
  return rows[0].n;
}

describe('POST .../selections/live-count', () => {
  it('counts an unsaved draft as the spec count task and the funnel count the same tree saved', async () => {
    const url = await mailingUrl();
    const answer = await live(url, { query, ...open });
    expect(answer.state).toBe('done');
    if (answer.state !== 'done') return;
    // 10..29 with postcode 10xx: a1..a30 all start with 10; odd: 15 addresses, a11..a19 once.
    expect(answer.count.funnel).toEqual({
      total: 15,
      lines: [
        { query: 'postcode:10*', remaining: 30 },
        { query: 'gender:M', remaining: 15 },
      ],
    });
    const created = await t.api('POST', url, { query, ...open });
    const selectionUrl = `${url}/${created.json().selectionId}`;
    const started = await t.api('GET', `${selectionUrl}/query`);
    const task = await waitForTask(t, t.cookie, started.json().task._id);
    expect(answer.count.rows).toEqual(task.result as ResultRow[]);
    expect(answer.count.query).toBe(started.json().query);
    const funnel = SelectionFunnelSchema.parse((await t.api('GET', `${selectionUrl}/funnel`)).json());
    expect(answer.count.funnel).toEqual({ total: funnel.total, lines: funnel.lines });
    // A's addresses come from A (sort 1): a1..a19 odd = 10; B's own: a21..a29 odd = 5.
    const byDataset = Object.fromEntries(answer.count.rows.map((r) => [r.dataset.id, r.total]));
    expect(byDataset).toEqual({ [a.datasetId]: 10, [b.datasetId]: 5 });
  });

  it("keeps a saved selection's count as its last count while the selection holds what was counted", async () => {
    const url = await mailingUrl();
    const id = (await t.api('POST', url, { query, ...open })).json().selectionId;
    const before = SelectionSchema.parse((await t.api('GET', `${url}/${id}`)).json());
    expect(before.lastCount).toBeNull();
    // A draft that differs from what is saved is counted, not kept as the selection's.
    const other = { and: [{ match: { gender: 'V' } }] };
    await live(url, { query: other, ...open, selectionId: id });
    expect(SelectionSchema.parse((await t.api('GET', `${url}/${id}`)).json()).lastCount).toBeNull();
    const answer = await live(url, { query, ...open, selectionId: id });
    if (answer.state !== 'done') throw new Error('expected a direct answer');
    const kept = SelectionSchema.parse((await t.api('GET', `${url}/${id}`)).json()).lastCount;
    expect(kept).toEqual(LiveCountSchema.parse(answer.count));
    // Counting an edit that is not saved leaves the kept count of what is saved.
    await live(url, { query: other, ...open, selectionId: id });
    expect(SelectionSchema.parse((await t.api('GET', `${url}/${id}`)).json()).lastCount).toEqual(kept);
    // Saving the other tree: the kept count no longer belongs to the selection.
    expect((await t.api('PUT', `${url}/${id}`, { query: other })).statusCode).toBe(200);
    expect(SelectionSchema.parse((await t.api('GET', `${url}/${id}`)).json()).lastCount).toBeNull();
    // A count of the saved tree is kept again.
    await live(url, { query: other, ...open, selectionId: id });
    expect(SelectionSchema.parse((await t.api('GET', `${url}/${id}`)).json()).lastCount?.funnel.total).toBe(
      15,
    );
  });

  it('hands a count that takes longer than a moment on to a task, which ends with the same count', async () => {
    const url = await mailingUrl();
    const direct = await live(url, { query, ...open });
    const answer = await withDatasetsLocked(t.url, async () => {
      const handed = await live(url, { query, ...open });
      expect(handed.state).toBe('task');
      return handed;
    });
    if (answer.state !== 'task' || direct.state !== 'done') throw new Error('expected a task and a count');
    expect(answer.query).toBe(direct.count.query);
    const task = await waitForTask(t, t.cookie, answer.task._id);
    expect(task.state, task.error).toBe('done');
    const counted = LiveCountSchema.parse(task.result);
    expect(counted.rows).toEqual(direct.count.rows);
    expect(counted.funnel).toEqual(direct.count.funnel);
  });

  it("cancels a handed-on count's statement on request; the task fails with its message", async () => {
    const url = await mailingUrl();
    await withDatasetsLocked(t.url, async () => {
      const answer = await live(url, { query, ...open });
      if (answer.state !== 'task') throw new Error('expected a task');
      expect(await counting()).toBe(1);
      const cancelled = await t.api('POST', `/api/tasks/${answer.task._id}/cancel`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      await expect.poll(counting, { timeout: 10_000 }).toBe(0);
      const task = await waitForTask(t, t.cookie, answer.task._id);
      expect(task).toMatchObject({ state: 'failed', error: LiveCountMessages.cancelled });
      const again = await t.api('POST', `/api/tasks/${answer.task._id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(TaskMessages.notCancellable);
    });
    expect((await t.api('POST', '/api/tasks/onbekend/cancel')).statusCode).toBe(404);
  });

  it('cancels the statement of a client that leaves before the answer', async () => {
    const url = await mailingUrl();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    await withDatasetsLocked(t.url, async () => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        path: `${url}/live-count`,
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: t.cookie },
      });
      request.on('error', () => {});
      request.end(JSON.stringify({ query, ...open }));
      await expect.poll(counting, { timeout: 10_000 }).toBe(1);
      request.destroy();
      await expect.poll(counting, { timeout: 10_000 }).toBe(0);
    });
    // No task was made for it.
    const tasks = (await t.api('GET', '/api/tasks')).json() as { type: string; state: string }[];
    expect(
      tasks.filter((x) => x.type === 'selection-count' && x.state !== 'failed' && x.state !== 'done'),
    ).toEqual([]);
  });

  it('answers 400 for a malformed draft or a file line without its file, 404 for an unknown mailing or selection', async () => {
    const url = await mailingUrl();
    for (const body of [{ query: { and: 'x' } }, { query, useBlacklist: 'ja' }, [], { selectionId: '' }]) {
      const res = await t.api('POST', `${url}/live-count`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const fileLine = { and: [{ intersect: { id: 'r1', name: 'klanten.csv', fields: ['gen_id'] } }] };
    const noFile = await t.api('POST', `${url}/live-count`, { query: fileLine, ...open });
    expect(noFile.statusCode, noFile.body).toBe(400);
    expect(noFile.json().message).toContain('heeft geen bestand');
    const unknown = await t.api('POST', `${url.replace(/mailings\/[^/]+/, 'mailings/onbekend')}/live-count`, {
      query,
    });
    expect(unknown.statusCode).toBe(404);
    const noSelection = await t.api('POST', `${url}/live-count`, { query, selectionId: 'onbekend' });
    expect(noSelection.statusCode).toBe(404);
    expect(noSelection.json().message).toBe(SelectionMessages.notFound);
  });
});
