import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultRow } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';

// A predefined selection (template) with a Bestandsmatch / Bestand uitsluiten line
// counts the same in another mailing: its line files come along when a selection is saved with
// the template's tree (the file leaf names the template, spec 001 §3). A line that really has no
// file is named in the run's message with what to do.

const t = setupTestApp();
let a: ImportSetup;
let b: ImportSetup;

// a1..a20 in A (sort 1), a11..a30 in B (sort 2).
const header = 'email,postcode\n';
const file = (from: number, to: number) =>
  header +
  Array.from({ length: to - from + 1 }, (_, k) => `a${from + k}@voorbeeld.nl,${1000 + from + k}AB\n`).join(
    '',
  );

beforeAll(async () => {
  const mappings = [columnMapping('postcode', 'postcode')];
  a = await setupDataset(t, mappings, 'email');
  b = await setupDataset(t, mappings, 'email');
  await t.database.db.execute(sql`UPDATE datasets SET sort = CASE id WHEN ${a.datasetId} THEN 1 ELSE 2 END
    WHERE id IN (${a.datasetId}, ${b.datasetId})`);
  await importFile(t, t.cookie, a, file(1, 20));
  await importFile(t, t.cookie, b, file(11, 30));
});

/** Settings that leave only the tree to decide. */
const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };

async function draft() {
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  return {
    campaignId,
    mailingId: mailing._id,
    url: `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`,
  };
}

/** Uploads `emails` as the file of line `lineId`, matched on the e-mail address (gen_id). */
async function uploadLine(selectionUrl: string, lineId: string, emails: string[]) {
  const body = multipartBody(
    { mappings: JSON.stringify([{ type: 'base', field: 'mail', base: 'id', generated: 'gen_id' }]) },
    { name: `${lineId}.csv`, content: `mail\n${emails.join('\n')}\n` },
  );
  const up = await t.app.inject({
    method: 'POST',
    url: `${selectionUrl}/${lineId}/csv`,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
  expect(up.statusCode, up.body).toBe(200);
  const task = await waitForTask(t, t.cookie, up.json().task._id);
  expect(task.state, task.error).toBe('done');
}

/** Runs a selection's count; returns the dataset and total per row. */
async function counted(selectionUrl: string): Promise<[string, number][]> {
  const res = await t.api('GET', `${selectionUrl}/query`);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return (task.result as ResultRow[]).map((r) => [r.dataset.id, r.total]);
}

const emails = (...ns: number[]) => ns.map((n) => `a${n}@voorbeeld.nl`);

/** A template's tree as the builder puts it into another selection: each file line names the template. */
function fromTemplate(query: unknown, source: { selection: string; campaign: string; mailing: string }) {
  return JSON.parse(
    JSON.stringify(query, (key, value) =>
      (key === 'intersect' || key === 'complement') && value && typeof value === 'object'
        ? { ...value, ...source }
        : value,
    ),
  );
}

/** A predefined selection with an intersect line (l1: a3, a12, a25, a99) and a complement line (l2: a12); returns it. */
async function makeTemplate() {
  const m = await draft();
  const query = {
    and: [
      { intersect: { id: 'l1', name: 'klanten.csv', fields: ['gen_id'] } },
      { not: { or: [{ complement: { id: 'l2', name: 'uitsluiten.csv', fields: ['gen_id'] } }] } },
    ],
  };
  const id = (await t.api('POST', m.url, { query, description: 'Sjabloon', ...open })).json().selectionId;
  const url = `${m.url}/${id}`;
  await uploadLine(url, 'l1', emails(3, 12, 25, 99));
  // NOT (complement a12) keeps only a12 of the intersect: a12 is in A and B, counted in A (sort 1).
  await uploadLine(url, 'l2', emails(12));
  expect((await t.api('PUT', url, { preDefined: true })).statusCode).toBe(200);
  const pre = (await t.api('GET', '/api/pre-queries')).json() as {
    _id: string;
    mailings: { _id: string; selections: { _id: string; query: unknown }[] }[];
  }[];
  const listed = pre.find((c) => c._id === m.campaignId)?.mailings[0].selections.find((s) => s._id === id);
  expect(listed).toBeDefined();
  return {
    ...m,
    id,
    url,
    query: listed!.query,
    source: { selection: id, campaign: m.campaignId, mailing: m.mailingId },
  };
}

describe('a template with a file line used in another mailing', () => {
  it('counts the same as the template: its line files are copied with its tree', async () => {
    const template = await makeTemplate();
    const onTemplate = await counted(template.url);
    expect(onTemplate).toEqual([[a.datasetId, 1]]);

    const other = await draft();
    // Before it is saved, the builder's live count reads the template's files as the save will copy them.
    const live = await t.api('POST', `${other.url}/live-count`, {
      query: fromTemplate(template.query, template.source),
      ...open,
    });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().count.rows.map((r: ResultRow) => [r.dataset.id, r.total])).toEqual(onTemplate);
    const created = await t.api('POST', other.url, {
      query: fromTemplate(template.query, template.source),
      ...open,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().selectionId;
    expect(await counted(`${other.url}/${id}`)).toEqual(onTemplate);

    // The copy is the selection's own: the template's later upload does not change it.
    await uploadLine(template.url, 'l2', emails(3, 25));
    expect(await counted(template.url)).toEqual([
      [a.datasetId, 1],
      [b.datasetId, 1],
    ]);
    expect(await counted(`${other.url}/${id}`)).toEqual(onTemplate);
  });

  it('takes a template applied to an existing selection by a later save, and another template’s file when the source changes', async () => {
    const first = await makeTemplate();
    const other = await draft();
    const id = (await t.api('POST', other.url, { query: { and: [] }, ...open })).json().selectionId;
    const url = `${other.url}/${id}`;
    const put = await t.api('PUT', url, { query: fromTemplate(first.query, first.source) });
    expect(put.statusCode, put.body).toBe(200);
    expect(await counted(url)).toEqual([[a.datasetId, 1]]);

    // A second template with the same line ids and other files: applying it replaces the copies.
    const second = await makeTemplate();
    await uploadLine(second.url, 'l1', emails(25, 26));
    await uploadLine(second.url, 'l2', emails(1));
    await t.api('PUT', url, { query: fromTemplate(second.query, second.source) });
    expect(await counted(url)).toEqual([]);
    await t.api('PUT', url, {
      query: fromTemplate(
        { intersect: { id: 'l1', name: 'klanten.csv', fields: ['gen_id'] } },
        second.source,
      ),
    });
    expect(await counted(url)).toEqual([[b.datasetId, 2]]);

    // A save with the same source keeps the selection's own upload of that line.
    await uploadLine(url, 'l1', emails(4));
    await t.api('PUT', url, {
      description: 'bewerkt',
      query: fromTemplate(
        { intersect: { id: 'l1', name: 'klanten.csv', fields: ['gen_id'] } },
        second.source,
      ),
    });
    expect(await counted(url)).toEqual([[a.datasetId, 1]]);
  });

  it('names a line that has no file, and a field its file lacks, with what to do', async () => {
    const other = await draft();
    // A template line from a selection that has no file for it: the save is allowed (the builder
    // uploads after saving), the run names the line.
    const empty = await draft();
    const source = (await t.api('POST', empty.url, { query: { and: [] }, ...open })).json().selectionId;
    const query = {
      and: [
        { match: { postcode: '10*' } },
        {
          or: [
            { match: { postcode: '99*' } },
            {
              not: {
                complement: {
                  id: 'l7',
                  name: 'uitsluiten.csv',
                  fields: ['gen_id'],
                  selection: source,
                  campaign: empty.campaignId,
                  mailing: empty.mailingId,
                },
              },
            },
          ],
        },
      ],
    };
    const created = await t.api('POST', other.url, { query, ...open });
    expect(created.statusCode, created.body).toBe(200);
    const url = `${other.url}/${created.json().selectionId}`;
    const run = await t.api('GET', `${url}/query`);
    expect(run.statusCode).toBe(400);
    expect(run.json().message).toBe(
      'Regel 3 (Bestand uitsluiten uitsluiten.csv op E-mailadres) heeft geen bestand. Bewerk die regel, kies het .csv-bestand en sla de selectie opnieuw op.',
    );

    await uploadLine(url, 'l7', emails(5));
    expect((await t.api('GET', `${url}/query`)).statusCode).toBe(200);
    await t.api('PUT', url, {
      query: { intersect: { id: 'l7', name: 'uitsluiten.csv', fields: ['postcode'] } },
    });
    const field = await t.api('GET', `${url}/query`);
    expect(field.statusCode).toBe(400);
    expect(field.json().message).toBe(
      'Regel 1 (Bestandsmatch uitsluiten.csv op Postcode) vergelijkt op Postcode, maar het bestand van die regel heeft die kolom niet. Bewerk die regel en kies het bestand opnieuw, met een kolom gekoppeld aan Postcode.',
    );
  });
});
