import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MailingMessages } from '../../../common/mailings';
import {
  RESULT_SKIP_REASONS,
  type ResultSkipReason,
  SKIP_REASON_LABELS,
  SKIPPED_ROWS_KEPT,
} from '../../../common/skipped-rows';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { allocate, makeAddresses, makeCampaign, makeMailing } from './mailing.test-helpers';

const t = setupTestApp();

function upload(campaign: string, mailing: string, content: string) {
  const body = multipartBody({}, { name: 'resultaten.csv', content });
  return t.app.inject({
    method: 'POST',
    url: `/api/campaigns/${campaign}/mailings/${mailing}/results`,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
}

/** Imports a results file; returns the task's result, its skipped rows per reason checked to add up. */
async function importResults(campaign: string, mailing: string, content: string) {
  return (await importResultsTask(campaign, mailing, content)).result;
}

async function importResultsTask(campaign: string, mailing: string, content: string) {
  const res = await upload(campaign, mailing, content);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  const by = task.result.skippedBy as Record<ResultSkipReason, number>;
  expect(Object.keys(by).sort()).toEqual([...RESULT_SKIP_REASONS].sort());
  expect(
    RESULT_SKIP_REASONS.reduce((n, r) => n + by[r], 0),
    'skipped rows per reason',
  ).toBe(task.result.skipped);
  return task as { _id: string; result: Record<string, unknown> };
}

/** The skipped-rows download of a task as rows (header first), read past its BOM. */
async function skippedCsv(taskId: string, format = ''): Promise<string[][]> {
  const res = await t.api('GET', `/api/tasks/${taskId}/skipped${format}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return parse(csvBody(res), { delimiter: format.includes('excel') ? ';' : ',' }) as string[][];
}

/** A download's line: the file line, the reason in Dutch, the e-mail as in the file. */
const line = (fileLine: number, reason: ResultSkipReason, email: string) => [
  String(fileLine),
  SKIP_REASON_LABELS[reason],
  email,
];
const none = { invalid: 0, notInMailing: 0, unknownEvent: 0, invalidDate: 0 };

const iso = (c: string) => sql.raw(`to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS ${c}`);
const engagement = async (ids: number[]) =>
  (
    await t.database.db.execute(sql`
      SELECT xmin::text AS version, email, ${iso('last_open_at')}, ${iso('last_click_at')}, ${iso('hard_bounced_at')}, os, open_interests,
        click_interests FROM addresses WHERE id IN ${ids} ORDER BY id`)
  ).rows;

describe('POST .../results', () => {
  it('stores the events of the mailing’s addresses and updates their engagement, idempotently', async () => {
    const c = await makeCampaign(t, t.cookie);
    const tag = Math.random().toString(36).slice(2, 8);
    const emails = ['an', 'bo', 'cor', 'dirk'].map((n) => `${n}.${tag}@voorbeeld.nl`);
    const ids = await makeAddresses(t, 4, emails);
    const outsider = `buiten.${tag}@voorbeeld.nl`;
    await makeAddresses(t, 1, [outsider]);
    const m = await makeMailing(t, t.cookie, c, { interests: ['Reizen', 'Koken'] });
    await allocate(t, m._id, ids);
    // Earlier interests and os stay; the new ones are added once.
    await t.database.db.execute(
      sql`UPDATE addresses SET os = '{iOS}', open_interests = '{Koken}' WHERE id = ${ids[0]}`,
    );
    const file = [
      'Email;Event;Date;OS',
      `${emails[0].toUpperCase()};open;2030-01-10 08:00:00;Android`,
      `${emails[0]};open;10-01-2030 09:15:00;iOS`,
      `${emails[0]};click;2030-01-10 09:16:00;`,
      `${emails[1]};hardBounce;11-01-2030;`,
      `${emails[1]};softbounce;2030-01-11 00:00:00;`,
      `${emails[2]};rejected;2030-01-12;`,
      `${emails[2]};opened;2030-01-12;`,
      `${emails[2]};open;2030-02-30 10:00:00;`,
      `${emails[2]};open;gisteren;`,
      `${outsider};open;2030-01-12;`,
      `onbekend.${tag}@voorbeeld.nl;open;2030-01-12;`,
      `${emails[0]};open;2030-01-10 08:00:00;Android`,
    ].join('\r\n');
    const result = await importResults(c, m._id, file);
    expect(result).toEqual({
      read: 12,
      saved: 6,
      unchanged: 1,
      skipped: 5,
      skippedBy: { invalid: 0, notInMailing: 2, unknownEvent: 1, invalidDate: 2 },
    });
    const rows = await engagement(ids);
    expect(rows[0]).toMatchObject({
      last_open_at: '2030-01-10T08:15:00',
      last_click_at: '2030-01-10T08:16:00',
      hard_bounced_at: null,
      os: ['iOS', 'Android'],
      open_interests: ['Koken', 'Reizen'],
      click_interests: ['Reizen', 'Koken'],
    });
    expect(rows[1]).toMatchObject({
      hard_bounced_at: '2030-01-10T23:00:00',
      last_open_at: null,
      open_interests: [],
    });
    expect(rows[2]).toMatchObject({ last_open_at: null, hard_bounced_at: null });
    const view = (await t.api('GET', `/api/campaigns/${c}/mailings/${m._id}`)).json();
    expect(view.results).toEqual({ opens: 1, clicks: 1, bounces: 1 });

    const again = await importResults(c, m._id, file);
    expect(again).toMatchObject({ read: 12, saved: 0, unchanged: 7, skipped: 5 });
    // Nothing was written again: the addresses' row versions are the same.
    expect(await engagement(ids)).toEqual(rows);
    const stored = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_results WHERE mailing_id = ${m._id}`,
    );
    expect(stored.rows[0].n).toBe(6);
  });

  it('reads real dates in every form the import knows (ISO, DD-MM-YYYY, DD/MM/YYYY, with or without time) in Dutch time', async () => {
    const dates: [string, string][] = [
      // [date in the file, the stored instant in UTC]
      ['28-11-2026 11:24', '2026-11-28T10:24:00'],
      ['28-11-2026 11:24:05', '2026-11-28T10:24:05'],
      ['28/11/2026 11:24', '2026-11-28T10:24:00'],
      ['28/11/2026', '2026-11-27T23:00:00'],
      ['2026-11-28 11:24', '2026-11-28T10:24:00'],
      ['2026-11-28T11:24:05', '2026-11-28T10:24:05'],
      ['2026-07-01T09:30', '2026-07-01T07:30:00'],
      ['1-7-2026 9:05', '2026-07-01T07:05:00'],
      ['2030-1-01', '2029-12-31T23:00:00'],
      ['29-02-2032', '2032-02-28T23:00:00'],
      ['2000-02-29 23:59:59', '2000-02-29T22:59:59'],
      [' 31-12-2030 00:00:00 ', '2030-12-30T23:00:00'],
      ['\t2030-07-31 12:00:00\u00a0', '2030-07-31T10:00:00'],
      ['2030-04-30', '2030-04-29T22:00:00'],
    ];
    const c = await makeCampaign(t, t.cookie);
    const tag = Math.random().toString(36).slice(2, 8);
    const emails = [...dates.map((_, i) => `d${i}.${tag}@voorbeeld.nl`), `jaar1.${tag}@voorbeeld.nl`];
    const ids = await makeAddresses(t, emails.length, emails);
    const m = await makeMailing(t, t.cookie, c);
    await allocate(t, m._id, ids);
    const skipped = [
      '29-02-2031',
      '1900-02-29',
      '2030-04-31',
      '2030-13-01',
      '00-01-2030',
      '0000-01-01',
      '2030-01-01 24:00:00',
      '2030-01-01 10:60:00',
      '2030-01-01 10:00:60',
      '28.11.2026',
      '2030/01/01',
      '28-11/2026',
      '28-11-26',
      '2030-01-01T10:00:00Z',
      '',
    ];
    const file = [
      'email;event;date',
      ...dates.map(([date], i) => `${emails[i]};click;${date}`),
      `${emails.at(-1)};click;0001-01-01`,
      ...skipped.map((date) => `${emails[0]};open;${date}`),
    ].join('\n');
    const result = await importResults(c, m._id, file);
    expect(result).toEqual({
      read: dates.length + 1 + skipped.length,
      saved: dates.length + 1,
      unchanged: 0,
      skipped: skipped.length,
      skippedBy: { ...none, invalidDate: skipped.length },
    });
    const rows = await engagement(ids);
    expect(rows.slice(0, dates.length).map((r, i) => [dates[i][0], r.last_click_at])).toEqual(dates);
    // Year 1 is a real year: stored, whatever its offset then.
    expect(rows.at(-1)?.last_click_at).not.toBeNull();
    expect(rows[0].last_open_at).toBeNull();
  });

  it('records every skipped row with its reason, counts them per reason, and downloads them as the imports do', async () => {
    const c = await makeCampaign(t, t.cookie);
    const tag = Math.random().toString(36).slice(2, 8);
    const [an, bo] = ['an', 'bo'].map((n) => `${n}.${tag}@voorbeeld.nl`);
    const ids = await makeAddresses(t, 2, [an, bo]);
    const outsider = `buiten.${tag}@voorbeeld.nl`;
    await makeAddresses(t, 1, [outsider]);
    const m = await makeMailing(t, t.cookie, c);
    await allocate(t, m._id, ids);
    const file = [
      'Email,Event,Date,OS', // line 1
      `${an},open,28-11-2026 11:24,iOS`, // 2 stored
      ',open,28-11-2026 11:24,', // 3 no e-mail
      `${outsider},open,2026-11-28,`, // 4 not in the mailing
      `Onbekend.${tag}@voorbeeld.nl,gelezen,gisteren,`, // 5 not in the mailing (the first reason)
      `${bo},geopend,2026-11-28,`, // 6 unknown event
      `  ${bo.toUpperCase()} ,click,31-11-2026,`, // 7 no real date
      `${bo},click`, // 8 no date at all (a short row)
      `${an},open,28-11-2026 11:24,iOS`, // 9 a repeat: unchanged, not skipped
    ].join('\r\n');
    const task = await importResultsTask(c, m._id, file);
    expect(task.result).toEqual({
      read: 8,
      saved: 1,
      unchanged: 1,
      skipped: 6,
      skippedBy: { invalid: 1, notInMailing: 2, unknownEvent: 1, invalidDate: 2 },
    });
    const expected = [
      ['regel', 'reden', 'email'],
      line(3, 'invalid', ''),
      line(4, 'notInMailing', outsider),
      line(5, 'notInMailing', `Onbekend.${tag}@voorbeeld.nl`),
      line(6, 'unknownEvent', bo),
      line(7, 'invalidDate', `  ${bo.toUpperCase()} `),
      line(8, 'invalidDate', bo),
    ];
    expect(await skippedCsv(task._id)).toEqual(expected);
    expect(await skippedCsv(task._id, '?format=excel')).toEqual(expected);
    // The task list carries the counts for the /tasks card.
    const listed = ((await t.api('GET', '/api/tasks')).json() as { _id: string; result: unknown }[]).find(
      (x) => x._id === task._id,
    );
    expect(listed?.result).toMatchObject({ skippedBy: task.result.skippedBy });

    // A file without skipped rows: zero per reason, an empty download.
    const clean = await importResultsTask(c, m._id, `email,event,date\n${an},click,2026-11-28 12:00\n`);
    expect(clean.result).toEqual({ read: 1, saved: 1, unchanged: 0, skipped: 0, skippedBy: none });
    expect(await skippedCsv(clean._id)).toEqual([['regel', 'reden', 'email']]);
  });

  it('counts all skipped rows but keeps the first 10,000 for the download', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const n = SKIPPED_ROWS_KEPT + 3;
    const file = `email,event,date\n${Array.from({ length: n }, (_, i) => `r${i}@voorbeeld.nl,open,2026-11-28\n`).join('')}`;
    const task = await importResultsTask(c, m._id, file);
    expect(task.result).toMatchObject({
      read: n,
      saved: 0,
      skipped: n,
      skippedBy: { ...none, notInMailing: n },
    });
    const csv = await skippedCsv(task._id);
    expect(csv).toHaveLength(SKIPPED_ROWS_KEPT + 1);
    expect(csv[1]).toEqual(line(2, 'notInMailing', 'r0@voorbeeld.nl'));
    expect(csv.at(-1)).toEqual(
      line(SKIPPED_ROWS_KEPT + 1, 'notInMailing', `r${SKIPPED_ROWS_KEPT - 1}@voorbeeld.nl`),
    );
  });

  it('keeps one os list per address, sorted where several arrive at once, and deletes a mailing’s results with it', async () => {
    const c = await makeCampaign(t, t.cookie);
    const tag = Math.random().toString(36).slice(2, 8);
    const emails = ['p', 'q'].map((n) => `${n}.${tag}@voorbeeld.nl`);
    const ids = await makeAddresses(t, 2, emails);
    const m = await makeMailing(t, t.cookie, c);
    await allocate(t, m._id, ids);
    const file = [
      'email,event,date,os',
      `${emails[0]},open,2030-01-10 08:00:00,Windows`,
      `${emails[0]},open,2030-01-10 08:01:00,Android`,
      `${emails[0]},click,2030-01-10 08:02:00,Windows`,
      `${emails[0]},click,2030-01-10 08:03:00,`,
      `${emails[1]},open,2030-01-10 08:00:00,`,
    ].join('\n');
    await importResults(c, m._id, file);
    const rows = await engagement(ids);
    expect(rows[0].os).toEqual(['Android', 'Windows']);
    expect(rows[1].os).toEqual([]);
    const count = async () =>
      (
        await t.database.db.execute(
          sql`SELECT count(*)::int AS n FROM mailing_results WHERE mailing_id = ${m._id}`,
        )
      ).rows[0].n;
    expect(await count()).toBe(5);
    expect((await t.api('DELETE', `/api/campaigns/${c}/mailings/${m._id}`)).statusCode).toBe(200);
    expect(await count()).toBe(0);
    // A campaign's deletion cascades to its mailings, and so to their results.
    const m2 = await makeMailing(t, t.cookie, c);
    await allocate(t, m2._id, ids);
    await importResults(c, m2._id, file);
    expect((await t.api('DELETE', `/api/campaigns/${c}`)).statusCode).toBe(200);
    const left = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_results WHERE mailing_id = ${m2._id}`,
    );
    expect(left.rows[0].n).toBe(0);
  });

  it('refuses a file without email, event or date columns, failing its task, and 404 for an unknown mailing', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c);
    const res = await upload(c, m._id, 'email,datum\nx@voorbeeld.nl,2030-01-01\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MailingMessages.resultsColumns);
    const tasks = (await t.api('GET', '/api/tasks')).json() as { type: string; state: string }[];
    expect(tasks.filter((x) => x.type === 'mailing-results').map((x) => x.state)).toContain('failed');
    const none = await upload(c, 'bestaatniet', 'email,event,date\n');
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(MailingMessages.notFound);
  });
});
