import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CountAnswer, CountMessages, type CountRow } from '../../../common/counts';
import { setupTestApp, type TestClient } from '../../test/app';
import { categoryOf, type World } from '../selections/evaluator.test-helpers';
import { markingSelDirty } from '../selections/sel-dirty.sql';
import { drainSelDirty, markSelDirtyRecords } from '../selections/sel-record.sql';
import { insertWorld, makeWorld } from '../selections/world.test-helpers';
import { COUNT_DIRTY_LIMIT } from './count.queries';

// The refresher runs only when a test drains sel_dirty, so each state below is the one its test made:
// every address dirty (counted from records), all refreshed (the counters of the narrow tables),
// some changed and not yet refreshed, and more dirty addresses than a count reads from records.
const t = setupTestApp({ startWorker: false, config: { selRefresher: false } });
let world: World;
beforeAll(async () => {
  world = makeWorld(77);
  // Two addresses in every dataset (more than three records: grouped by address in a count).
  for (const a of world.addresses.slice(0, 2)) {
    for (const d of world.datasets) {
      if (!world.records.some((r) => r.addressId === a.id && r.datasetId === d.id))
        world.records.push({ datasetId: d.id, addressId: a.id, attrs: {} });
    }
  }
  await insertWorld(t.db, world);
  // An empty dataset shows with zeros; a participation entry valid today gives its factor.
  await t.db.execute(sql`INSERT INTO datasets (id, partner_id, name, sort, config)
    VALUES ('leeg', ${world.datasets[0].partnerId}, 'leeg', 99, '{}')`);
  await t.db.execute(sql`INSERT INTO dataset_participations (id, dataset_id, start, "end", factor)
    VALUES ('p1', ${world.datasets[0].id}, current_date - 1, current_date + 1, 1.25)`);
});

type WorldAddress = World['addresses'][number];
type WorldDataset = World['datasets'][number];
const addressOf = (id: number) => world.addresses.find((x) => x.id === id) as WorldAddress;

// Independent of the SQL: a record counts in its dataset unless its address bounced hard and, with
// the blacklist, unless its e-mail or domain is blacklisted or its partner entry names that dataset.
function recordCounts(a: WorldAddress, d: WorldDataset, useBlacklist: boolean): boolean {
  if (a.hardBouncedAt) return false;
  if (useBlacklist) {
    if (world.blacklistEmails.includes(a.email) || world.blacklistDomains.includes(a.domain)) return false;
    if (
      world.partnerBlacklist.some(
        (p) => p.partnerId === d.partnerId && p.datasetName === d.name && p.email === a.email,
      )
    )
      return false;
  }
  return true;
}

// Each dataset's records by category. minMailings is the default 1.
function expected(useBlacklist: boolean): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const d of world.datasets) out.set(d.id, { new: 0, notOpenedOrClicked: 0, opens: 0, clicks: 0 });
  for (const r of world.records) {
    const a = addressOf(r.addressId);
    const d = world.datasets.find((x) => x.id === r.datasetId) as WorldDataset;
    if (!recordCounts(a, d, useBlacklist)) continue;
    (out.get(d.id) as Record<string, number>)[categoryOf(a, 1)]++;
  }
  return out;
}

// The unique row: each address once, in its category, when one of its records counts.
function expectedUnique(useBlacklist: boolean): Record<string, number> {
  const out: Record<string, number> = { new: 0, notOpenedOrClicked: 0, opens: 0, clicks: 0, total: 0 };
  for (const a of world.addresses) {
    const counted = world.records.some(
      (r) =>
        r.addressId === a.id &&
        recordCounts(a, world.datasets.find((x) => x.id === r.datasetId) as WorldDataset, useBlacklist),
    );
    if (!counted) continue;
    out[categoryOf(a, 1)]++;
    out.total++;
  }
  return out;
}

async function counts(query: string): Promise<CountRow[]> {
  const res = await t.api('GET', `/api/count${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every dataset's row and the unique row of GET /api/count?unique=true against the evaluator. */
async function expectCountsAsTheRulesSay(): Promise<void> {
  for (const useBlacklist of [true, false]) {
    const res = await t.api('GET', `/api/count?useBlacklist=${useBlacklist}&unique=true`);
    expect(res.statusCode, res.body).toBe(200);
    const answer: CountAnswer = res.json();
    const want = expected(useBlacklist);
    for (const d of world.datasets) {
      const {
        new: n,
        notOpenedOrClicked,
        opens,
        clicks,
      } = answer.rows.find((r) => r.dataset.id === d.id) as CountRow;
      expect({ new: n, notOpenedOrClicked, opens, clicks }, `${d.id} ${useBlacklist}`).toEqual(
        want.get(d.id),
      );
    }
    expect(answer.unique, `unique ${useBlacklist}`).toEqual(expectedUnique(useBlacklist));
  }
}

const dirtyCount = async () =>
  Number(
    (
      (await t.db.execute(sql`SELECT count(DISTINCT address_id)::int AS n FROM sel_dirty`)).rows[0] as {
        n: number;
      }
    ).n,
  );

describe('GET /api/count', () => {
  it.each([
    ['', true],
    ['?useBlacklist=true', true],
    ['?useBlacklist=false', false],
  ])('%s counts each dataset by category as the rules say', async (query, useBlacklist) => {
    const rows = await counts(query);
    const want = expected(useBlacklist as boolean);
    for (const d of world.datasets) {
      const row = rows.find((r) => r.dataset.id === d.id) as CountRow;
      const w = want.get(d.id) as Record<string, number>;
      expect({
        new: row.new,
        notOpenedOrClicked: row.notOpenedOrClicked,
        opens: row.opens,
        clicks: row.clicks,
      }).toEqual(w);
      expect(row.total).toBe(w.new + w.notOpenedOrClicked + w.opens + w.clicks);
      expect(row.dataset).toMatchObject({
        name: d.name,
        partner: d.partnerId,
        active: d.active,
        sort: d.sort,
      });
    }
    expect(rows.find((r) => r.dataset.id === 'leeg')).toMatchObject({ total: 0, dataset: { factor: 1 } });
    expect(rows.find((r) => r.dataset.id === world.datasets[0].id)?.dataset.factor).toBe(1.25);
    // Sorted by dataset sort, then id.
    const order = rows.map((r) => [r.dataset.sort, r.dataset.id] as const);
    expect(order).toEqual([...order].sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1)));
  });

  it('the blacklist makes a difference in this world (the test is not vacuous)', async () => {
    const on = (await counts('')).reduce((n, r) => n + r.total, 0);
    const off = (await counts('?useBlacklist=false')).reduce((n, r) => n + r.total, 0);
    expect(off).toBeGreaterThan(on);
  });

  it('refuses a useBlacklist or unique that is not true or false', async () => {
    expect((await t.api('GET', '/api/count?useBlacklist=ja')).statusCode).toBe(400);
    expect((await t.api('GET', '/api/count?unique=ja')).statusCode).toBe(400);
  });

  it('with unique=true also answers the unique row: each address once, where the totals row adds datasets up', async () => {
    expect(await dirtyCount()).toBeGreaterThan(0);
    await expectCountsAsTheRulesSay();
    const answer: CountAnswer = (await t.api('GET', '/api/count?useBlacklist=false&unique=true')).json();
    // Not vacuous: this world has addresses in several datasets, some with more than three.
    const perAddress = new Map<number, number>();
    for (const r of world.records) perAddress.set(r.addressId, (perAddress.get(r.addressId) ?? 0) + 1);
    expect(Math.max(...perAddress.values())).toBeGreaterThan(3);
    expect(answer.unique.total).toBeLessThan(answer.rows.reduce((n, r) => n + r.total, 0));
    // The spec's list stays the answer without it.
    expect(Array.isArray((await t.api('GET', '/api/count')).json())).toBe(true);
  });

  it('counts the same from the narrow tables once they are refreshed (their counters)', async () => {
    await drainSelDirty(t.database, await t.ctx.caseCollation());
    expect(await dirtyCount()).toBe(0);
    const { rows } = await t.db.execute(sql`SELECT count(*)::int AS n FROM sel_count WHERE n > 0`);
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
    await expectCountsAsTheRulesSay();
  });

  it('counts addresses changed since the refresh (dirty, their narrow rows stale) from records', async () => {
    // A click, a hard bounce, a blacklisted e-mail (each marked by its table's trigger), a record
    // deleted and one added (marked by their writer), on addresses with one record and with several.
    const withRecords = (n: number) =>
      world.addresses.filter((a) => world.records.filter((r) => r.addressId === a.id).length === n);
    const clicked = withRecords(1).find((a) => !a.lastClickAt && !a.hardBouncedAt) as WorldAddress;
    const bounced = withRecords(2).find((a) => !a.hardBouncedAt) as WorldAddress;
    const blacklisted = withRecords(4).find((a) => !world.blacklistEmails.includes(a.email)) as WorldAddress;
    const day = new Date('2026-11-20T10:00:00Z');
    await t.db.execute(sql`UPDATE addresses SET last_click_at = ${day} WHERE id = ${clicked.id}`);
    clicked.lastClickAt = day;
    await t.db.execute(sql`UPDATE addresses SET hard_bounced_at = ${day} WHERE id = ${bounced.id}`);
    bounced.hardBouncedAt = day;
    await t.db.execute(sql`INSERT INTO blacklist_emails (email) VALUES (${blacklisted.email})`);
    world.blacklistEmails.push(blacklisted.email);
    const gone = world.records.find((r) =>
      withRecords(3).some((a) => a.id === r.addressId),
    ) as World['records'][number];
    await t.db.execute(
      markingSelDirty(sql`DELETE FROM records WHERE dataset_id = ${gone.datasetId} AND address_id = ${gone.addressId}
        RETURNING address_id, dataset_id`),
    );
    world.records.splice(world.records.indexOf(gone), 1);
    const single = withRecords(1).find((a) => a.id !== clicked.id) as WorldAddress;
    const other = world.datasets.find(
      (d) => !world.records.some((r) => r.addressId === single.id && r.datasetId === d.id),
    ) as WorldDataset;
    await t.db.execute(sql`INSERT INTO records (dataset_id, address_id, raw, attrs)
      VALUES (${other.id}, ${single.id}, '{}', '{}')`);
    await markSelDirtyRecords(t.db, sql`SELECT ${single.id}::bigint, ${other.id}::text`);
    world.records.push({ datasetId: other.id, addressId: single.id, attrs: {} });

    // The narrow rows are stale (the click not on them), and the count reads those addresses from records.
    const stale = await t.db.execute(sql`SELECT clicked FROM sel_record WHERE address_id = ${clicked.id}`);
    expect(stale.rows).toEqual([{ clicked: false }]);
    const dirty = await dirtyCount();
    expect(dirty).toBeGreaterThanOrEqual(5);
    expect(dirty).toBeLessThanOrEqual(COUNT_DIRTY_LIMIT);
    await expectCountsAsTheRulesSay();

    await drainSelDirty(t.database, await t.ctx.caseCollation());
    await expectCountsAsTheRulesSay();
  });

  it('reads every address from records while more than COUNT_DIRTY_LIMIT are dirty', async () => {
    // Marks of addresses that do not exist: the narrow rows are right, yet too many are dirty.
    await t.db.execute(sql`INSERT INTO sel_dirty (address_id)
      SELECT g FROM generate_series(900000001, ${900000001 + COUNT_DIRTY_LIMIT}) g`);
    await expectCountsAsTheRulesSay();
    await t.db.execute(sql`DELETE FROM sel_dirty WHERE address_id > 900000000`);
  });

  it('cancels its statement when the client goes away before the answer', async () => {
    // The count waits for a lock held here, so its statement is running when the client leaves; it
    // must be gone long before the statement timeout (30 s) would have ended it.
    const lock = await lockCounters(t);
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const request = http.get({
        host: '127.0.0.1',
        port,
        path: '/api/count',
        headers: { cookie: t.cookie },
      });
      request.on('error', () => {});
      await expect.poll(() => lock.running(true), { timeout: 10_000 }).toBe(1);
      request.destroy();
      await expect.poll(() => lock.running(), { timeout: 3_000 }).toBe(0);
    } finally {
      await lock.release();
    }
    // Its connection went back to the pool in order: the next count answers.
    expect((await t.api('GET', '/api/count')).statusCode).toBe(200);
  });
});

/**
 * An exclusive lock on sel_count, held in an open transaction of a connection of its own until
 * `release`, and `running`: the statements active on the app's database but its own (or only those
 * waiting for a lock), read by a third connection (a transaction reads pg_stat_activity once).
 */
async function lockCounters(app: TestClient) {
  const locker = new pg.Client({ connectionString: app.url });
  const watcher = new pg.Client({ connectionString: app.url });
  await locker.connect();
  await watcher.connect();
  await locker.query('BEGIN; LOCK TABLE sel_count IN ACCESS EXCLUSIVE MODE');
  return {
    async running(waiting = false): Promise<number> {
      const { rows } = await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
          AND state = 'active' AND pid <> pg_backend_pid() ${waiting ? `AND wait_event_type = 'Lock'` : ''}`,
      );
      return rows[0].n;
    },
    async release(): Promise<void> {
      await locker.end();
      await watcher.end();
    },
  };
}

describe('GET /api/count past the statement timeout', () => {
  const slow = setupTestApp({ startWorker: false, config: { selRefresher: false, statementTimeoutMs: 300 } });

  it('answers 503 with the Dutch message and leaves no statement running', async () => {
    const lock = await lockCounters(slow);
    try {
      const res = await slow.api('GET', '/api/count');
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(CountMessages.timeout);
      await expect.poll(() => lock.running(), { timeout: 3_000 }).toBe(0);
    } finally {
      await lock.release();
    }
    expect((await slow.api('GET', '/api/count')).statusCode).toBe(200);
  });
});
