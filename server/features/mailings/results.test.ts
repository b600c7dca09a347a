import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MailingMessages } from '../../../common/mailings';
import { setupTestApp } from '../../test/app';
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

async function importResults(campaign: string, mailing: string, content: string) {
  const res = await upload(campaign, mailing, content);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task.result;
}

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
    expect(result).toEqual({ read: 12, saved: 6, unchanged: 1, skipped: 5 });
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
    expect(again).toEqual({ read: 12, saved: 0, unchanged: 7, skipped: 5 });
    // Nothing was written again: the addresses' row versions are the same.
    expect(await engagement(ids)).toEqual(rows);
    const stored = await t.database.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_results WHERE mailing_id = ${m._id}`,
    );
    expect(stored.rows[0].n).toBe(6);
  });

  it('reads only real dates in the two shapes (leap days, month ends, hours) and skips the rest', async () => {
    const c = await makeCampaign(t, t.cookie);
    const tag = Math.random().toString(36).slice(2, 8);
    const emails = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}.${tag}@voorbeeld.nl`);
    const ids = await makeAddresses(t, emails.length, emails);
    const m = await makeMailing(t, t.cookie, c);
    await allocate(t, m._id, ids);
    const dates = [
      // read: [row, expected UTC instant]
      ['29-02-2032', '2032-02-28T23:00:00'],
      ['2000-02-29 23:59:59', '2000-02-29T22:59:59'],
      [' 31-12-2030 00:00:00 ', '2030-12-30T23:00:00'],
      ['2030-07-31 12:00:00', '2030-07-31T10:00:00'],
      ['2030-04-30', '2030-04-29T22:00:00'],
      ['0001-01-01', null],
    ];
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
      '2030-1-01',
      '2030-01-01T10:00:00',
      '01/02/2030',
      '2030-01-01 10:00',
      '',
    ];
    const file = [
      'email,event,date',
      ...dates.map(([date], i) => `${emails[i]},click,${date}`),
      ...skipped.map((date) => `${emails[0]},open,${date}`),
    ].join('\n');
    const result = await importResults(c, m._id, file);
    expect(result).toEqual({
      read: dates.length + skipped.length,
      saved: dates.length,
      unchanged: 0,
      skipped: skipped.length,
    });
    const rows = await engagement(ids);
    for (const [i, [, at]] of dates.entries()) if (at) expect(rows[i].last_click_at).toBe(at);
    // Year 1 is a real year: stored, whatever its offset then.
    expect(rows[5].last_click_at).not.toBeNull();
    expect(rows[0].last_open_at).toBeNull();
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
