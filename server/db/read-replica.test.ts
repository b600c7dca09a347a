import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountAnswerSchema } from '../../common/counts';
import { businessDay } from '../../common/pressure-date';
import type { ResultRow } from '../../common/selections';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import { countDatasets } from '../features/counts/count.queries';
import { makeCampaign, makeMailing } from '../features/mailings/mailing.test-helpers';
import { markSelDirty } from '../features/selections/sel-record.sql';
import { getMinMailings } from '../features/settings/settings.queries';
import { HttpError } from '../lib/http-errors';
import type { TestApp } from '../test/app';
import { makeSession } from '../test/factories';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../test/imports';
import { postgresBin, type ReplicaPair, startReplicaPair, waitForReplay } from '../test/replica.test-helpers';
import { type Database, migrateDatabase, openDatabase } from './client';
import { isReplicaFailure, type ReadRoute } from './read-replica';

// DATABASE_READ_URL against a real streaming standby (pg_basebackup -R of a primary started here,
// replica.test-helpers.ts): counts, previews and downloads read the standby once it has replayed
// the primary's position, an allocation's count is the same on both (also with addresses the
// refresher has not reached, read from records on the standby), a read while replay is paused
// reads the primary (never a stale figure) or waits for the replay, the refresher leaves the
// standby alone, and a stopped standby sends the reads to the primary.

const bin = postgresBin();
if (!bin) throw new Error('the PostgreSQL binaries (pg_basebackup) were not found: set PG_BIN');
const WAIT_MS = 1500;

let pair: ReplicaPair;
let primary: Database;
let standby: Database;
let t: TestApp;
let ctx: AppContext;
let cookie: string;
let standbyClient: pg.Client;
/** Connections the app took from the standby's pool (reads: a transaction, a COPY). */
let standbyCheckouts = 0;
/** How many of the next connections taken from the standby's pool fail (a replica gone meanwhile). */
let failStandbyConnects = 0;
let a: ImportSetup;
let b: ImportSetup;

beforeAll(async () => {
  pair = await startReplicaPair(bin);
  primary = openDatabase(pair.primaryUrl, 10);
  standby = openDatabase(pair.standbyUrl, 10);
  const connect = standby.pool.connect.bind(standby.pool);
  standby.pool.connect = ((...args: Parameters<typeof connect>) => {
    standbyCheckouts++;
    if (failStandbyConnects > 0) {
      failStandbyConnects--;
      return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1'));
    }
    return connect(...args);
  }) as typeof connect;
  await migrateDatabase(primary);
  const config = {
    ...loadConfig({}),
    databaseUrl: pair.primaryUrl,
    readDatabaseUrl: pair.standbyUrl,
    readReplicaWaitMs: WAIT_MS,
    loginRateMax: 1000,
    taskPollMs: 100,
    webDir: '/nonexistent',
    encryptionKey: crypto.randomBytes(32).toString('base64'),
  };
  const built = await buildApp({ config, database: primary, readDatabase: standby, logger: false });
  ctx = built.ctx;
  await built.app.ready();
  await ctx.tasks.start();
  t = { app: built.app, ctx, database: primary, url: pair.primaryUrl, close: async () => {} };
  cookie = (await makeSession(t.app, primary.db)).cookie;
  standbyClient = new pg.Client({ connectionString: pair.standbyUrl });
  await standbyClient.connect();

  // Two datasets, 10 addresses shared: a1..a20 in A (sort 1), a11..a30 in B (sort 2).
  const mappings = [columnMapping('postcode', 'postcode'), columnMapping('geslacht', 'gender')];
  a = await setupDataset(t, mappings, 'email');
  b = await setupDataset(t, mappings, 'email');
  await primary.db.execute(sql`UPDATE datasets SET sort = CASE id WHEN ${a.datasetId} THEN 1 ELSE 2 END
    WHERE id IN (${a.datasetId}, ${b.datasetId})`);
  await importFile(t, cookie, a, file(1, 20));
  await importFile(t, cookie, b, file(11, 30));
}, 120_000);

afterAll(async () => {
  await standbyClient?.end().catch(() => {});
  try {
    await t?.app.close();
    await ctx?.tasks.stop();
    await ctx?.readReplica?.close();
    await standby?.close();
    await primary?.close();
  } finally {
    await pair?.destroy();
  }
}, 60_000);

const line = (i: number) => `a${i}@voorbeeld.nl,${1000 + i}AB,${i % 2 ? 'M' : 'V'}\n`;
const file = (from: number, to: number) =>
  `email,postcode,geslacht\n${Array.from({ length: to - from + 1 }, (_, k) => line(from + k)).join('')}`;
const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };

const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: { cookie } });

/** The reads the replica counted so far, by route. */
async function reads(): Promise<Record<ReadRoute, number>> {
  const metric = await ctx.readReplica!.reads.get();
  const out: Record<string, number> = { replica: 0, lagging: 0, unreachable: 0, 'not-standby': 0, failed: 0 };
  for (const v of metric.values) out[String(v.labels.route)] = v.value;
  return out as Record<ReadRoute, number>;
}

/** What `work` added to the reads by route (only the routes that changed). */
async function readsOf(work: () => Promise<unknown>): Promise<Partial<Record<ReadRoute, number>>> {
  const before = await reads();
  await work();
  const after = await reads();
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - before[k as ReadRoute]])
      .filter(([, v]) => v !== 0),
  );
}

/** GET /api/count?unique=true, checked against its contract. */
async function countAnswer() {
  const res = await api('GET', '/api/count?useBlacklist=false&unique=true');
  expect(res.statusCode, res.body).toBe(200);
  return CountAnswerSchema.parse(res.json());
}

/** The same count read on the primary itself. */
function primaryCount() {
  return primary.db.transaction(
    async (tx) => countDatasets(tx, false, await getMinMailings(tx), businessDay(new Date())),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The records the standby holds now, read on it directly. */
async function standbyRecords(): Promise<number> {
  const { rows } = await standbyClient.query<{ n: number }>('SELECT count(*)::int AS n FROM records');
  return rows[0].n;
}

/** A draft mailing with one selection of every address; the selections URL and the selection's id. */
async function draftSelection() {
  const campaignId = await makeCampaign(t, cookie);
  const mailing = await makeMailing(t, cookie, campaignId);
  const url = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  const created = await api('POST', url, { query: { and: [] }, ...open });
  expect(created.statusCode, created.body).toBe(200);
  return { url, mailingId: mailing._id, id: created.json().selectionId as string };
}

describe('reads on the read replica', () => {
  it('counts after an allocation on the replica, equal to the primary', async () => {
    const s = await draftSelection();
    let rows: ResultRow[] = [];
    // The allocation (a write, on the primary) and then its count, in one task.
    const taskReads = await readsOf(async () => {
      const res = await api('POST', `${s.url}/${s.id}/query`, { table: [{ dataset: a.datasetId, new: 5 }] });
      expect(res.statusCode, res.body).toBe(200);
      const task = await waitForTask(t, cookie, res.json().task._id);
      expect(task.state, task.error).toBe('done');
      rows = task.result;
    });
    expect(rows.map((r) => [r.dataset.id, r.saved, r.new])).toEqual([
      [a.datasetId, true, 5],
      [a.datasetId, false, 15],
      [b.datasetId, false, 10],
    ]);
    // Its candidates and the mailing's rows, each counted on the replica.
    expect(taskReads).toEqual({ replica: 2 });
    const held = await primary.db.execute(
      sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${s.mailingId}`,
    );
    expect(held.rows[0].n).toBe(5);

    let answer: Awaited<ReturnType<typeof countAnswer>> | undefined;
    const checkouts = standbyCheckouts;
    expect(await readsOf(async () => (answer = await countAnswer()))).toEqual({ replica: 1 });
    expect(standbyCheckouts).toBe(checkouts + 1);
    expect(answer).toEqual(await primaryCount());
    expect(answer?.unique.total).toBe(30);
  });

  it('reads /counts, the preview, the live count, the funnel and a CSV download on the replica', async () => {
    const s = await draftSelection();
    await api('POST', `${s.url}/${s.id}/query`, { table: [{ dataset: b.datasetId, new: 4 }] }).then((res) =>
      waitForTask(t, cookie, res.json().task._id),
    );
    const body = { query: { and: [{ startsWith: { postcode: '10' } }] }, ...open };
    const checkouts = standbyCheckouts;
    const added = await readsOf(async () => {
      expect((await api('GET', '/api/count?useBlacklist=true')).statusCode).toBe(200);
      const preview = await api('POST', `${s.url}/preview`, body);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().rows.length).toBeGreaterThan(0);
      const live = await api('POST', `${s.url}/live-count`, body);
      expect(live.json().state, live.body).toBe('done');
      expect((await api('GET', `${s.url}/${s.id}/funnel`)).statusCode).toBe(200);
      const csv = await api('GET', `${s.url}/${s.id}/csv`);
      expect(csv.statusCode, csv.body).toBe(200);
      // The header and the four addresses allocated.
      expect(csv.body.trim().split('\r\n')).toHaveLength(5);
    });
    expect(added).toEqual({ replica: 5 });
    expect(standbyCheckouts).toBe(checkouts + 5);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^lijstwerk_read_replica_lag_bytes \d+$/m);
    expect(metrics.body).toMatch(/^lijstwerk_read_replica_reads_total\{route="replica"\} \d+$/m);
  });

  it('reads the primary while the replica has not replayed a write, never a stale figure', async () => {
    await waitForReplay(pair.primaryUrl, pair.standbyUrl);
    const before = await standbyRecords();
    await standbyClient.query('SELECT pg_wal_replay_pause()');
    try {
      // A write the standby does not replay: A's file now holds a31..a40 (its a1..a20 deleted).
      await importFile(t, cookie, a, file(31, 40));
      let answer: Awaited<ReturnType<typeof countAnswer>> | undefined;
      const started = Date.now();
      expect(await readsOf(async () => (answer = await countAnswer()))).toEqual({ lagging: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS);
      expect(answer).toEqual(await primaryCount());
      // B's a11..a30 and A's a31..a40, where the standby still holds A's a1..a20.
      expect(answer?.unique.total).toBe(30);
      expect(await standbyRecords()).toBe(before);
      expect(before).toBe(40);
    } finally {
      await standbyClient.query('SELECT pg_wal_replay_resume()');
    }
  });

  it('waits for the replay of a write when it comes within the wait', async () => {
    await waitForReplay(pair.primaryUrl, pair.standbyUrl);
    await standbyClient.query('SELECT pg_wal_replay_pause()');
    let resumed = false;
    try {
      // B's file now holds a41..a45.
      await importFile(t, cookie, b, file(41, 45));
      const resume = new Promise((r) => setTimeout(r, WAIT_MS / 3)).then(async () => {
        resumed = true;
        await standbyClient.query('SELECT pg_wal_replay_resume()');
      });
      let answer: Awaited<ReturnType<typeof countAnswer>> | undefined;
      expect(await readsOf(async () => (answer = await countAnswer()))).toEqual({ replica: 1 });
      await resume;
      expect(answer).toEqual(await primaryCount());
      expect(answer?.unique.total).toBe(15);
    } finally {
      if (!resumed) await standbyClient.query('SELECT pg_wal_replay_resume()');
    }
  });

  it('counts on the replica exactly what the refresher has not reached yet', async () => {
    // The refresher's lock (REFRESH_LOCK, sel-record.sql.ts) held here: the import's marks stay in sel_dirty.
    const holder = new pg.Client({ connectionString: pair.primaryUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(727018)');
      await importFile(t, cookie, a, file(46, 60));
      let answer: Awaited<ReturnType<typeof countAnswer>> | undefined;
      expect(await readsOf(async () => (answer = await countAnswer()))).toEqual({ replica: 1 });
      const { rows } = await standbyClient.query<{ n: number }>('SELECT count(*)::int AS n FROM sel_dirty');
      expect(rows[0].n).toBeGreaterThan(0);
      expect(answer).toEqual(await primaryCount());
      // B's a41..a45 and A's a46..a60.
      expect(answer?.unique.total).toBe(20);
    } finally {
      await holder.end();
    }
  });

  it('runs the refresher on the primary only', async () => {
    await waitForReplay(pair.primaryUrl, pair.standbyUrl);
    const checkouts = standbyCheckouts;
    await markSelDirty(primary.db, sql`SELECT id FROM addresses`);
    const backlog = async (db: Database) =>
      Number((await db.db.execute(sql`SELECT count(*)::int AS n FROM sel_dirty`)).rows[0].n);
    expect(await backlog(primary)).toBeGreaterThan(0);
    for (let i = 0; i < 300 && (await backlog(primary)) > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await backlog(primary)).toBe(0);
    // The standby has the refresher's work by replay, not from the app.
    await waitForReplay(pair.primaryUrl, pair.standbyUrl);
    const { rows } = await standbyClient.query<{ n: number }>('SELECT count(*)::int AS n FROM sel_dirty');
    expect(rows[0].n).toBe(0);
    expect(standbyCheckouts).toBe(checkouts);
  });

  it('counts live on the primary when the read fails on the replica after it was chosen', async () => {
    const s = await draftSelection();
    const body = { query: { and: [{ startsWith: { postcode: '10' } }] }, ...open };
    failStandbyConnects = 1;
    let live: Awaited<ReturnType<typeof api>> | undefined;
    const added = await readsOf(async () => {
      live = await api('POST', `${s.url}/live-count`, body);
    });
    expect(live?.statusCode, live?.body).toBe(200);
    expect(live?.json().state).toBe('done');
    expect(added).toEqual({ replica: 1, failed: 1 });
  });

  it('reads the primary when the standby is stopped', async () => {
    await standbyClient.end();
    await pair.stopStandby();
    let answer: Awaited<ReturnType<typeof countAnswer>> | undefined;
    const added = await readsOf(async () => (answer = await countAnswer()));
    // Found unreachable when asked, or (a pooled connection to it broken) failed and read again.
    expect(Object.keys(added)).toHaveLength(1);
    expect(added.unreachable ?? added.failed).toBe(1);
    expect(answer).toEqual(await primaryCount());
    // Left alone for a while after: the next read goes to the primary without asking it.
    expect(await readsOf(() => countAnswer())).toEqual({ unreachable: 1 });
  });
});

describe('isReplicaFailure', () => {
  it("reads again on the primary after the replica's failures only", () => {
    const pgError = (code: string) => Object.assign(new Error('x'), { code });
    // A lost connection, a shutdown, a conflict with replay, a write refused: the replica's.
    for (const code of ['08006', '57P01', '57P03', '40001', '40P01', '25006'])
      expect(isReplicaFailure(pgError(code)), code).toBe(true);
    expect(isReplicaFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isReplicaFailure(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isReplicaFailure(new Error('wrapped', { cause: pgError('57P01') }))).toBe(true);
    // A wrong statement, a timeout or a client that left (HttpErrors), an error of the work: its own.
    expect(isReplicaFailure(pgError('42P01'))).toBe(false);
    expect(isReplicaFailure(new HttpError(503, 'Te lang'))).toBe(false);
    expect(isReplicaFailure(new Error('ongeldige query'))).toBe(false);
  });
});
