import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EnrichmentMessages } from '../../../common/enrichment';
import { ImportMessages } from '../../../common/imports';
import { nameMessage, nameProblem } from '../../../common/names';
import type { QueryNode } from '../../../common/query-tree';
import type { ResultRow } from '../../../common/selections';
import { setupTestApp } from '../../test/app';
import { columnMapping, importFile, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { makeCampaign, makeMailing } from '../mailings/mailing.test-helpers';
import { CsvMessages } from '../uploads/csv-staging';

const t = setupTestApp();

type Column = { field: string; mapped: string; match: boolean };
const match = (field: string, mapped: string): Column => ({ field, mapped, match: true });
const enrich = (field: string, mapped: string): Column => ({ field, mapped, match: false });

function post(fields: Record<string, string>, content: string | Buffer | null, fileName = 'verrijking.csv') {
  const body = multipartBody(fields, content === null ? undefined : { name: fileName, content });
  return t.app.inject({
    method: 'POST',
    url: '/api/enrichment/files',
    payload: body.payload,
    headers: { ...body.headers, cookie: t.cookie },
  });
}

/** Uploads an enrichment file and waits for its task; returns the finished task. */
async function upload(name: string, columns: Column[], content: string | Buffer) {
  const res = await post({ name, mappings: JSON.stringify(columns) }, content);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().task.type).toBe('enrichment');
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  return task;
}

async function files(): Promise<{ _id: string; name: string; date: string; recordCount: number }[]> {
  const res = await t.api('GET', '/api/enrichment/files');
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The enrichment of each of the given addresses (null when none), by e-mail. */
async function enrichmentOf(...emails: string[]): Promise<Record<string, Record<string, string> | null>> {
  const out: Record<string, Record<string, string> | null> = {};
  for (const email of emails) {
    const { rows } = await t.db.execute<{ attrs: Record<string, string> }>(
      sql`SELECT e.attrs FROM address_enrichment e JOIN addresses a ON a.id = e.address_id WHERE a.email = ${email}`,
    );
    out[email] = rows[0]?.attrs ?? null;
  }
  return out;
}

/** The addresses (by e-mail) a selection with this tree counts, through the selection routes. */
async function selected(query: QueryNode): Promise<string[]> {
  const campaignId = await makeCampaign(t, t.cookie);
  const mailing = await makeMailing(t, t.cookie, campaignId);
  const url = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };
  const created = await t.api('POST', url, { query, ...open });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().selectionId;
  const res = await t.api('GET', `${url}/${id}/query`);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  const total = (task.result as ResultRow[]).reduce((n, r) => n + r.total, 0);
  // Allocate everything, so the chosen addresses can be named.
  const all = (task.result as ResultRow[]).map((r) => ({ dataset: r.dataset.id, new: r.new }));
  if (total > 0) {
    const saved = await t.api('POST', `${url}/${id}/query`, { table: all });
    expect((await waitForTask(t, t.cookie, saved.json().task._id)).state).toBe('done');
  }
  const { rows } = await t.db.execute<{ email: string }>(sql`SELECT a.email FROM mailing_addresses m
    JOIN addresses a ON a.id = m.address_id WHERE m.mailing_id = ${mailing._id} ORDER BY a.email`);
  expect(rows).toHaveLength(total);
  return rows.map((r) => r.email);
}

// One dataset: e1 and e4 live at 1011AB 1 (one household, written differently); e4's record has a
// segment of its own; e2 and e3 elsewhere; e5 has no attributes.
beforeAll(async () => {
  const ds = await setupDataset(t, [
    columnMapping('postcode', 'postcode'),
    columnMapping('huisnummer', 'huisnummer'),
    columnMapping('segment', 'segment'),
  ]);
  await importFile(
    t,
    t.cookie,
    ds,
    'email,postcode,huisnummer,segment\n' +
      'e1@verrijk.nl,1011AB,1,\n' +
      'e2@verrijk.nl,1011AB,2,brons\n' +
      'e3@verrijk.nl,2000CD,10,\n' +
      'e4@verrijk.nl, 1011ab ,1,brons\n' +
      'e5@verrijk.nl,,,\n',
  );
});

describe('enrichment files', () => {
  it('matches by e-mail: counts matched addresses, lists the file and its attribute, and a selection line uses it', async () => {
    const task = await upload(
      'Klantniveau',
      [match('Email', 'email'), enrich('Niveau', 'klantniveau')],
      'Email;Niveau;Overig\n E1@Verrijk.nl ;Goud;x\ne9@nergens.nl;zilver;x\nkapot;brons;x\ne2@verrijk.nl;;x\n',
    );
    // e1 and e2 matched (e2 without a value: matched, nothing added); e9 unknown; 'kapot' no address.
    expect(task.result).toEqual({ read: 4, saved: 2, erased: 0 });
    const listed = (await files()).find((f) => f.name === 'Klantniveau');
    expect(listed).toMatchObject({ recordCount: 2 });
    expect(Number.isNaN(Date.parse(listed?.date ?? ''))).toBe(false);
    expect(await enrichmentOf('e1@verrijk.nl', 'e2@verrijk.nl')).toEqual({
      'e1@verrijk.nl': { klantniveau: 'Goud' },
      'e2@verrijk.nl': null,
    });
    expect((await t.api('GET', '/api/global-mappings')).json()).toContain('klantniveau');
    expect(await selected({ and: [{ match: { klantniveau: 'goud' } }] })).toEqual(['e1@verrijk.nl']);
    expect(await selected({ and: [{ not: { in: { klantniveau: ['GOUD', 'x'] } } }] })).not.toContain(
      'e1@verrijk.nl',
    );
    expect((await t.api('DELETE', '/api/enrichment/files/Klantniveau')).statusCode).toBe(200);
  });

  it("matches by two attributes of records (case and space as a selection line compares); a record's own value wins", async () => {
    const task = await upload(
      'Regio',
      [
        match('pc', 'postcode'),
        match('nr', 'huisnummer'),
        enrich('seg', 'segment'),
        enrich('regio', 'regio'),
      ],
      'pc,nr,seg,regio\n 1011AB ,1,zilver,Noord\n2000cd,10,goud,Zuid\n1011AB,99,x,y\n1011AB,,x,y\n',
    );
    // 1011AB 1 is e1 and e4; 2000CD 10 is e3; 1011AB 99 nobody; a row without huisnummer matches nobody.
    expect(task.result).toEqual({ read: 4, saved: 3, erased: 0 });
    expect((await files()).find((f) => f.name === 'Regio')?.recordCount).toBe(3);
    expect(await enrichmentOf('e1@verrijk.nl', 'e3@verrijk.nl', 'e4@verrijk.nl', 'e2@verrijk.nl')).toEqual({
      'e1@verrijk.nl': { segment: 'zilver', regio: 'Noord' },
      'e3@verrijk.nl': { segment: 'goud', regio: 'Zuid' },
      'e4@verrijk.nl': { segment: 'zilver', regio: 'Noord' },
      'e2@verrijk.nl': null,
    });
    expect(await selected({ and: [{ match: { regio: 'noord' } }] })).toEqual([
      'e1@verrijk.nl',
      'e4@verrijk.nl',
    ]);
    // e4's record says brons: its own value wins over the file's zilver.
    expect(await selected({ and: [{ match: { segment: 'zilver' } }] })).toEqual(['e1@verrijk.nl']);
    expect(await selected({ and: [{ in: { segment: ['brons'] } }] })).toEqual([
      'e2@verrijk.nl',
      'e4@verrijk.nl',
    ]);
    expect(await selected({ and: [{ range: { segment: ['g', 'h'] } }] })).toEqual(['e3@verrijk.nl']);
    expect((await t.api('DELETE', '/api/enrichment/files/Regio')).statusCode).toBe(200);
    expect(await enrichmentOf('e1@verrijk.nl', 'e3@verrijk.nl')).toEqual({
      'e1@verrijk.nl': null,
      'e3@verrijk.nl': null,
    });
  });

  it("an address several rows match takes the last row's values; Verrijk values are trimmed, blank ones add nothing", async () => {
    const task = await upload(
      'Laatste regel',
      [match('email', 'email'), enrich('niveau', 'niveau'), enrich('kleur', 'Kleur')],
      // e3 three times (written differently): the last row counts, with its blank niveau left out.
      'email;niveau;kleur\ne3@verrijk.nl;goud;groen\n E3@Verrijk.NL ;zilver;blauw\n' +
        'e5@verrijk.nl; \t ;""\ne3@verrijk.nl;  ;\u00a0rood \n',
    );
    // Two addresses matched: e3 (once) and e5, which gets nothing (all its values blank).
    expect(task.result).toEqual({ read: 4, saved: 2, erased: 0 });
    expect(await enrichmentOf('e3@verrijk.nl', 'e5@verrijk.nl')).toEqual({
      'e3@verrijk.nl': { Kleur: 'rood' },
      'e5@verrijk.nl': null,
    });
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM enrichment_values v
      JOIN enrichment_files f ON f.id = v.file_id WHERE f.name = 'Laatste regel'`);
    expect(rows[0].n).toBe(1);
    expect(
      (await t.api('DELETE', `/api/enrichment/files/${encodeURIComponent('Laatste regel')}`)).statusCode,
    ).toBe(200);
    expect(await enrichmentOf('e3@verrijk.nl')).toEqual({ 'e3@verrijk.nl': null });
  });

  it('a large upload and its delete leave PostgreSQL figures of the tables that match their rows', async () => {
    // Stale figures (a table vacuumed empty is taken to hold no rows, however many follow) made the
    // next delete's plan quadratic; a change of over 1,000 rows and a tenth of a table analyzes it.
    await t.db.execute(sql`INSERT INTO addresses (email, domain)
      SELECT 'groot.' || g || '@verrijk.nl', 'verrijk.nl' FROM generate_series(1, 3000) g`);
    await t.db.execute(sql`VACUUM address_enrichment, enrichment_values`);
    const figures = async () => {
      const { rows } = await t.db.execute<{
        relname: string;
        n: number;
      }>(sql`SELECT relname, reltuples::float8 AS n
        FROM pg_class WHERE relname IN ('address_enrichment', 'enrichment_values') ORDER BY relname`);
      return Object.fromEntries(rows.map((r) => [r.relname, r.n]));
    };
    let content = 'email;score\n';
    for (let i = 1; i <= 3000; i++) content += `groot.${i}@verrijk.nl;${i}\n`;
    const task = await upload('Groot', [match('email', 'email'), enrich('score', 'score')], content);
    expect(task.result).toEqual({ read: 3000, saved: 3000, erased: 0 });
    const after = await figures();
    expect(after.address_enrichment).toBeGreaterThanOrEqual(3000);
    expect(after.enrichment_values).toBeGreaterThanOrEqual(3000);
    expect((await t.api('DELETE', '/api/enrichment/files/Groot')).statusCode).toBe(200);
    const gone = await figures();
    expect(gone.address_enrichment).toBeLessThan(100);
    expect(gone.enrichment_values).toBeLessThan(100);
    expect(await enrichmentOf('groot.1@verrijk.nl')).toEqual({ 'groot.1@verrijk.nl': null });
  });

  it('the latest file wins between files; deleting a file removes exactly what it added', async () => {
    const first = await upload(
      'Eerst',
      [match('email', 'email'), enrich('niveau', 'niveau'), enrich('sinds', 'klantSinds')],
      'email,niveau,sinds\ne1@verrijk.nl,goud,2001-01-01\ne2@verrijk.nl,zilver,\n',
    );
    expect(first.result).toMatchObject({ saved: 2 });
    await upload(
      'Later',
      [match('email', 'email'), enrich('niveau', 'niveau'), enrich('kleur', 'kleur')],
      'email,niveau,kleur\ne1@verrijk.nl,platina,rood\ne3@verrijk.nl,brons,\n',
    );
    const listed = (await files()).filter((f) => f.name === 'Eerst' || f.name === 'Later');
    expect(listed.map((f) => f.name)).toEqual(['Eerst', 'Later']);
    expect(Date.parse(listed[0].date)).toBeLessThan(Date.parse(listed[1].date));
    const e = ['e1@verrijk.nl', 'e2@verrijk.nl', 'e3@verrijk.nl'];
    expect(await enrichmentOf(...e)).toEqual({
      'e1@verrijk.nl': { niveau: 'platina', klantSinds: '2001-01-01', kleur: 'rood' },
      'e2@verrijk.nl': { niveau: 'zilver' },
      'e3@verrijk.nl': { niveau: 'brons' },
    });
    expect(
      await selected({
        and: [{ dateRange: { klantSinds: ['01-01-2000', '31-12-2002'] } }, { match: { niveau: 'platina' } }],
      }),
    ).toEqual(['e1@verrijk.nl']);

    // Deleting the later file brings the earlier file's value back.
    const del = await t.api('DELETE', '/api/enrichment/files/Later');
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: EnrichmentMessages.deleted });
    expect(await enrichmentOf(...e)).toEqual({
      'e1@verrijk.nl': { niveau: 'goud', klantSinds: '2001-01-01' },
      'e2@verrijk.nl': { niveau: 'zilver' },
      'e3@verrijk.nl': null,
    });
    expect(await selected({ and: [{ match: { niveau: 'goud' } }] })).toEqual(['e1@verrijk.nl']);

    // Upload it again and delete the earlier one: the later file's values stay, the rest go.
    await upload(
      'Later',
      [match('email', 'email'), enrich('niveau', 'niveau'), enrich('kleur', 'kleur')],
      'email,niveau,kleur\ne1@verrijk.nl,platina,rood\ne3@verrijk.nl,brons,\n',
    );
    expect((await t.api('DELETE', '/api/enrichment/files/Eerst')).statusCode).toBe(200);
    expect(await enrichmentOf(...e)).toEqual({
      'e1@verrijk.nl': { niveau: 'platina', kleur: 'rood' },
      'e2@verrijk.nl': null,
      'e3@verrijk.nl': { niveau: 'brons' },
    });
    expect((await t.api('DELETE', '/api/enrichment/files/Later')).statusCode).toBe(200);
    expect(await enrichmentOf(...e)).toEqual({
      'e1@verrijk.nl': null,
      'e2@verrijk.nl': null,
      'e3@verrijk.nl': null,
    });
    const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM enrichment_values`);
    expect(rows[0].n).toBe(0);
    expect((await files()).map((f) => f.name)).not.toContain('Later');
  });
  it('deleting a middle file keeps the latest value; deleting the latest brings back the one before', async () => {
    const columns = [match('email', 'email'), enrich('stand', 'stand')];
    for (const [name, value] of [
      ['Een', 'a'],
      ['Twee', 'b'],
      ['Drie', 'c'],
    ])
      await upload(name, columns, `email,stand\ne5@verrijk.nl,${value}\n`);
    expect(await enrichmentOf('e5@verrijk.nl')).toEqual({ 'e5@verrijk.nl': { stand: 'c' } });
    await t.api('DELETE', '/api/enrichment/files/Twee');
    expect(await enrichmentOf('e5@verrijk.nl')).toEqual({ 'e5@verrijk.nl': { stand: 'c' } });
    await t.api('DELETE', '/api/enrichment/files/Drie');
    expect(await enrichmentOf('e5@verrijk.nl')).toEqual({ 'e5@verrijk.nl': { stand: 'a' } });
    await t.api('DELETE', '/api/enrichment/files/Een');
    expect(await enrichmentOf('e5@verrijk.nl')).toEqual({ 'e5@verrijk.nl': null });
  });
  it('two uploads at once are applied one after the other: the later-dated file wins', async () => {
    const columns = JSON.stringify([match('email', 'email'), enrich('kanaal', 'kanaal')]);
    const started = await Promise.all(
      ['post', 'telefoon'].map((value) =>
        post({ name: `Tegelijk ${value}`, mappings: columns }, `email,kanaal\ne3@verrijk.nl,${value}\n`),
      ),
    );
    for (const res of started) {
      expect(res.statusCode, res.body).toBe(200);
      expect((await waitForTask(t, t.cookie, res.json().task._id)).state).toBe('done');
    }
    const both = (await files()).filter((f) => f.name.startsWith('Tegelijk '));
    expect(both).toHaveLength(2);
    const latest = both[1].name.replace('Tegelijk ', '');
    expect(await enrichmentOf('e3@verrijk.nl')).toEqual({ 'e3@verrijk.nl': { kanaal: latest } });
    await t.api('DELETE', `/api/enrichment/files/${encodeURIComponent(both[1].name)}`);
    const earlier = both[0].name.replace('Tegelijk ', '');
    expect(await enrichmentOf('e3@verrijk.nl')).toEqual({ 'e3@verrijk.nl': { kanaal: earlier } });
    await t.api('DELETE', `/api/enrichment/files/${encodeURIComponent(both[0].name)}`);
    expect(await enrichmentOf('e3@verrijk.nl')).toEqual({ 'e3@verrijk.nl': null });
  });
  it('two uploads of one name at once: one file, the other refused (409) or failed with the reason', async () => {
    const columns = JSON.stringify([match('email', 'email'), enrich('x', 'tweeling')]);
    const started = await Promise.all(
      [1, 2].map((n) => post({ name: 'Tweeling', mappings: columns }, `email,x\ne3@verrijk.nl,${n}\n`)),
    );
    const outcomes: string[] = [];
    for (const res of started) {
      if (res.statusCode === 409) {
        outcomes.push(res.json().message);
        continue;
      }
      expect(res.statusCode, res.body).toBe(200);
      const task = await waitForTask(t, t.cookie, res.json().task._id);
      outcomes.push(task.state === 'done' ? 'done' : task.error);
    }
    expect([...outcomes].sort()).toEqual([EnrichmentMessages.nameTaken('Tweeling'), 'done'].sort());
    expect((await files()).filter((f) => f.name === 'Tweeling')).toHaveLength(1);
    await t.api('DELETE', '/api/enrichment/files/Tweeling');
    expect(await enrichmentOf('e3@verrijk.nl')).toEqual({ 'e3@verrijk.nl': null });
  });
});

describe('enrichment bad input', () => {
  const good = JSON.stringify([match('email', 'email'), enrich('x', 'x')]);
  const content = 'email,x\ne1@verrijk.nl,1\n';

  /** Posts and expects a 400/409 with the message, and that nothing was written and no staging table is left. */
  async function refused(res: Awaited<ReturnType<typeof post>>, status: number, message: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toBe(message);
    const left = await t.db.execute<{ n: number }>(sql`SELECT
      (SELECT count(*) FROM enrichment_files WHERE name LIKE 'Fout%')::int
      + (SELECT count(*) FROM pg_tables WHERE tablename LIKE 'stg\\_%')::int AS n`);
    expect(left.rows[0].n).toBe(0);
    const { rows } = await t.db.execute<{ state: string }>(
      sql`SELECT state FROM tasks WHERE type = 'enrichment' AND state NOT IN ('done', 'failed')`,
    );
    expect(rows).toEqual([]);
  }

  it('refuses a missing name, bad mappings, an unknown column and a taken name with the rule', async () => {
    await refused(await post({ mappings: good }, content), 400, EnrichmentMessages.nameRequired);
    await refused(await post({ name: '  ', mappings: good }, content), 400, EnrichmentMessages.nameRequired);
    await refused(
      await post({ name: 'Fout1', mappings: '{kapot' }, content),
      400,
      EnrichmentMessages.mappingsInvalid,
    );
    await refused(
      await post({ name: 'Fout2', mappings: JSON.stringify({ field: 'email' }) }, content),
      400,
      'Ongeldige invoer: verwacht array, ontving object',
    );
    await refused(
      await post({ name: 'Fout3', mappings: '[]' }, content),
      400,
      EnrichmentMessages.mappingRequired,
    );
    await refused(
      await post(
        {
          name: 'Fout4',
          mappings: JSON.stringify([enrich('x', 'x'), { field: 'email', mapped: '', match: true }]),
        },
        content,
      ),
      400,
      EnrichmentMessages.matchRequired,
    );
    await refused(
      await post(
        { name: 'Fout5', mappings: JSON.stringify([match('email', 'email'), enrich('x', 'Email')]) },
        content,
      ),
      400,
      [EnrichmentMessages.attributeTwice('Email'), EnrichmentMessages.emailEnriched].join('\n'),
    );
    await refused(
      await post({ name: 'Fout6', mappings: JSON.stringify([match('mail', 'email')]) }, content),
      400,
      EnrichmentMessages.columnUnknown('mail'),
    );
    await upload('Bezet', JSON.parse(good), content);
    await refused(
      await post({ name: ' Bezet ', mappings: good }, content),
      409,
      EnrichmentMessages.nameTaken('Bezet'),
    );
    expect((await t.api('DELETE', '/api/enrichment/files/Bezet')).statusCode).toBe(200);
  });

  it('refuses no file, a file that is not .csv, a binary file and UTF-16 without a BOM; 404 deleting an unknown file', async () => {
    await refused(await post({ name: 'Fout7', mappings: good }, null), 400, ImportMessages.noFile);
    await refused(
      await post({ name: 'Fout8', mappings: good }, content, 'lijst.xlsx'),
      400,
      ImportMessages.onlyCsv,
    );
    const binary = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0, 0xff, 0xfe, 0, 1, 2, 3]);
    await refused(await post({ name: 'Fout9', mappings: good }, binary), 400, CsvMessages.notCsv);
    await refused(
      await post({ name: 'Fout10', mappings: good }, Buffer.from(content, 'utf16le')),
      400,
      CsvMessages.notCsv,
    );
    // With its BOM (Excel's 'Unicode text') UTF-16 is read like any upload.
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(content, 'utf16le')]);
    const utf16 = await upload('Utf16', JSON.parse(good), bom);
    expect(utf16.result).toMatchObject({ saved: 1 });
    expect((await t.api('DELETE', '/api/enrichment/files/Utf16')).statusCode).toBe(200);
    const gone = await t.api('DELETE', '/api/enrichment/files/Bestaat%20niet');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(EnrichmentMessages.notFound);
  });

  it('refuses attribute and file names the name rule refuses (common/names.ts)', async () => {
    for (const attribute of ['__proto__', 'a"b', 'constructor', 'regio__bi', 'post code']) {
      const mappings = JSON.stringify([match('email', 'email'), enrich('x', attribute)]);
      await refused(
        await post({ name: 'Fout13', mappings }, content),
        400,
        nameMessage('attribute', attribute, nameProblem(attribute, 'attribute')!),
      );
    }
    for (const name of ['..', '.', 'Fout/14', 'Fout\\15', 'Fout\u000716']) {
      const res = await post({ name, mappings: good }, content);
      expect([res.statusCode, res.json().message], name).toEqual([
        400,
        nameMessage('file', name, nameProblem(name, 'file')!),
      ]);
    }
    expect((await files()).map((f) => f.name)).not.toContain('..');
  });

  it('deletes a file whose name no URL path carries (made before the rule) by ?name=', async () => {
    await upload('Oud', JSON.parse(good), content);
    await t.db.execute(sql`UPDATE enrichment_files SET name = '..' WHERE name = 'Oud'`);
    expect((await files()).map((f) => f.name)).toContain('..');
    const res = await t.api('DELETE', `/api/enrichment/files?name=${encodeURIComponent('..')}`);
    expect([res.statusCode, res.json().message]).toEqual([200, EnrichmentMessages.deleted]);
    expect((await files()).map((f) => f.name)).not.toContain('..');
    const again = await t.api('DELETE', '/api/enrichment/files?name=..');
    expect([again.statusCode, again.json().message]).toEqual([404, EnrichmentMessages.notFound]);
    expect((await t.api('DELETE', '/api/enrichment/files?name=')).statusCode).toBe(400);
  });

  it('refuses to match on an encrypted attribute', async () => {
    await setupDataset(t, [columnMapping('geheim', 'geheimKenmerk', { encrypted: true })]);
    await refused(
      await post({ name: 'Fout12', mappings: JSON.stringify([match('email', 'geheimKenmerk')]) }, content),
      400,
      EnrichmentMessages.encrypted('geheimKenmerk'),
    );
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/enrichment/files' });
    expect(res.statusCode).toBe(401);
  });
});
