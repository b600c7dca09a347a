import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { amsterdamWallClock } from '../../../common/date-math';
import { type ResultRow, SelectionFunnelSchema, SelectionMessages } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';

// GET .../selections/{id}/funnel through HTTP: per top-level line of the saved query the addresses
// its count finds for the lines up to it, with the new operators (begins with, is (not) empty, an
// age in years, not), and the last figure the total of the spec's count task.
const t = setupTestApp();
let a: ImportSetup;
let b: ImportSetup;

/** The day `years` years and `days` days before today in Amsterdam, as YYYY-MM-DD (age as people count it). */
function bornBefore(years: number, days = 0): string {
  const c = amsterdamWallClock(new Date());
  const d = new Date(Date.UTC(c.year - years, c.month - 1, c.day - days));
  return d.toISOString().slice(0, 10);
}

// a1..a20 in A (sort 1), a11..a30 in B (sort 2). Postcode 1000+i AB; odd i M, even V; city
// empty for every third; birth dates: a1 30 today, a3 30 tomorrow, a5 51 tomorrow, a7 51 today.
const births: Record<number, string> = {
  1: bornBefore(30),
  3: bornBefore(30, -1),
  5: bornBefore(51, -1),
  7: bornBefore(51),
};
const city = (i: number) => ['', 'Amsterdam', 'Den Haag'][i % 3];
const line = (i: number) =>
  `a${i}@voorbeeld.nl,${1000 + i}AB,${i % 2 ? 'M' : 'V'},${city(i)},${births[i] ?? ''}\n`;
const file = (from: number, to: number) =>
  `email,postcode,geslacht,stad,geboren\n${Array.from({ length: to - from + 1 }, (_, k) => line(from + k)).join('')}`;

beforeAll(async () => {
  const mappings = [
    columnMapping('postcode', 'postcode'),
    columnMapping('geslacht', 'gender'),
    columnMapping('stad', 'city'),
    columnMapping('geboren', 'birthDate'),
  ];
  a = await setupDataset(t, mappings, 'email');
  b = await setupDataset(t, mappings, 'email');
  await t.database.db.execute(sql`UPDATE datasets SET sort = CASE id WHEN ${a.datasetId} THEN 1 ELSE 2 END
    WHERE id IN (${a.datasetId}, ${b.datasetId})`);
  await importFile(t, t.cookie, a, file(1, 20));
  await importFile(t, t.cookie, b, file(11, 30));
});

const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };

/** A saved selection of a new draft mailing with `query`; its URL. */
async function saved(query: unknown): Promise<string> {
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  const url = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  const created = await t.api('POST', url, { query, ...open });
  expect(created.statusCode, created.body).toBe(200);
  return `${url}/${created.json().selectionId}`;
}

/** The funnel of a saved selection, checked against its contract. */
async function funnelOf(url: string) {
  const res = await t.api('GET', `${url}/funnel`);
  expect(res.statusCode, res.body).toBe(200);
  return SelectionFunnelSchema.parse(res.json());
}

/** The total of the spec's count task (GET .../query) of a saved selection. */
async function countTotal(url: string): Promise<number> {
  const res = await t.api('GET', `${url}/query`);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return (task.result as ResultRow[]).reduce((n, r) => n + r.total, 0);
}

describe('GET .../selections/{id}/funnel', () => {
  it('counts the addresses left after each top-level line, the last the count task total', async () => {
    const url = await saved({
      and: [
        { startsWith: { postcode: '100' } },
        { match: { gender: 'M' } },
        { empty: { city: false } },
        { not: { includes: { city: 'HAAG' } } },
      ],
    });
    const funnel = await funnelOf(url);
    // a1..a9; odd: 1, 3, 5, 7, 9; with a city: 1, 5, 7; not Den Haag: 1, 7.
    expect(funnel).toEqual({
      query: 'postcode:100* AND gender:M AND city:[* TO *] AND NOT city:*HAAG*',
      total: 2,
      lines: [
        { query: 'postcode:100*', remaining: 9 },
        { query: 'gender:M', remaining: 5 },
        { query: 'city:[* TO *]', remaining: 3 },
        { query: 'NOT city:*HAAG*', remaining: 2 },
      ],
    });
    expect(await countTotal(url)).toBe(2);
  });

  it('counts an age in whole years to the day, and an address once over its two datasets', async () => {
    const url = await saved({ and: [{ match: { gender: 'M' } }, { age: { birthDate: [30, 50] } }] });
    const funnel = await funnelOf(url);
    // 15 odd addresses (a11..a19 in both datasets, counted once); 30 to 50 today: a1 and a5.
    expect(funnel.lines.map((l) => l.remaining)).toEqual([15, 2]);
    expect(funnel.total).toBe(2);
    const empty = await funnelOf(await saved({ and: [{ empty: { city: true } }] }));
    expect(empty).toMatchObject({ total: 10, lines: [{ remaining: 10 }] });
  });

  it('has no lines for the empty query and one for a root that is no and; 404 for an unknown selection', async () => {
    expect(await funnelOf(await saved({ and: [] }))).toEqual({ query: '*:*', total: 30, lines: [] });
    const or = await funnelOf(
      await saved({ or: [{ match: { gender: 'V' } }, { match: { postcode: '1001AB' } }] }),
    );
    expect(or.lines).toEqual([{ query: 'gender:V OR postcode:1001AB', remaining: 16 }]);
    const url = await saved({ and: [] });
    const missing = await t.api('GET', `${url.replace(/[^/]+$/, 'onbekend')}/funnel`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(SelectionMessages.notFound);
  });
});
