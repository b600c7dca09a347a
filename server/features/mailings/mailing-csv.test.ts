import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { MailingMessages } from '../../../common/mailings';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { columnMapping, importFile, setupDataset } from '../../test/imports';
import { allocate, makeCampaign, makeMailing } from './mailing.test-helpers';
import { copyCsv } from './mailing-csv';

const t = setupTestApp({ startWorker: true });
let campaign: string;
let datasetId: string;
let partnerId: string;
let ids: Map<string, number>;

beforeAll(async () => {
  const s = await setupDataset(t, [
    columnMapping('email', 'email'),
    columnMapping('naam', 'voornaam'),
    columnMapping('geboren', 'geboortedatum'),
    columnMapping('bedrag', 'bedrag'),
    columnMapping('code', 'code', { encrypted: true }),
    columnMapping('plaats', 'plaats'),
  ]);
  datasetId = s.datasetId;
  partnerId = s.partnerId;
  await importFile(
    t,
    t.cookie,
    s,
    [
      'email,naam,geboren,bedrag,code,plaats',
      'jan@voorbeeld.nl,Jan,1980-05-17,"12,5",geheim1,"Den Haag, NL"',
      'piet@voorbeeld.nl,Piet,17-06-1990,abc,geheim2,"Zeg ""hoi"""',
      'kees@voorbeeld.nl,Kees,geen datum,-3,,Utrecht',
    ].join('\n'),
  );
  const rows = await t.database.db.execute<{ id: number; email: string }>(
    sql`SELECT id, email FROM addresses WHERE email LIKE '%@voorbeeld.nl'`,
  );
  ids = new Map(rows.rows.map((r) => [r.email, Number(r.id)]));
  for (const [column, type] of [
    ['voornaam', 'string'],
    ['geboortedatum', 'date'],
    ['bedrag', 'number'],
    ['code', 'string'],
    ['plaats', 'string'],
  ]) {
    expect((await t.api('POST', '/api/export/columns', { column, type })).statusCode).toBe(200);
  }
  campaign = await makeCampaign(t, t.cookie);
});

const url = (m: string, rest: string) => `/api/campaigns/${campaign}/mailings/${m}${rest}`;
const HEADER = 'email,bedrag,code,geboortedatum,plaats,voornaam';

describe('GET .../csv and .../selections/{s}/csv', () => {
  it('streams email plus the export columns formatted by type, decrypted, RFC 4180', async () => {
    const m = await makeMailing(t, t.cookie, campaign);
    const first = await allocate(t, m._id, [ids.get('jan@voorbeeld.nl')!, ids.get('piet@voorbeeld.nl')!], {
      datasetId,
    });
    const second = await allocate(t, m._id, [ids.get('kees@voorbeeld.nl')!], { datasetId });
    const res = await t.api('GET', url(m._id, '/csv'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment');
    const lines: Record<string, string> = {
      'jan@voorbeeld.nl': 'jan@voorbeeld.nl,12.5,geheim1,17-05-1980,"Den Haag, NL",Jan',
      'piet@voorbeeld.nl': 'piet@voorbeeld.nl,,geheim2,17-06-1990,"Zeg ""hoi""",Piet',
      'kees@voorbeeld.nl': 'kees@voorbeeld.nl,-3,,,Utrecht,Kees',
    };
    // Rows in no particular order: the header first, every address once, CRLF-terminated.
    expect(res.body.endsWith('\r\n')).toBe(true);
    const [header, ...body] = csvBody(res).slice(0, -2).split('\r\n');
    expect(header).toBe(HEADER);
    expect(body.sort()).toEqual(Object.values(lines).sort());
    const sel = await t.api('GET', url(m._id, `/selections/${second}/csv`));
    expect(csvBody(sel)).toBe(`${HEADER}\r\n${lines['kees@voorbeeld.nl']}\r\n`);
    const one = await t.api('GET', url(m._id, `/selections/${first}/csv`));
    expect(csvBody(one).split('\r\n')).toHaveLength(4);
    const unknown = await t.api('GET', url(m._id, '/selections/nee/csv'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(MailingMessages.selectionNotFound);
  });

  it('takes each address’s columns from the record of its own dataset (empty when that record is gone)', async () => {
    const m = await makeMailing(t, t.cookie, campaign);
    await allocate(t, m._id, [ids.get('jan@voorbeeld.nl')!], { datasetId });
    await allocate(t, m._id, [ids.get('piet@voorbeeld.nl')!], { datasetId: 'verwijderd' });
    const body = csvBody(await t.api('GET', url(m._id, '/csv')))
      .slice(0, -2)
      .split('\r\n');
    expect(body.slice(1).sort()).toEqual([
      'jan@voorbeeld.nl,12.5,geheim1,17-05-1980,"Den Haag, NL",Jan',
      'piet@voorbeeld.nl,,,,,',
    ]);
  });

  it('offers the Excel variant of the mailing and selection CSV: BOM, semicolons, ; and " quoted, ciphertext decrypted', async () => {
    const m = await makeMailing(t, t.cookie, campaign);
    const sel = await allocate(t, m._id, [ids.get('jan@voorbeeld.nl')!, ids.get('piet@voorbeeld.nl')!], {
      datasetId,
    });
    const expected = [
      // A decimal comma: Dutch Excel reads 12.5 as a date (DESIGN §7).
      'jan@voorbeeld.nl;12,5;geheim1;17-05-1980;Den Haag, NL;Jan',
      'piet@voorbeeld.nl;;geheim2;17-06-1990;"Zeg ""hoi""";Piet',
    ];
    for (const path of ['/csv?format=excel', `/selections/${sel}/csv?format=excel`]) {
      const res = await t.api('GET', url(m._id, path));
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const [header, ...body] = csvBody(res).slice(0, -2).split('\r\n');
      expect(header).toBe(HEADER.replaceAll(',', ';'));
      expect(body.sort()).toEqual(expected);
    }
    expect((await t.api('GET', url(m._id, '/csv?format=ods'))).statusCode).toBe(400);
  });

  it('answers a header only for an empty mailing and 404 for an unknown one', async () => {
    const m = await makeMailing(t, t.cookie, campaign);
    expect(csvBody(await t.api('GET', url(m._id, '/csv')))).toBe(`${HEADER}\r\n`);
    const res = await t.api('GET', url('nee', '/csv'));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MailingMessages.notFound);
  });
});

describe('GET .../testcsv', () => {
  it('lists the global test person and the test persons of the mailing’s datasets, Definitief only', async () => {
    await t.api('POST', '/api/export/columns', { column: 'Achternaam', type: 'string' });
    const put = await t.api('PUT', '/api/testperson', {
      firstName: 'Tess',
      preposition: 'de',
      lastName: 'Test',
      gender: 'F',
      email: 'tess@lijstwerk.nl',
    });
    expect(put.statusCode, put.body).toBe(200);
    const tp = await t.api('POST', `/api/datasets/${partnerId}/${datasetId}/testpersons`, {
      firstName: 'Dirk',
      lastName: 'Data',
      email: 'dirk@partner.nl',
    });
    expect(tp.statusCode, tp.body).toBe(200);
    const other = await setupDataset(t);
    await t.api('POST', `/api/datasets/${other.partnerId}/${other.datasetId}/testpersons`, {
      firstName: 'Niet',
      email: 'niet@elders.nl',
    });
    const m = await makeMailing(t, t.cookie, campaign);
    await allocate(t, m._id, [ids.get('jan@voorbeeld.nl')!], { datasetId });
    const draft = await t.api('GET', url(m._id, '/testcsv'));
    expect(draft.statusCode).toBe(409);
    expect(draft.json().message).toBe(MailingMessages.finalOnly);
    await t.api('PUT', `/api/campaigns/${campaign}/mailings/${m._id}`, { name: 'x', state: 'final' });
    const res = await t.api('GET', url(m._id, '/testcsv'));
    expect(res.statusCode).toBe(200);
    const excel = await t.api('GET', url(m._id, '/testcsv?format=excel'));
    expect(excel.headers['content-disposition']).toContain(`testlijst-${m._id}.csv`);
    expect(csvBody(excel)).toBe(
      [
        'email;Achternaam;bedrag;code;geboortedatum;plaats;voornaam',
        'tess@lijstwerk.nl;Test;;;;;Tess',
        'dirk@partner.nl;Data;;;;;Dirk',
        '',
      ].join('\r\n'),
    );
    expect(csvBody(res)).toBe(
      [
        'email,Achternaam,bedrag,code,geboortedatum,plaats,voornaam',
        'tess@lijstwerk.nl,Test,,,,,Tess',
        'dirk@partner.nl,Data,,,,,Dirk',
        '',
      ].join('\r\n'),
    );
  });
});

describe('the test list and the mailing CSV', () => {
  it('format the same values the same way: an empty preposition empty, a number column as a number', async () => {
    // Person fields in export columns of each type; the record of an address holds the values
    // the test person has.
    for (const [column, type] of [
      ['tussenvoegsel', 'string'],
      ['lastName', 'number'],
    ]) {
      expect((await t.api('POST', '/api/export/columns', { column, type })).statusCode).toBe(200);
    }
    const s = await setupDataset(t, [
      columnMapping('email', 'email'),
      columnMapping('naam', 'voornaam'),
      columnMapping('tussen', 'tussenvoegsel'),
      columnMapping('achter', 'Achternaam'),
      columnMapping('achter2', 'lastName'),
    ]);
    await importFile(t, t.cookie, s, 'email,naam,tussen,achter,achter2\nsam@lijst.nl,Sam,,"12,5","12,5"\n');
    const person = { firstName: 'Sam', preposition: '', lastName: '12,5', email: 'sam.test@lijst.nl' };
    expect(
      (await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/testpersons`, person)).statusCode,
    ).toBe(200);
    const [{ id }] = (
      await t.database.db.execute<{ id: string }>(sql`SELECT id FROM addresses WHERE email = 'sam@lijst.nl'`)
    ).rows;
    const m = await makeMailing(t, t.cookie, campaign);
    await allocate(t, m._id, [Number(id)], { datasetId: s.datasetId });
    await t.api('PUT', `/api/campaigns/${campaign}/mailings/${m._id}`, { name: 'x', state: 'final' });
    for (const format of ['', '?format=excel']) {
      const line = async (path: string, email: string) => {
        const lines = csvBody(await t.api('GET', url(m._id, `${path}${format}`))).split('\r\n');
        const found = lines.find((l) => l.startsWith(`${email}${format ? ';' : ','}`));
        expect(found, `${path}${format}: ${email}`).toBeDefined();
        return found?.slice(email.length);
      };
      const mailing = await line('/csv', 'sam@lijst.nl');
      expect(await line('/testcsv', 'sam.test@lijst.nl')).toBe(mailing);
      // Achternaam (a string), bedrag, code, geboortedatum, lastName (a number), plaats,
      // tussenvoegsel (empty, not ""), voornaam.
      expect(mailing).toBe(format ? ';12,5;;;;12,5;;;Sam' : ',"12,5",,,,12.5,,,Sam');
    }
  });
});

describe('the COPY connection of a download', () => {
  it('runs the COPY with its settings (merge joins, no parallel workers) and gives the connection back without them', async () => {
    const pool = new pg.Pool({ connectionString: t.database.url, max: 1 });
    try {
      const chunks: Buffer[] = [];
      const select = () =>
        `SELECT current_setting('enable_hashjoin'), current_setting('max_parallel_workers_per_gather'), current_setting('work_mem')`;
      for await (const chunk of copyCsv(pool, t.ctx.columnKeys, ['a', 'b', 'c'], select, 'csv', {
        enable_hashjoin: 'off',
        max_parallel_workers_per_gather: '0',
      }))
        chunks.push(chunk);
      expect(csvBody({ body: Buffer.concat(chunks).toString('utf8') })).toBe('a,b,c\r\noff,0,256MB\r\n');
      // The one connection of the pool, used again: back to the server's settings.
      const after = await pool.query(
        `SELECT current_setting('enable_hashjoin') AS h, current_setting('work_mem') AS w`,
      );
      expect(after.rows[0].h).toBe('on');
      expect(after.rows[0].w).not.toBe('256MB');
    } finally {
      await pool.end();
    }
  });
});
