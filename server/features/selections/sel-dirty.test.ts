import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { BLACKLIST_COLUMNS } from '../../../common/blacklists';
import { loadConfig } from '../../config';
import { clientDb, openDatabase } from '../../db/client';
import { setupTestApp, type TestClient } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { saveDatasetMappings } from '../imports/mapping.queries';
import { allocate, makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { partnerApiHelpers } from '../partner-api/partner-api.test-helpers';
import { dropOrphanPartitions, recordsPartition } from '../records/records.queries';
import { caseCollationOnce } from './compile-context';
import { drainSelDirty, selRecordDriftSql } from './sel-record.sql';
import { othersBusy, startSelRefresher } from './sel-refresher';

// The one invariant of sel_record (sel-record.sql.ts): after any committed write, every address
// whose rows differ from their definition is in sel_dirty. Each writer is called through its route
// on data whose sel_record rows are exact (drained), and must leave no drift outside sel_dirty;
// each also checks that it changed some address's rows, so a writer that forgot to mark fails.

/** What every test here reads of one app: drift, sel_dirty, and the addresses a write changed. */
function selChecks(t: TestClient) {
  /** The rows of sel_record that differ from their definition, for addresses not in sel_dirty. */
  async function drift(): Promise<unknown[]> {
    return (await t.db.execute(await selRecordDriftSql(t.db, await t.ctx.caseCollation()))).rows;
  }

  /** The distinct addresses in sel_dirty. */
  async function dirty(): Promise<number[]> {
    const { rows } = await t.db.execute<{ id: string }>(
      sql`SELECT DISTINCT address_id AS id FROM sel_dirty ORDER BY 1`,
    );
    return rows.map((r) => Number(r.id));
  }

  /** The addresses whose stored rows differ from their definition, sel_dirty left aside (rolled back). */
  async function stale(): Promise<number[]> {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM sel_dirty');
      const db = clientDb(client);
      const { rows } = await db.execute<{ id: string }>(
        sql`SELECT DISTINCT address_id AS id FROM (${await selRecordDriftSql(db, await t.ctx.caseCollation())}) d ORDER BY 1`,
      );
      return rows.map((r) => Number(r.id));
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  }

  /** Drains sel_dirty: sel_record is then exact and nothing is dirty. */
  async function settle(): Promise<void> {
    await drainSelDirty(t.database, await t.ctx.caseCollation());
    expect(await drift()).toEqual([]);
    expect(await dirty()).toEqual([]);
  }

  /**
   * After a write: it changed the rows of some addresses (of `changed`, when given, all), every
   * such address is in sel_dirty (no drift), and draining leaves sel_record exact.
   */
  async function expectMarked(changed?: number[]): Promise<void> {
    const stales = await stale();
    expect(stales.length, 'the write changed the sel_record rows of some address').toBeGreaterThan(0);
    if (changed) expect(stales).toEqual(expect.arrayContaining(changed));
    expect(await drift()).toEqual([]);
    await settle();
  }

  /** The ids of addresses by e-mail, in the order given. */
  async function addressIds(emails: string[]): Promise<number[]> {
    const { rows } = await t.db.execute<{ id: string; email: string }>(
      sql`SELECT id, email FROM addresses WHERE email IN ${emails}`,
    );
    const byEmail = new Map(rows.map((r) => [r.email, Number(r.id)]));
    return emails.map((e) => {
      const id = byEmail.get(e);
      if (id === undefined) throw new Error(`no address ${e}`);
      return id;
    });
  }

  return { drift, dirty, stale, settle, expectMarked, addressIds };
}

const t = setupTestApp({ config: { selRefresher: false } });
const { settle, expectMarked, addressIds, dirty, stale } = selChecks(t);
const partnerApi = partnerApiHelpers(t);

/** Unique e-mails for one test. */
function mails(...names: string[]): string[] {
  const tag = Math.random().toString(36).slice(2, 8);
  return names.map((n) => `${n}.${tag}@sel-dirty.nl`);
}

const MAPPING = [columnMapping('voornaam', 'voornaam'), columnMapping('postcode', 'postcode')];

/** A CSV of email;voornaam;postcode rows. */
function csv(rows: [string, string, string][]): string {
  return `email;voornaam;postcode\n${rows.map((r) => r.join(';')).join('\n')}\n`;
}

/** Posts a multipart file to a back-office route and waits for its task; returns the finished task. */
async function runUpload(url: string, content: string, fields: Record<string, string> = {}) {
  const body = multipartBody(fields, { name: 'bestand.csv', content });
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task;
}

/** A dataset with the mapping and the rows imported, sel_record drained. */
async function importedDataset(rows: [string, string, string][], mappings = MAPPING): Promise<ImportSetup> {
  const s = await setupDataset(t, mappings);
  await importFile(t, t.cookie, s, csv(rows));
  await settle();
  return s;
}

describe('imports and record deletes', () => {
  it('a first import (direct) marks every address of its new table, also those in other datasets', async () => {
    const [a, b, c] = mails('a', 'b', 'c');
    await importedDataset([[a, 'Anna', '1011AA']]);
    const s = await setupDataset(t, MAPPING);
    await importFile(
      t,
      t.cookie,
      s,
      csv([
        [a, 'Anna', '1011AA'],
        [b, 'Bob', '2022BB'],
        [c, 'Cor', '3033CC'],
      ]),
    );
    // a's row in the first dataset is now multi.
    await expectMarked(await addressIds([a, b, c]));
  });

  it('a first import the general way (a mapping with an exclude filter) marks what it wrote', async () => {
    const [a, b, c] = mails('a', 'b', 'c');
    const s = await setupDataset(t, [columnMapping('voornaam', 'voornaam', { exclude: '/^Spam$/' })]);
    await settle();
    const result = await importFile(
      t,
      t.cookie,
      s,
      csv([
        [a, 'Anna', '1'],
        [b, 'Spam', '2'],
        [c, 'Cor', '3'],
      ]),
    );
    expect(result).toMatchObject({ saved: 2, skipped: 1 });
    await expectMarked(await addressIds([a, c]));
  });

  it('a re-import marks the records it replaced, added and deleted (absent from the file)', async () => {
    const [a, b, c, d] = mails('a', 'b', 'c', 'd');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
      [c, 'Cor', '3033CC'],
    ]);
    const result = await importFile(
      t,
      t.cookie,
      s,
      csv([
        [a, 'Annie', '1011AA'],
        [b, 'Bob', '2022BB'],
        [d, 'Dirk', '4044DD'],
      ]),
    );
    expect(result).toMatchObject({ saved: 2, deleted: 1, unchanged: 1 });
    const [ia, ic, id] = await addressIds([a, c, d]);
    await expectMarked([ia, ic, id]);
  });

  it('a remap marks the records it replaced and the ones its exclude filter now deletes', async () => {
    const [a, b, c] = mails('a', 'b', 'c');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
      [c, 'Cor', '3033CC'],
    ]);
    // postcode no longer mapped (every record changes), Bob excluded.
    await saveDatasetMappings(t.db, s.datasetId, [
      columnMapping('voornaam', 'voornaam', { exclude: '/^Bob$/' }),
    ]);
    const res = await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/remap`);
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task.state, task.error).toBe('done');
    expect(task.result).toMatchObject({ saved: 2, deleted: 1 });
    await expectMarked(await addressIds([a, b, c]));
  });

  it('a delete from file marks the deleted records', async () => {
    const [a, b] = mails('a', 'b');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    const task = await runUpload(`/api/deleteall/${s.partnerId}/${s.datasetId}`, `email\n${b}\n`);
    expect(task.result).toMatchObject({ deleted: 1 });
    await expectMarked(await addressIds([b]));
  });

  it('a dataset delete marks its records, and so does a partner delete through its datasets', async () => {
    const [a, b] = mails('a', 'b');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    expect((await t.api('DELETE', `/api/datasets/${s.partnerId}/${s.datasetId}`)).statusCode).toBe(200);
    await expectMarked(await addressIds([a, b]));

    const other = await importedDataset([[a, 'Anna', '1011AA']]);
    expect((await t.api('DELETE', `/api/crud-partner/${other.partnerId}`)).statusCode).toBe(200);
    await expectMarked(await addressIds([a]));
  });

  it('a refresh after a dataset delete skips the record marks of the dataset, whose table is gone', async () => {
    const [a, b] = mails('a', 'b');
    const s = await setupDataset(t, MAPPING);
    await importFile(t, t.cookie, s, csv([[a, 'Anna', '1011AA']]));
    await importFile(
      t,
      t.cookie,
      s,
      csv([
        [a, 'Anna', '1011AA'],
        [b, 'Bob', '2022BB'],
      ]),
    );
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM sel_dirty WHERE dataset_id = ${s.datasetId}`,
    );
    expect(rows[0].n, 'the imports left marks of their records').toBeGreaterThan(0);
    expect((await t.api('DELETE', `/api/datasets/${s.partnerId}/${s.datasetId}`)).statusCode).toBe(200);
    // The task worker's sweep drops the deleted dataset's emptied table before the refresher runs.
    expect(await dropOrphanPartitions(t.database.pool)).toContain(recordsPartition(s.datasetId));
    await settle();
  });

  it('a dataset rename marks the records the partner-dataset blacklist blocks under the old or new name', async () => {
    const [a, b] = mails('a', 'b');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    const renamed = `${s.name}x`;
    await runUpload(
      '/api/partnerblacklist/import',
      `${BLACKLIST_COLUMNS.email};${BLACKLIST_COLUMNS.partner};${BLACKLIST_COLUMNS.dataset}\n${a};${s.partnerId};${s.name}\n`,
    );
    await settle();
    const detail = (await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}`)).json();
    const put = await t.api('PUT', `/api/datasets/${s.partnerId}/${s.datasetId}`, {
      name: renamed,
      description: detail.description,
    });
    expect(put.statusCode, put.body).toBe(200);
    const [ia] = await addressIds([a]);
    await expectMarked([ia]);
    // An update that changes neither name nor partner marks nothing.
    await t.api('PUT', `/api/datasets/${s.partnerId}/${s.datasetId}`, { name: renamed, description: 'x' });
    expect(await dirty()).toEqual([]);
  });
});

describe('the partner API', () => {
  it('marks the records of a first write, an insert, an update, an upsert and a delete', async () => {
    const ds = await partnerApi.keyedDataset();
    const [a, b, c] = mails('a', 'b', 'c');
    await settle();
    const first = await partnerApi.call(ds.key, 'POST', '/partnerlist', { email: a, voornaam: 'Anna' });
    expect(first.statusCode, first.body).toBe(200);
    const [ia] = await addressIds([a]);
    await expectMarked([ia]);

    const insert = await partnerApi.call(ds.key, 'POST', '/partnerlist', { email: b, voornaam: 'Bob' });
    expect(insert.statusCode, insert.body).toBe(200);
    const [ib] = await addressIds([b]);
    await expectMarked([ib]);

    const update = await partnerApi.call(ds.key, 'PUT', `/partnerlist/${a}`, { voornaam: 'Annie' });
    expect(update.statusCode, update.body).toBe(200);
    await expectMarked([ia]);

    const upsert = await partnerApi.call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: b, voornaam: 'Bobby' },
      { email: c, voornaam: 'Cor' },
      { email: a, voornaam: 'Annie' },
    ]);
    expect(upsert.statusCode, upsert.body).toBe(200);
    const [ic] = await addressIds([c]);
    await expectMarked([ib, ic]);

    const del = await partnerApi.call(ds.key, 'DELETE', `/partnerlist/${b}`);
    expect(del.statusCode, del.body).toBe(200);
    await expectMarked([ib]);
  });

  it('marks what a CSV file writes', async () => {
    const ds = await partnerApi.keyedDataset();
    const [a, b] = mails('a', 'b');
    await settle();
    const task = await partnerApi.importCsv(ds.key, `email;voornaam\n${a};Anna\n${b};Bob\n`);
    expect(task.state, task.error).toBe('done');
    await expectMarked(await addressIds([a, b]));
  });
});

describe('blacklists', () => {
  it('the e-mail blacklist import marks the addresses it adds', async () => {
    const [a, b] = mails('a', 'b');
    await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    await runUpload('/api/blacklist/emailimport', `${BLACKLIST_COLUMNS.email}\n${a}\n`);
    await expectMarked(await addressIds([a]));
  });

  it('the domain blacklist: an import, an add and a delete mark the addresses of the domain', async () => {
    const domain = `d${Math.random().toString(36).slice(2, 8)}.nl`;
    const a = `a@${domain}`;
    const b = `b@${domain}`;
    const [c] = mails('c');
    await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
      [c, 'Cor', '3033CC'],
    ]);
    const ids = await addressIds([a, b]);
    await runUpload('/api/blacklist/domainimport', `${BLACKLIST_COLUMNS.domain}\n${domain}\n`);
    await expectMarked(ids);
    expect((await t.api('DELETE', `/api/blacklist/domain/${domain}`)).statusCode).toBe(200);
    await expectMarked(ids);
    const add = await t.api('POST', '/api/blacklist/domains', { domains: [domain] });
    expect(add.statusCode, add.body).toBe(200);
    await expectMarked(ids);
  });

  it('the partner-dataset blacklist import marks the addresses it adds', async () => {
    const [a, b] = mails('a', 'b');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    await runUpload(
      '/api/partnerblacklist/import',
      `${BLACKLIST_COLUMNS.email};${BLACKLIST_COLUMNS.partner};${BLACKLIST_COLUMNS.dataset}\n${b};${s.partnerId};${s.name}\n`,
    );
    await expectMarked(await addressIds([b]));
  });
});

describe('a truncated blacklist', () => {
  it('marks the addresses whose rows it excluded, with one record and with two (sel_multi)', async () => {
    const [a, b] = mails('a', 'b');
    const s = await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    await importedDataset([[b, 'Bob', '2022BB']]);
    const ids = await addressIds([a, b]);
    const { rows } = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM sel_multi WHERE address_id = ${ids[1]}::bigint`,
    );
    expect(rows[0].n, 'the address in two datasets has one sel_multi row').toBe(1);
    await runUpload('/api/blacklist/emailimport', `${BLACKLIST_COLUMNS.email}\n${a}\n${b}\n`);
    await settle();
    await t.db.execute(sql`TRUNCATE blacklist_emails`);
    await expectMarked(ids);
    await runUpload(
      '/api/partnerblacklist/import',
      `${BLACKLIST_COLUMNS.email};${BLACKLIST_COLUMNS.partner};${BLACKLIST_COLUMNS.dataset}\n${a};${s.partnerId};${s.name}\n${b};${s.partnerId};${s.name}\n`,
    );
    await settle();
    await t.db.execute(sql`TRUNCATE partner_blacklist`);
    await expectMarked(ids);
  });
});

describe('mailings', () => {
  /** A dataset of three addresses allocated to a new mailing of a new campaign. */
  async function allocated() {
    const emails = mails('a', 'b', 'c');
    const s = await importedDataset(emails.map((e, i) => [e, `N${i}`, `${1000 + i}AA`]));
    const ids = await addressIds(emails);
    const campaign = await makeCampaign(t, t.cookie);
    const mailing = await makeMailing(t, t.cookie, campaign, { interests: ['Reizen'] });
    await allocate(t, mailing._id, ids, { datasetId: s.datasetId });
    await settle();
    return { emails, ids, campaign, mailing };
  }

  it('a results import marks the addresses whose engagement, bounce, os or interests changed', async () => {
    const { emails, ids, campaign, mailing } = await allocated();
    const file = [
      'Email;Event;Date;OS',
      `${emails[0]};open;2030-01-10 08:00:00;Android`,
      `${emails[1]};hardBounce;2030-01-11;`,
    ].join('\n');
    await runUpload(`/api/campaigns/${campaign}/mailings/${mailing._id}/results`, file);
    await expectMarked([ids[0], ids[1]]);
    // A later open of an address that opened before changes none of its rows: not marked.
    await runUpload(
      `/api/campaigns/${campaign}/mailings/${mailing._id}/results`,
      `Email;Event;Date;OS\n${emails[0]};open;2030-01-12 08:00:00;Android\n`,
    );
    expect(await dirty()).toEqual([]);
  });

  it('entering and leaving Aangeboden mark the addresses whose sent count changed', async () => {
    const { ids, campaign, mailing } = await allocated();
    const url = `/api/campaigns/${campaign}/mailings/${mailing._id}`;
    expect((await t.api('PUT', url, { name: mailing.name, state: 'offered' })).statusCode).toBe(200);
    await expectMarked(ids);
    expect((await t.api('PUT', url, { name: mailing.name, state: 'draft' })).statusCode).toBe(200);
    await expectMarked(ids);
    // A campaign deleted with an offered mailing takes its sends back.
    expect((await t.api('PUT', url, { name: mailing.name, state: 'offered' })).statusCode).toBe(200);
    await settle();
    expect((await t.api('DELETE', `/api/campaigns/${campaign}`)).statusCode).toBe(200);
    await expectMarked(ids);
  });
});

describe('an AVG erasure', () => {
  it('marks the records it deletes and the address it pseudonymises, and leaves no narrow row behind', async () => {
    const [a, b] = mails('a', 'b');
    // a in two datasets (a sel_multi row), b in one (a sel_record row).
    await importedDataset([
      [a, 'Anna', '1011AA'],
      [b, 'Bob', '2022BB'],
    ]);
    await importedDataset([[a, 'Anna', '1011AA']]);
    const [idA, idB] = await addressIds([a, b]);
    const res = await t.api('POST', '/api/avg/erase', { email: a });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ records: 2, datasets: 2 });
    // Its rows are gone at once (they held the e-mail), it is marked, and nothing drifts.
    const rows = await t.db.execute<{ n: number }>(sql`SELECT
      (SELECT count(*) FROM sel_record WHERE address_id = ${idA}) + (SELECT count(*) FROM sel_multi WHERE address_id = ${idA}) AS n`);
    expect(Number(rows.rows[0].n)).toBe(0);
    expect(await dirty()).toContain(idA);
    expect(await dirty()).not.toContain(idB);
    expect(await stale()).toEqual([]);
    await settle();
  });
});

describe('the refresher', () => {
  const live = setupTestApp();
  const checks = selChecks(live);

  it('is on unless SEL_REFRESHER=off', () => {
    expect(loadConfig({}).selRefresher).toBe(true);
    expect(loadConfig({ SEL_REFRESHER: 'off' }).selRefresher).toBe(false);
  });

  it('sees when another connection runs a statement on the database (it then pauses longer)', async () => {
    // The app's own refresher may run a statement at any moment: each answer is waited for.
    const answers = async (want: boolean) => {
      for (let i = 0; i < 50; i++) {
        if ((await othersBusy(live.database)) === want) return true;
        await new Promise((r) => setTimeout(r, 10));
      }
      return false;
    };
    expect(await answers(false)).toBe(true);
    const client = await live.database.pool.connect();
    try {
      const sleeping = client.query('SELECT pg_sleep(1)');
      expect(await answers(true)).toBe(true);
      await sleeping;
    } finally {
      client.release();
    }
    expect(await answers(false)).toBe(true);
  });

  it('logs a failure and tries again later, without throwing; stop ends it', async () => {
    const database = openDatabase(live.url, 1);
    await database.close(); // every query now fails
    const error = vi.fn();
    const log = { error } as unknown as FastifyBaseLogger;
    const refresher = startSelRefresher(database, log, caseCollationOnce(database.db), 10);
    for (let i = 0; i < 100 && error.mock.calls.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await refresher.stop();
    expect(error.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(error.mock.calls[0][1]).toMatch(/sel_record/);
    const calls = error.mock.calls.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(error.mock.calls.length, 'nothing runs after stop').toBe(calls);
  });

  it('empties sel_dirty by itself within seconds of a write, leaving sel_record exact', async () => {
    const s = await setupDataset(live, MAPPING);
    const [a, b] = mails('a', 'b');
    await importFile(
      live,
      live.cookie,
      s,
      csv([
        [a, 'Anna', '1011AA'],
        [b, 'Bob', '2022BB'],
      ]),
    );
    let left = await checks.dirty();
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = await checks.dirty();
    }
    expect(left).toEqual([]);
    expect(await checks.drift()).toEqual([]);
    const { rows } = await live.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM sel_record WHERE address_id IN ${await checks.addressIds([a, b])}`,
    );
    expect(rows[0].n).toBe(2);
  });
});
