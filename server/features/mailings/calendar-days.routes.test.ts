import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ResultRow } from '../../../common/selections';
import { pgTextArray } from '../../lib/pg-array';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { allocate, makeCampaign, makeMailing } from './mailing.test-helpers';

// DESIGN §7: calendar dates are days of the Dutch calendar and pressure weeks are Dutch weeks,
// whatever the zone of the server process or of its database sessions. This file runs the server
// in New York and its database sessions in a zone whose date differs from Amsterdam's right now
// (set before anything is imported or connected), with planned sends next to an Amsterdam midnight.

const zones = vi.hoisted(() => {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Amsterdam',
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(new Date()),
  );
  // Pago Pago (UTC-11) is a day behind Amsterdam before noon there, Kiritimati (UTC+14) a day ahead after.
  const session = hour < 12 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
  const before = { tz: process.env.TZ, options: process.env.PGOPTIONS };
  process.env.TZ = 'America/New_York';
  process.env.PGOPTIONS = `-c TimeZone=${session}`;
  return { session, before };
});

const t = setupTestApp();
let ds: ImportSetup;
const ids = new Map<string, number>();

beforeAll(async () => {
  ds = await setupDataset(t, [columnMapping('postcode', 'postcode')], 'email');
  await importFile(
    t,
    t.cookie,
    ds,
    `email,postcode\n${[1, 2, 3, 4].map((i) => `d${i}@voorbeeld.nl,10${i}0AB`).join('\n')}\n`,
  );
  const { rows } = await t.db.execute<{ id: number; email: string }>(
    sql`SELECT id, email FROM addresses WHERE email = ANY(${pgTextArray([1, 2, 3, 4].map((i) => `d${i}@voorbeeld.nl`))}::text[])`,
  );
  for (const r of rows) ids.set(r.email.slice(0, 2), Number(r.id));
});
afterAll(() => {
  // process.env turns undefined into 'undefined': a variable that was not set is removed again.
  for (const [name, value] of [
    ['TZ', zones.before.tz],
    ['PGOPTIONS', zones.before.options],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const address = (...names: string[]) => names.map((n) => ids.get(n)!);
const mailingUrl = (c: string, m: string) => `/api/campaigns/${c}/mailings/${m}`;
/** Settings that leave only the pressure rule to decide. */
const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false };

/** Creates a selection of everything in a draft and counts it; returns its rows. */
async function countAll(c: string, m: string, useDate: boolean): Promise<ResultRow[]> {
  const url = `${mailingUrl(c, m)}/selections`;
  const created = await t.api('POST', url, { query: { and: [] }, ...open, useDate });
  expect(created.statusCode, created.body).toBe(200);
  const run = await t.api('GET', `${url}/${created.json().selectionId}/query`);
  expect(run.statusCode, run.body).toBe(200);
  const task = await waitForTask(t, t.cookie, run.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task.result as ResultRow[];
}

describe('with the server in New York and its database sessions in another zone', () => {
  it('really runs there', async () => {
    const { rows } = await t.db.execute<{ zone: string }>(sql`SELECT current_setting('TimeZone') AS zone`);
    expect(rows[0].zone).toBe(zones.session);
  });

  it('keeps pressure weeks Dutch next to midnight: Sunday 23:30 and Monday 00:30 in Amsterdam are two weeks', async () => {
    const c = await makeCampaign(t, t.cookie);
    const sunday = await makeMailing(t, t.cookie, c, { plannedSend: '2026-11-29T22:30:00Z' }); // Sun 29-11 23:30
    const monday = await makeMailing(t, t.cookie, c, { plannedSend: '2026-11-29T23:30:00Z' }); // Mon 30-11 00:30
    const nextSunday = await makeMailing(t, t.cookie, c, { plannedSend: '2026-12-06T22:30:00Z' }); // Sun 6-12 23:30
    await allocate(t, sunday._id, address('d1'), { datasetId: ds.datasetId });
    await allocate(t, monday._id, address('d1', 'd2'), { datasetId: ds.datasetId });
    await allocate(t, nextSunday._id, address('d2'), { datasetId: ds.datasetId });

    expect((await t.api('PUT', mailingUrl(c, sunday._id), { name: 'zo', state: 'final' })).statusCode).toBe(
      200,
    );
    const mon = await t.api('PUT', mailingUrl(c, monday._id), { name: 'ma', state: 'final' });
    expect(mon.statusCode, mon.body).toBe(200);
    // The next Sunday is Monday's week: d2 is held already.
    expect((await t.api('GET', `${mailingUrl(c, nextSunday._id)}/pressure`)).json()).toEqual({
      new: 1,
      none: 0,
      opened: 0,
      clicked: 0,
    });
    const next = await t.api('PUT', mailingUrl(c, nextSunday._id), { name: 'zo2', state: 'final' });
    expect(next.statusCode).toBe(409);
    expect(next.json()).toMatchObject({ new: 1 });

    const pressure = (await t.api('GET', '/api/pressure')).json() as { date: string; count: number }[];
    expect(pressure.filter((e) => e.date.startsWith('2026-1'))).toEqual([
      { date: '2026-11-29', count: 1 },
      { date: '2026-11-30', count: 2 },
    ]);

    // The selection engine's weeks (useDate, the Monday after the planned send): a draft of the
    // next Sunday leaves out d1 and d2 (Monday's mailing), one of Sunday the 29th only d1.
    const total = (rows: ResultRow[]) => rows.filter((r) => !r.saved).reduce((n, r) => n + r.total, 0);
    expect(total(await countAll(c, nextSunday._id, true))).toBe(2);
    const sundayDraft = await makeMailing(t, t.cookie, c, { plannedSend: '2026-11-29T22:45:00Z' });
    expect(total(await countAll(c, sundayDraft._id, true))).toBe(3);
    expect(total(await countAll(c, sundayDraft._id, false))).toBe(4);
  });

  it('stores a planned send of 02-12-2026 as that day in Amsterdam and uses that day', async () => {
    const c = await makeCampaign(t, t.cookie);
    const m = await makeMailing(t, t.cookie, c, { plannedSend: '2026-12-02' });
    expect(m.plannedSend).toBe('2026-12-01T23:00:00.000Z');
    const late = await makeMailing(t, t.cookie, c, { plannedSend: '2026-12-02T23:30' });
    expect(late.plannedSend).toBe('2026-12-02T22:30:00.000Z');

    // The participation factor valid on the send day 02-12-2026 only.
    const rate = await t.api('POST', `/api/datasets/${ds.partnerId}/${ds.datasetId}/participation`, {
      start: '2026-12-02',
      end: '2026-12-02',
      factor: 2,
    });
    expect(rate.json()).toMatchObject({ start: '2026-12-02', end: '2026-12-02' });
    const rows = await countAll(c, m._id, false);
    expect(rows.map((r) => r.dataset.factor)).toEqual([2]);

    // A pressure date sent as an instant is its day in Amsterdam.
    const url = `${mailingUrl(c, m._id)}/selections`;
    const s = (await t.api('GET', url)).json()[0]._id;
    const put = await t.api('PUT', `${url}/${s}`, { pressure: { age: '2026-12-06T23:30:00Z' } });
    expect(put.json().pressure).toEqual({ age: '2026-12-07' });
  });

  it('keeps a campaign start as written, and “the last N days” counts from today in Amsterdam', async () => {
    const day = (offset: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(
        new Date(Date.now() + offset * 86_400_000),
      );
    const today = day(0);
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
    const made = async (name: string, start: string) => {
      const res = await t.api('POST', '/api/campaigns', { name, start });
      expect(res.json().start).toBe(start);
      return res.json()._id as string;
    };
    const fixed = await made('Vast', '2026-12-02');
    expect((await t.api('GET', `/api/campaigns/${fixed}`)).json().start).toBe('2026-12-02');
    const ofToday = await made('Vandaag', today);
    const ofYesterday = await made('Gisteren', yesterday);
    const listed = async (days: number) =>
      ((await t.api('GET', `/api/campaigns?days=${days}`)).json() as { _id: string }[]).map((x) => x._id);
    expect(await listed(0)).toContain(ofToday);
    expect(await listed(0)).not.toContain(ofYesterday);
    expect(await listed(1)).toContain(ofYesterday);
  });
});
