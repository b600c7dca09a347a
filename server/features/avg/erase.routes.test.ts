import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AvgLookup } from '../../../common/avg';
import { type AvgErasure, AvgErasureMessages } from '../../../common/avg-erasure';
import { clientDb } from '../../db/client';
import { setupTestApp } from '../../test/app';
import { columnMapping, type ImportSetup, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { addResults, allocate, makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { recordsPartition } from '../records/records.queries';
import { holdOffErasure, suppressionHash } from './suppression';

// The AVG art. 17 erasure through its routes: one address held in two datasets, enriched, in a
// line file, an import's skipped rows, a draft mailing and an offered one with results; then every
// table is read for what went and what stayed, and every table for the e-mail itself.

const t = setupTestApp({ role: 'staff' });

const EMAIL = 'Jan.Jansen@Voorbeeld.NL';
const STORED = 'jan.jansen@voorbeeld.nl';
const OTHER = 'piet.puk@voorbeeld.nl';

let a: ImportSetup;
let b: ImportSetup;
let addressId: number;
let otherId: number;
let draftId: string;
let draftSelection: string;
let offeredId: string;
let lineSelection: string;
let campaignId: string;

async function upload(url: string, fields: Record<string, string>, name: string, content: string) {
  const body = multipartBody(fields, { name, content });
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
}

async function uploadDone(url: string, fields: Record<string, string>, name: string, content: string) {
  const res = await upload(url, fields, name, content);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task;
}

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return (await t.db.execute(query)).rows[0] as T;
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  return Number((await one<{ n: number }>(query)).n);
}

async function idOf(email: string): Promise<number> {
  return Number((await one<{ id: string }>(sql`SELECT id FROM addresses WHERE email = ${email}`)).id);
}

beforeAll(async () => {
  a = await setupDataset(t, [columnMapping('voornaam', 'voornaam')]);
  b = await setupDataset(t, [columnMapping('voornaam', 'voornaam')]);
  // The repeat is skipped by the import and kept as a skipped row with the e-mail as in the file.
  await importFile(t, t.cookie, a, `email,voornaam\n${EMAIL},Jan\n${EMAIL},Jan\n${OTHER},Piet\n`);
  await importFile(t, t.cookie, b, `email,voornaam\n${STORED},Jan\n${OTHER},Piet\n`);
  addressId = await idOf(STORED);
  otherId = await idOf(OTHER);

  await uploadDone(
    '/api/enrichment/files',
    {
      name: 'verrijking-avg',
      mappings: JSON.stringify([
        { field: 'email', mapped: 'email', match: true },
        { field: 'hobby', mapped: 'hobby', match: false },
      ]),
    },
    'verrijking.csv',
    `email,hobby\n${STORED},zeilen\n${OTHER},vissen\n`,
  );

  campaignId = await makeCampaign(t, t.cookie, 'Voorjaarsactie');
  const draft = await makeMailing(t, t.cookie, campaignId, { name: 'Concept' });
  draftId = draft._id;
  draftSelection = await allocate(t, draftId, [addressId, otherId], { datasetId: a.datasetId });
  const offered = await makeMailing(t, t.cookie, campaignId, { name: 'Verstuurd' });
  offeredId = offered._id;
  await allocate(t, offeredId, [addressId, otherId], { datasetId: a.datasetId });
  const put = await t.api('PUT', `/api/campaigns/${campaignId}/mailings/${offeredId}`, {
    name: 'Verstuurd',
    state: 'offered',
  });
  expect(put.statusCode, put.body).toBe(200);
  await addResults(t, offeredId, [
    { addressId, event: 'open' },
    { addressId, event: 'click' },
    { addressId: otherId, event: 'open' },
  ]);

  // A Bestandsmatch line of a selection of the draft, matched on the e-mail address.
  const url = `/api/campaigns/${campaignId}/mailings/${draftId}/selections`;
  const query = { and: [{ intersect: { id: 'l1', name: 'klanten.csv', fields: ['gen_id'] } }] };
  const created = await t.api('POST', url, {
    query,
    description: 'Bestandsmatch',
    useCampaignLabel: false,
    activeDatasetsOnly: false,
    useBlacklist: false,
    useDate: false,
  });
  expect(created.statusCode, created.body).toBe(200);
  lineSelection = created.json().selectionId;
  await uploadDone(
    `${url}/${lineSelection}/l1/csv`,
    { mappings: JSON.stringify([{ type: 'base', field: 'mail', base: 'id', generated: 'gen_id' }]) },
    'klanten.csv',
    `mail\n${EMAIL}\n${OTHER}\n`,
  );
});

/** The tables (with partitions) whose rows, read as text, hold `needle` (any letter case), and how many. */
async function tablesHolding(needle: string): Promise<Record<string, number>> {
  const { rows } = await t.db.execute<{ name: string }>(sql`SELECT c.relname AS name FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY 1`);
  const found: Record<string, number> = {};
  for (const { name } of rows) {
    const n = await count(
      sql`SELECT count(*)::int AS n FROM ONLY ${sql.identifier(name)} x WHERE x::text ILIKE ${`%${needle}%`}`,
    );
    if (n > 0) found[name] = n;
  }
  return found;
}

let erasure: AvgErasure;

describe('POST /api/avg/erase', () => {
  it('erases the address everywhere but in offered mailings, where it stays pseudonymised', async () => {
    const before = await one<{ sent_count: number; last_sent_at: Date }>(
      sql`SELECT sent_count, last_sent_at FROM addresses WHERE id = ${addressId}`,
    );
    expect(Number(before.sent_count)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM import_skipped_rows WHERE email = ${EMAIL}`)).toBe(
      1,
    );
    // Where the e-mail is before (the narrow tables too once the refresher has passed).
    expect(Object.keys(await tablesHolding(STORED))).toEqual(
      expect.arrayContaining([
        'addresses',
        'selection_file_rows',
        'import_skipped_rows',
        recordsPartition(a.datasetId),
        recordsPartition(b.datasetId),
      ]),
    );

    const csv = async () => {
      const res = await t.api('GET', `/api/campaigns/${campaignId}/mailings/${offeredId}/csv`);
      expect(res.statusCode, res.body).toBe(200);
      return res.body.trim().split(/\r?\n/).slice(1).sort();
    };
    expect(await csv()).toEqual([STORED, OTHER]);

    const res = await t.api('POST', '/api/avg/erase', { email: ` ${EMAIL} ` });
    expect(res.statusCode, res.body).toBe(200);
    erasure = res.json();
    // The offered mailing's download leaves the erased address out (no pseudonym line either).
    expect(await csv()).toEqual([OTHER]);
    expect(erasure).toEqual({
      erasedAt: expect.any(String),
      newlyErased: true,
      records: 2,
      datasets: 2,
      enrichmentFiles: 1,
      openMailings: 1,
      sentMailings: 1,
      lineFileRows: 1,
      skippedRows: 1,
      testPersons: 0,
    });

    // Records: gone in both datasets, the other address's stay, the record counts follow.
    for (const s of [a, b]) {
      expect(
        await count(
          sql`SELECT count(*)::int AS n FROM records WHERE dataset_id = ${s.datasetId} AND address_id = ${addressId}`,
        ),
      ).toBe(0);
      const ds = await one<{ stored: number; real: number }>(sql`SELECT d.record_count AS stored,
        (SELECT count(*) FROM records r WHERE r.dataset_id = d.id)::int AS real FROM datasets d WHERE d.id = ${s.datasetId}`);
      expect([Number(ds.stored), Number(ds.real)]).toEqual([1, 1]);
    }
    // Enrichment: its values and winning values gone, the file counts one address less.
    expect(
      await count(sql`SELECT count(*)::int AS n FROM enrichment_values WHERE address_id = ${addressId}`),
    ).toBe(0);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM address_enrichment WHERE address_id = ${addressId}`),
    ).toBe(0);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM address_enrichment WHERE address_id = ${otherId}`),
    ).toBe(1);
    expect(
      await count(sql`SELECT record_count AS n FROM enrichment_files WHERE name = 'verrijking-avg'`),
    ).toBe(1);
    // The line file keeps the other row only; the skipped row is gone.
    const lines = await t.db.execute<{ vals: string[] }>(
      sql`SELECT vals FROM selection_file_rows WHERE selection_id = ${lineSelection}`,
    );
    expect(lines.rows.map((r) => r.vals)).toEqual([[OTHER]]);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM import_skipped_rows WHERE email ILIKE ${STORED}`),
    ).toBe(0);
    // The draft lost it, its counts follow; the offered mailing keeps it, its count and results.
    const draft = await one<{ held: number; stored: number; sel: number }>(sql`SELECT
      (SELECT count(*)::int FROM mailing_addresses WHERE mailing_id = ${draftId}) AS held,
      (SELECT record_count FROM mailings WHERE id = ${draftId}) AS stored,
      (SELECT record_count FROM selections WHERE id = ${draftSelection}) AS sel`);
    expect([draft.held, draft.stored, draft.sel].map(Number)).toEqual([1, 1, 1]);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${draftId} AND address_id = ${addressId}`,
      ),
    ).toBe(0);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM mailing_addresses WHERE mailing_id = ${offeredId} AND address_id = ${addressId}`,
      ),
    ).toBe(1);
    expect(await count(sql`SELECT record_count AS n FROM mailings WHERE id = ${offeredId}`)).toBe(2);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM mailing_results WHERE mailing_id = ${offeredId} AND address_id = ${addressId}`,
      ),
    ).toBe(2);

    // A copy of the offered mailing's openers into the draft does not bring it back (the other
    // opener is in the draft already).
    const copy = await t.api('POST', `/api/campaigns/${campaignId}/mailings/${draftId}/copy`, {
      campaign: campaignId,
      mailing: offeredId,
      type: 'opens',
    });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json().copied).toBe(0);

    // The address row: pseudonymised, its behaviour cleared, what the pressure rule reads kept.
    const row = await one<Record<string, unknown>>(sql`SELECT * FROM addresses WHERE id = ${addressId}`);
    expect(row).toMatchObject({
      email: `avg-verwijderd-${addressId}`,
      domain: '',
      os: [],
      open_interests: [],
      click_interests: [],
      last_open_at: null,
      last_click_at: null,
      hard_bounced_at: null,
    });
    expect(Number(row.sent_count)).toBe(1);
    expect(new Date(row.last_sent_at as string).toISOString()).toBe(
      new Date(before.last_sent_at).toISOString(),
    );
    expect(new Date(row.erased_at as string).toISOString()).toBe(erasure.erasedAt);

    // The suppression holds the keyed hash only; no table holds the e-mail any more.
    const hashes = await t.db.execute<{ hash: Buffer }>(sql`SELECT hash FROM avg_suppressions`);
    expect(hashes.rows.map((r) => Buffer.from(r.hash).toString('hex'))).toEqual([
      suppressionHash(t.ctx.columnKeys(), STORED).toString('hex'),
    ]);
    expect(await tablesHolding(STORED)).toEqual({});
    expect(await tablesHolding('jansen')).toEqual({});
    // The check finds an e-mail where it is: the other address's is still in these.
    expect(Object.keys(await tablesHolding(OTHER))).toEqual(
      expect.arrayContaining(['addresses', 'selection_file_rows']),
    );
  });

  it('the look-up afterwards shows when it was erased and nothing else', async () => {
    const res = await t.api('GET', `/api/avg/lookup?email=${encodeURIComponent(EMAIL)}`);
    expect(res.statusCode, res.body).toBe(200);
    const body: AvgLookup = res.json();
    expect(body).toMatchObject({
      email: STORED,
      found: false,
      address: null,
      records: [],
      enrichment: [],
      mailings: [],
      blacklists: [],
      erasedAt: erasure.erasedAt,
    });
    // The pseudonym is no e-mail address: the look-up refuses it.
    expect((await t.api('GET', `/api/avg/lookup?email=avg-verwijderd-${addressId}`)).statusCode).toBe(400);
  });

  it('records the erasure in the audit log by the address id, never the e-mail', async () => {
    const { rows } = await t.db.execute<{ subject: string; rows: number; username: string; text: string }>(
      sql`SELECT subject, rows, username, a::text AS text FROM audit_log a WHERE kind = 'avg-erasure' ORDER BY id`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: String(addressId), username: t.user.row.username });
    expect(Number(rows[0].rows)).toBe(2);
    expect(rows[0].text.toLowerCase()).not.toContain('jansen');
  });

  it('answers an address erased before with its earlier time, changing nothing', async () => {
    const res = await t.api('POST', '/api/avg/erase', { email: STORED });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      erasedAt: erasure.erasedAt,
      newlyErased: false,
      records: 0,
      datasets: 0,
      enrichmentFiles: 0,
      openMailings: 0,
      sentMailings: 0,
      lineFileRows: 0,
      skippedRows: 0,
      testPersons: 0,
    });
    expect(await count(sql`SELECT count(*)::int AS n FROM avg_suppressions`)).toBe(1);
  });

  it('answers 409 while an upload or import holds the lock, leaving nothing of the attempt', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('BEGIN');
      await holdOffErasure(clientDb(client));
      const started = Date.now();
      const res = await t.api('POST', '/api/avg/erase', { email: OTHER });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(AvgErasureMessages.busy);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    // Nothing of the refused erasure stayed.
    expect(await count(sql`SELECT count(*)::int AS n FROM avg_suppressions`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM records WHERE address_id = ${otherId}`)).toBe(2);
  }, 20_000);

  it('refuses what is no e-mail address with 400 in Dutch', async () => {
    for (const body of [{ email: 'geen-adres' }, {}, { email: 42 }, { email: 'a'.repeat(400) }]) {
      const res = await t.api('POST', '/api/avg/erase', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/avg/erase',
      payload: '{"email":',
      headers: { cookie: t.cookie, 'content-type': 'application/json' },
    });
    expect(raw.statusCode, raw.body).toBe(400);
  });
});

describe('POST /api/avg/erase-file', () => {
  it('erases a file of addresses as a task, counting every line', async () => {
    const held = ['held1@voorbeeld.nl', 'held2@voorbeeld.nl'];
    await importFile(t, t.cookie, a, `email,voornaam\n${OTHER},Piet\n${held[0]},A\n${held[1]},B\n`);
    await importFile(t, t.cookie, b, `email,voornaam\n${OTHER},Piet\n${held[1]},B\n`);
    const ids = await Promise.all(held.map(idOf));
    const lines = [
      'email,naam',
      `${held[0]},a`,
      ` HELD1@voorbeeld.nl ,herhaald`,
      'geen adres,ongeldig',
      'nooit.gezien@voorbeeld.nl,onbekend',
      `${EMAIL},eerder`,
      `${held[1]},b`,
    ];
    const task = await uploadDone('/api/avg/erase-file', {}, 'verwijderen.csv', `${lines.join('\n')}\n`);
    expect(task.result).toEqual({
      read: 6,
      erased: 2,
      suppressed: 1,
      alreadyErased: 1,
      invalid: 1,
      repeated: 1,
      records: 3,
      testPersons: 0,
    });
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM addresses WHERE id IN (${ids[0]}, ${ids[1]}) AND erased_at IS NOT NULL`,
      ),
    ).toBe(2);
    expect(await count(sql`SELECT count(*)::int AS n FROM avg_suppressions`)).toBe(4);
    // The staged file is dropped and no table holds the file's e-mails.
    const staging = await one<{ staging: string }>(
      sql`SELECT payload->>'staging' AS staging FROM tasks WHERE id = ${task._id}`,
    );
    expect(await one(sql`SELECT to_regclass(${staging.staging})::text AS t`)).toEqual({ t: null });
    for (const email of [...held, 'nooit.gezien']) expect(await tablesHolding(email)).toEqual({});
    // One audit entry for the task, with its counts.
    const audit = await one<{ subject: string; rows: number; details: Record<string, unknown> }>(
      sql`SELECT subject, rows, details FROM audit_log WHERE kind = 'avg-erasure' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.subject).toBe(task._id);
    expect(Number(audit.rows)).toBe(3);
    expect(audit.details).toMatchObject({ read: 6, erased: 2, suppressed: 1 });
  });

  it('reads a file of bare addresses, its first line included', async () => {
    const task = await uploadDone(
      '/api/avg/erase-file',
      {},
      'kaal.csv',
      'kaal1@voorbeeld.nl\nkaal2@voorbeeld.nl\nkaal1@voorbeeld.nl\n',
    );
    expect(task.result).toEqual({
      read: 3,
      erased: 0,
      suppressed: 2,
      alreadyErased: 0,
      invalid: 0,
      repeated: 1,
      records: 0,
      testPersons: 0,
    });
  });

  it('erases a long file the same way (its line-file rows found by a join, not an array per row)', async () => {
    const unknown = Array.from({ length: 69 }, (_, i) => `onbekend${i}@voorbeeld.nl`);
    const task = await uploadDone(
      '/api/avg/erase-file',
      {},
      'lang.csv',
      `email\n${[...unknown, OTHER].join('\n')}\n`,
    );
    expect(task.result).toMatchObject({ read: 70, erased: 1, suppressed: 69, alreadyErased: 0, invalid: 0 });
    const lines = await t.db.execute(
      sql`SELECT vals FROM selection_file_rows WHERE selection_id = ${lineSelection}`,
    );
    expect(lines.rows).toEqual([]);
    expect(await count(sql`SELECT count(*)::int AS n FROM records WHERE address_id = ${otherId}`)).toBe(0);
    expect(await tablesHolding(OTHER)).toEqual({});
  });

  it('refuses a file without e-mail addresses, another file type and a body that is no upload, with 400', async () => {
    const none = await upload('/api/avg/erase-file', {}, 'namen.csv', 'naam,plaats\nJan,Utrecht\n');
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json().message).toBe(AvgErasureMessages.bulkNoColumn);
    const txt = await upload('/api/avg/erase-file', {}, 'adressen.txt', 'email\nx@voorbeeld.nl\n');
    expect(txt.statusCode, txt.body).toBe(400);
    const json = await t.api('POST', '/api/avg/erase-file', { email: STORED });
    expect(json.statusCode, json.body).toBe(400);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/avg/erase-file',
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nemail\n',
      headers: { cookie: t.cookie, 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.statusCode, broken.body).toBe(400);
  });
});
