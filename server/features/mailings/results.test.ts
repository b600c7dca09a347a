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
