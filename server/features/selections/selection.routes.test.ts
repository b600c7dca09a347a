import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { QueryMessages } from '../../../common/query-tree';
import { type ResultRow, SelectionMessages } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import type { AllocateOptions } from './selection-allocate';

/** A test's look between an allocation's choice and its insert (AllocateOptions.beforeInsert), while one is set. */
let beforeInsert: AllocateOptions['beforeInsert'];
const t = setupTestApp({ selectionRuns: { beforeInsert: async (db, ids) => beforeInsert?.(db, ids) } });
let a: ImportSetup;
let b: ImportSetup;

// Two datasets of 20 addresses each, 10 shared: a1..a20 in A (sort 1), a11..a30 in B (sort 2).
const header = 'email,postcode,geslacht\n';
const line = (i: number) => `a${i}@voorbeeld.nl,${1000 + i}AB,${i % 2 ? 'M' : 'V'}\n`;
const file = (from: number, to: number) =>
  header + Array.from({ length: to - from + 1 }, (_, k) => line(from + k)).join('');

beforeAll(async () => {
  const mappings = [columnMapping('postcode', 'postcode'), columnMapping('geslacht', 'gender')];
  a = await setupDataset(t, mappings, 'email');
  b = await setupDataset(t, mappings, 'email');
  await t.database.db.execute(sql`UPDATE datasets SET sort = CASE id WHEN ${a.datasetId} THEN 1 ELSE 2 END
    WHERE id IN (${a.datasetId}, ${b.datasetId})`);
  await importFile(t, t.cookie, a, file(1, 20));
  await importFile(t, t.cookie, b, file(11, 30));
});

/** A draft mailing of a new campaign, and the base URL of its selections. */
async function draft() {
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  return {
    campaignId,
    mailingId: mailing._id,
    url: `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`,
  };
}

/** Settings that leave only the tree to decide (no label, blacklist or pressure in play). */
const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };

async function rowsOf(url: string, method: 'GET' | 'POST' = 'GET', table?: unknown[]): Promise<ResultRow[]> {
  const res = await t.api(method, url, method === 'POST' ? { table } : undefined);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task.result as ResultRow[];
}

describe('selections of a mailing', () => {
  it('creates, lists, reads, updates and deletes a selection', async () => {
    const m = await draft();
    const created = await t.api('POST', m.url, {
      description: 'Eerste',
      query: { and: [{ match: { postcode: '10*' }, _ui: 1 }], _open: true },
      ...open,
      useDatasetsFrom: { campaign: '' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().selectionId;
    const one = (await t.api('GET', `${m.url}/${id}`)).json();
    expect(one).toMatchObject({
      _id: id,
      description: 'Eerste',
      recordCount: 0,
      preDefined: false,
      useDatasetsFrom: [],
    });
    expect(one.query).toEqual({ and: [{ match: { postcode: '10*' } }] });
    expect(one.pressure).toEqual({ age: null });
    const put = await t.api('PUT', `${m.url}/${id}`, {
      description: 'Tweede',
      pressure: { age: '07-01-2030' },
    });
    expect(put.json()).toMatchObject({ description: 'Tweede', pressure: { age: '2030-01-07' } });
    expect((await t.api('GET', m.url)).json().map((s: { _id: string }) => s._id)).toEqual([id]);
    const del = await t.api('DELETE', `${m.url}/${id}`);
    expect(del.json()).toEqual({ message: SelectionMessages.deleted });
    expect((await t.api('GET', `${m.url}/${id}`)).statusCode).toBe(404);
  });

  it('refuses a tree that breaks a line rule with its Dutch message, and unknown ids with 404', async () => {
    const m = await draft();
    const res = await t.api('POST', m.url, { query: { and: [{ in: { postcode: [' '] } }] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(QueryMessages.valuesRequired);
    expect(
      (await t.api('POST', `/api/campaigns/${m.campaignId}/mailings/onbekend/selections`, {})).statusCode,
    ).toBe(404);
    expect((await t.api('GET', `${m.url}/onbekend`)).json().message).toBe(SelectionMessages.notFound);
  });
});

describe('running and saving a selection', () => {
  it('counts each address once in its best dataset, allocates exactly the table, and shows the saved rows', async () => {
    const m = await draft();
    const id = (await t.api('POST', m.url, { query: { and: [] }, ...open })).json().selectionId;
    const query = await t.api('GET', `${m.url}/${id}/query`);
    expect(query.json().query).toBe('*:*');
    const rows = await rowsOf(`${m.url}/${id}/query`);
    // a1..a20 in A wins (sort 1); a21..a30 only in B. Everyone is new (no results yet).
    expect(rows.map((r) => [r.dataset.id, r.saved, r.new, r.total])).toEqual([
      [a.datasetId, false, 20, 20],
      [b.datasetId, false, 10, 10],
    ]);
    expect(rows[0].dataset).toMatchObject({ name: a.name, factor: 1, sort: 1 });

    const after = await rowsOf(`${m.url}/${id}/query`, 'POST', [
      { dataset: a.datasetId, new: 5 },
      { dataset: { id: b.datasetId }, new: 3 },
    ]);
    expect(after.map((r) => [r.dataset.id, r.saved, r.sort, r.new])).toEqual([
      [a.datasetId, true, -1, 5],
      [b.datasetId, true, -1, 3],
      [a.datasetId, false, 1, 15],
      [b.datasetId, false, 2, 7],
    ]);
    const mailing = (await t.api('GET', `/api/campaigns/${m.campaignId}/mailings/${m.mailingId}`)).json();
    expect(mailing.recordCount).toBe(8);
    expect((await t.api('GET', `${m.url}/${id}`)).json().recordCount).toBe(8);
  });

  it('refuses more than a cell holds with 400 and allocates nothing', async () => {
    const m = await draft();
    const id = (await t.api('POST', m.url, { query: { and: [{ match: { gender: 'm' } }] }, ...open })).json()
      .selectionId;
    const res = await t.api('POST', `${m.url}/${id}/query`, { table: [{ dataset: b.datasetId, new: 6 }] });
    expect(res.statusCode).toBe(400);
    const { rows } = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${m.mailingId}`,
    );
    expect(rows[0].n).toBe(0);
    const bad = await t.api('POST', `${m.url}/${id}/query`, { table: [{ dataset: b.datasetId, new: -1 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(SelectionMessages.countInvalid);
  });

  it('two saves of one mailing at once never allocate an address twice', async () => {
    const m = await draft();
    const s1 = (await t.api('POST', m.url, { query: { and: [] }, ...open })).json().selectionId;
    const s2 = (await t.api('POST', m.url, { query: { and: [] }, ...open })).json().selectionId;
    const [r1, r2] = await Promise.all([
      t.api('POST', `${m.url}/${s1}/query`, { table: [{ dataset: a.datasetId, new: 12 }] }),
      t.api('POST', `${m.url}/${s2}/query`, { table: [{ dataset: a.datasetId, new: 12 }] }),
    ]);
    // 20 in A: one save gets its 12, the other finds 8 left and is refused.
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 400]);
    const { rows } =
      await t.database.db.execute(sql`SELECT count(*)::int AS n, count(DISTINCT address_id)::int AS d
      FROM mailing_addresses WHERE mailing_id = ${m.mailingId}`);
    expect(rows[0]).toEqual({ n: 12, d: 12 });
  });

  it('an address put in the mailing between the choice and the insert is chosen around, never twice', async () => {
    const m = await draft();
    const id = (await t.api('POST', m.url, { query: { and: [] }, ...open })).json().selectionId;
    // Twice the first chosen address is written into the mailing and committed by another
    // connection (a writer without the mailing's lock): each time the allocation's insert is
    // refused by the key and the choice made again, around it.
    let writes = 0;
    beforeInsert = async (_, ids) => {
      if (writes >= 2) return;
      writes++;
      const first = ids.slice(1, -1).split(',')[0];
      await t.database.db.execute(sql`INSERT INTO mailing_addresses (mailing_id, address_id, dataset_id, selection_id, category)
        VALUES (${m.mailingId}, ${first}::bigint, ${a.datasetId}, ${id}, 'new')`);
    };
    try {
      const res = await t.api('POST', `${m.url}/${id}/query`, { table: [{ dataset: a.datasetId, new: 12 }] });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      beforeInsert = undefined;
    }
    expect(writes).toBe(2);
    const { rows } =
      await t.database.db.execute(sql`SELECT count(*)::int AS n, count(DISTINCT address_id)::int AS d,
        count(*) FILTER (WHERE selection_id = ${id})::int AS s
      FROM mailing_addresses WHERE mailing_id = ${m.mailingId}`);
    // The selection's 12, and the two written beside them (under the same selection id here).
    expect(rows[0]).toEqual({ n: 14, d: 14, s: 14 });
  });

  it('a selection of a mailing that left Concept can only toggle preDefined, and appears in /pre-queries', async () => {
    const m = await draft();
    const id = (await t.api('POST', m.url, { query: { and: [] }, description: 'Sjabloon', ...open })).json()
      .selectionId;
    await t.database.db.execute(sql`UPDATE mailings SET state = 'final' WHERE id = ${m.mailingId}`);
    expect((await t.api('PUT', `${m.url}/${id}`, { description: 'x' })).statusCode).toBe(409);
    expect(
      (await t.api('POST', `${m.url}/${id}/query`, { table: [{ dataset: a.datasetId, new: 1 }] })).statusCode,
    ).toBe(409);
    const put = await t.api('PUT', `${m.url}/${id}`, { preDefined: true });
    expect(put.statusCode, put.body).toBe(200);
    const pre = (await t.api('GET', '/api/pre-queries')).json();
    const campaign = pre.find((c: { _id: string }) => c._id === m.campaignId);
    expect(campaign.mailings[0].selections).toEqual([
      { _id: id, query: { and: [] }, description: 'Sjabloon' },
    ]);
  });

  it('matches and excludes a line file (Bestandsmatch / Bestand uitsluiten) on an attribute and a base entry', async () => {
    const m = await draft();
    const tree = (kind: 'intersect' | 'complement') => ({
      and: [{ [kind]: { id: 'l1', name: 'lijst.csv', fields: ['postcode', 'gen_id'] } }],
    });
    const id = (await t.api('POST', m.url, { query: tree('intersect'), ...open })).json().selectionId;
    // Rows: a3 (postcode matches), a4 with a wrong postcode, a25 in B; a blank row and an invalid e-mail.
    const csv =
      'mail;pc\nA3@Voorbeeld.nl ; 1003ab\na4@voorbeeld.nl;9999ZZ\na25@voorbeeld.nl;1025AB\n;\nkapot;1001AB\n';
    const body = multipartBody(
      {
        mappings: JSON.stringify([
          { field: 'pc', mapped: 'postcode' },
          { type: 'base', field: 'mail', base: 'id', generated: 'gen_id' },
          { field: 'ongebruikt', mapped: '' },
        ]),
      },
      { name: 'lijst.csv', content: csv },
    );
    const up = await t.app.inject({
      method: 'POST',
      url: `${m.url}/${id}/l1/csv`,
      payload: body.payload,
      headers: { ...body.headers, cookie: t.cookie },
    });
    expect(up.statusCode, up.body).toBe(200);
    const task = await waitForTask(t, t.cookie, up.json().task._id);
    expect(task.state, task.error).toBe('done');
    const rows = await rowsOf(`${m.url}/${id}/query`);
    expect(rows.map((r) => [r.dataset.id, r.total])).toEqual([
      [a.datasetId, 1],
      [b.datasetId, 1],
    ]);
    await t.api('PUT', `${m.url}/${id}`, { query: tree('complement') });
    const rest = await rowsOf(`${m.url}/${id}/query`);
    expect(rest.map((r) => [r.dataset.id, r.total])).toEqual([
      [a.datasetId, 19],
      [b.datasetId, 9],
    ]);
    expect((await t.api('GET', `${m.url}/${id}/query`)).json().query).toBe(
      '{!complement file="lijst.csv" fields="postcode,gen_id"}',
    );
  });

  it('refuses a line file without a mapped column, and a run whose line has no file', async () => {
    const m = await draft();
    const id = (
      await t.api('POST', m.url, { query: { intersect: { id: 'l9', fields: ['postcode'] } }, ...open })
    ).json().selectionId;
    const body = multipartBody(
      { mappings: JSON.stringify([{ field: 'pc', mapped: '' }]) },
      { name: 'x.csv', content: 'pc\n1\n' },
    );
    const up = await t.app.inject({
      method: 'POST',
      url: `${m.url}/${id}/l9/csv`,
      payload: body.payload,
      headers: { ...body.headers, cookie: t.cookie },
    });
    expect(up.statusCode).toBe(400);
    expect(up.json().message).toBe('Map minstens één kolom');
    const run = await t.api('GET', `${m.url}/${id}/query`);
    expect(run.statusCode).toBe(400);
    expect(run.json().message).toBe(
      SelectionMessages.lineFileMissing(SelectionMessages.fileLine(1, 'intersect', 'l9', ['postcode'])),
    );
  });
});

describe('deleting a selection', () => {
  /** A draft mailing with an empty selection and one holding 3 addresses of A. */
  async function withTwo() {
    const m = await draft();
    const empty = (await t.api('POST', m.url, { query: { and: [] }, ...open })).json().selectionId;
    const held = (await t.api('POST', m.url, { query: { and: [] }, ...open })).json().selectionId;
    const run = await t.api('POST', `${m.url}/${held}/query`, { table: [{ dataset: a.datasetId, new: 3 }] });
    expect(run.statusCode, run.body).toBe(200);
    return { ...m, empty, held };
  }
  const heldCount = async (mailingId: string) => {
    const { rows } = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${mailingId}`,
    );
    return rows[0].n;
  };

  it('deletes an empty selection of a mailing that left Concept, never one that holds addresses', async () => {
    const m = await withTwo();
    await t.database.db.execute(sql`UPDATE mailings SET state = 'offered' WHERE id = ${m.mailingId}`);
    const gone = await t.api('DELETE', `${m.url}/${m.empty}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().message).toBe(SelectionMessages.deleted);
    expect((await t.api('GET', `${m.url}/${m.empty}`)).statusCode).toBe(404);
    const kept = await t.api('DELETE', `${m.url}/${m.held}`);
    expect(kept.statusCode).toBe(409);
    expect(kept.json().message).toBe(SelectionMessages.draftOnly);
    const { rows } = await t.database.db.execute(
      sql`SELECT record_count FROM selections WHERE id = ${m.held}`,
    );
    expect(rows).toEqual([{ record_count: 3 }]);
    expect(await heldCount(m.mailingId)).toBe(3);
  });

  it('deletes both of a mailing in Concept, with the addresses one allocated', async () => {
    const m = await withTwo();
    for (const id of [m.empty, m.held]) {
      const res = await t.api('DELETE', `${m.url}/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(SelectionMessages.deleted);
    }
    expect(await heldCount(m.mailingId)).toBe(0);
    const mailing = (await t.api('GET', `/api/campaigns/${m.campaignId}/mailings/${m.mailingId}`)).json();
    expect(mailing.recordCount).toBe(0);
  });

  it('answers 404 for an unknown selection of a mailing that left Concept', async () => {
    const m = await draft();
    await t.database.db.execute(sql`UPDATE mailings SET state = 'offered' WHERE id = ${m.mailingId}`);
    expect((await t.api('DELETE', `${m.url}/onbekend`)).statusCode).toBe(404);
  });
});
