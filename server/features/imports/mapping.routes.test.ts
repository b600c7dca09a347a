import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { csvBody } from '../../test/csv';
import { columnMapping as col, importFile, recordsOf, setupDataset, waitForTask } from '../../test/imports';
import { datasetCsv } from '../uploads/csv-download';

const t = setupTestApp();

const put = (url: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, payload: payload as object, headers: { cookie: t.cookie } });

describe('column mappings', () => {
  it('stores the file headers and the mapping list (ids dropped), and adds new names to the global list', async () => {
    const s = await setupDataset(t);
    await importFile(t, t.cookie, s, 'email,Voornaam,Postcode\na@m.nl,Anna,1234AB\n');
    const base = `/api/datasets/${s.partnerId}/${s.datasetId}`;
    expect((await t.api('GET', `${base}/headers`)).json()).toEqual(['email', 'Voornaam', 'Postcode']);
    const list = [
      { ...col('Voornaam', 'firstName'), id: 'row-1' },
      { ...col('Postcode', 'postcodeNieuw', { strip: true }), id: 'row-2' },
      { type: 'extra', mapped: 'bron', value: 'web', encrypted: false },
    ];
    const saved = await put(`${base}/mappings`, list);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe('Opgeslagen');
    const stored = (await t.api('GET', `${base}/mappings`)).json();
    expect(stored).toHaveLength(3);
    expect(stored[0]).not.toHaveProperty('id');
    expect(stored[1]).toMatchObject({ field: 'Postcode', mapped: 'postcodeNieuw', strip: true });
    expect((await t.api('GET', '/api/global-mappings')).json()).toContain('postcodeNieuw');
  });

  it.each([
    [[col('a', 'x', { date: 'DD-QQ-YYYY' })], 'Onbekend datumformaat-token: QQ'],
    [[col('a', 'x', { exclude: '/[a-/' })], 'Ongeldige reguliere expressie'],
    [[col('a', 'x'), col('b', 'x')], 'De kolom x is meer dan eens gemapt'],
    [
      [col('a', '1abc')],
      'Een kolomnaam bestaat uit letters, cijfers en underscores en begint met een letter',
    ],
    [[col('a', 'x', { trim: -1 } as never)], 'Trim moet een geheel getal van 0 of meer zijn'],
    [[col('a', 'x', { trim: 1.5 } as never)], 'Trim moet een geheel getal van 0 of meer zijn'],
    [[col('a', 'x', { trim: '3' } as never)], 'Trim moet een geheel getal van 0 of meer zijn'],
  ])('refuses an invalid mapping (%#) with a Dutch message', async (list, message) => {
    const s = await setupDataset(t);
    const res = await put(`/api/datasets/${s.partnerId}/${s.datasetId}/mappings`, list);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors ?? [res.json().message]).toContain(message);
  });

  it('answers 404 for an unknown dataset and 401 without a session', async () => {
    expect((await t.api('GET', '/api/datasets/x/y/mappings')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/datasets/x/y/headers' })).statusCode).toBe(401);
  });
});

describe('unique values and value mappings', () => {
  it('counts the unique values of a column, most frequent first', async () => {
    const s = await setupDataset(t, [col('geslacht', 'gender')]);
    await importFile(
      t,
      t.cookie,
      s,
      'email,geslacht\na@u.nl,Man\nb@u.nl,Vrouw\nc@u.nl,Man\nd@u.nl, Man \ne@u.nl,\n',
    );
    const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/geslacht/unique-values`);
    expect(res.json()).toEqual([
      { value: 'Man', amount: 3 },
      { value: '', amount: 1 },
      { value: 'Vrouw', amount: 1 },
    ]);
  });

  it('answers 404 for a field that is not a column of the files', async () => {
    const s = await setupDataset(t, [col('geslacht', 'gender')]);
    await importFile(t, t.cookie, s, 'email,geslacht\na@u.nl,Man\n');
    for (const field of ['plaats', 'Geslacht', '__proto__']) {
      const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/${field}/unique-values`);
      expect(res.statusCode, field).toBe(404);
      expect(res.json().message).toBe(`Het bestand heeft geen kolom ${field}`);
    }
  });

  it('refuses unique values of an encrypted column', async () => {
    const s = await setupDataset(t, [col('tel', 'phone', { encrypted: true })]);
    const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/tel/unique-values`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('An encrypted mapping cannot be edited');
  });

  it('lists value mappings per attribute, the copy list and the value-mapped overview', async () => {
    const field = `sekse${Date.now()}`;
    const a = await setupDataset(t, [
      col('g', field, {
        values: [
          { original: 'Man', mapped: 'M', insensitive: false },
          { original: 'Vrouw', mapped: 'F', insensitive: true },
        ],
      }),
    ]);
    const b = await setupDataset(t, [
      col('geslacht', field, { values: [{ original: 'Man', mapped: 'M', insensitive: false }] }),
    ]);
    const rows = (await t.api('GET', `/api/value-mappings/${field}`)).json();
    expect(rows).toEqual([
      { original: 'Man', mapped: 'M', insensitive: false },
      { original: 'Vrouw', mapped: 'F', insensitive: true },
    ]);
    expect((await t.api('GET', `/api/value-mappings/${field}/copy`)).json()).toHaveLength(2);
    expect((await t.api('GET', '/api/valuemapped')).json()).toContain(field);
    const detail = (await t.api('GET', `/api/valuemapped/${field}`)).json();
    expect(detail.map((d: { _id: string }) => d._id)).toEqual(['F', 'M']);
    const m = detail.find((d: { _id: string }) => d._id === 'M');
    expect(m.datasets.map((d: { id: string }) => d.id).sort()).toEqual([a.datasetId, b.datasetId].sort());
    expect(m.datasets[0]).toMatchObject({
      partner: expect.any(String),
      name: expect.any(String),
      description: '',
    });
  });
});

describe('dataset CSV download', () => {
  it('streams the original columns as uploaded, quoted where needed, encrypted ones decrypted', async () => {
    const s = await setupDataset(t, [col('Telefoon', 'phone', { encrypted: true })]);
    await importFile(
      t,
      t.cookie,
      s,
      'email;Naam;Telefoon\nb@csv.nl;"Jansen, J.";0612\na@csv.nl;"Zeg ""hoi""";\n',
    );
    const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment');
    const rows = parse(csvBody(res)) as string[][];
    expect(rows[0]).toEqual(['email', 'Naam', 'Telefoon']);
    expect(rows.slice(1).sort()).toEqual([
      ['a@csv.nl', 'Zeg "hoi"', ''],
      ['b@csv.nl', 'Jansen, J.', '0612'],
    ]);
  });

  it('offers the Excel variant: BOM, semicolons, fields quoted for ; " and line breaks, ciphertext decrypted', async () => {
    const s = await setupDataset(t, [col('Telefoon', 'phone', { encrypted: true })]);
    await importFile(
      t,
      t.cookie,
      s,
      'email,Naam,Telefoon\na@xl.nl,"José; ""Jos"" Jansen","06;12\n34"\nb@xl.nl,"Smit, A.",\n',
    );
    const url = `/api/datasets/${s.partnerId}/${s.datasetId}/csv`;
    const excel = await t.api('GET', `${url}?format=excel`);
    expect(excel.statusCode).toBe(200);
    expect(excel.headers['content-type']).toContain('text/csv');
    expect(excel.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const body = csvBody(excel);
    // Rows by address id (new addresses go in in e-mail order). A comma needs no quotes here.
    expect(body).toBe(
      'email;Naam;Telefoon\r\na@xl.nl;"José; ""Jos"" Jansen";"06;12\n34"\r\nb@xl.nl;Smit, A.;\r\n',
    );
    expect(parse(body, { delimiter: ';' })).toEqual([
      ['email', 'Naam', 'Telefoon'],
      ['a@xl.nl', 'José; "Jos" Jansen', '06;12\n34'],
      ['b@xl.nl', 'Smit, A.', ''],
    ]);
    // The comma file of the same records, with the same BOM.
    expect(csvBody(await t.api('GET', url))).toBe(
      'email,Naam,Telefoon\r\na@xl.nl,"José; ""Jos"" Jansen","06;12\n34"\r\nb@xl.nl,"Smit, A.",\r\n',
    );
    expect(csvBody(await t.api('GET', `${url}?format=csv`))).toContain('"Smit, A."');
    const bad = await t.api('GET', `${url}?format=xlsx`);
    expect(bad.statusCode).toBe(400);
  });

  it("streams many rows through PostgreSQL's CSV: line breaks, quotes, empty values, ciphertext decrypted", async () => {
    const s = await setupDataset(t, [col('Telefoon', 'phone', { encrypted: true })]);
    // 20,000 rows: the COPY output comes in many chunks, ciphertext fields cut between them.
    const rows = Array.from({ length: 20_000 }, (_, i) => [
      `p${String(i).padStart(5, '0')}@groot.nl`,
      i % 3 === 0 ? `Regel ${i}\nmet "aanhalingstekens", en €` : i % 3 === 1 ? '' : `Naam ${i}`,
      i % 5 === 0 ? '' : `06-${i}, "privé"`,
    ]);
    const field = (v: string) => (/[";\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    const file = `email;Naam;Telefoon\n${rows.map((r) => r.map(field).join(';')).join('\n')}\n`;
    expect(await importFile(t, t.cookie, s, file)).toMatchObject({ saved: 20_000 });
    const stored = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM records r JOIN dataset_mappings m ON m.dataset_id = r.dataset_id
       WHERE r.dataset_id = $1 AND r.raw[array_position(m.raw_columns, 'Telefoon')] LIKE 'enc:v1:%'`,
      [s.datasetId],
    );
    expect(stored.rows[0].n).toBe(16_000);
    const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/csv`);
    expect(res.statusCode).toBe(200);
    expect(csvBody(res).split('\r\n')).toHaveLength(20_002);
    const csv = parse(csvBody(res)) as string[][];
    expect(csv[0]).toEqual(['email', 'Naam', 'Telefoon']);
    expect(csv.slice(1).sort((x, y) => x[0].localeCompare(y[0]))).toEqual(rows);
  });

  it('closes the connection of a download broken off, and serves the next one', async () => {
    const s = await setupDataset(t);
    const file = `email\n${Array.from({ length: 30_000 }, (_, i) => `b${i}@af.nl`).join('\n')}\n`;
    await importFile(t, t.cookie, s, file);
    const pool = t.database.pool;
    const download = datasetCsv(pool, t.ctx.columnKeys, s.datasetId, ['email'], ['email']);
    expect((await download.next()).value?.toString()).toBe('\uFEFFemail\r\n');
    expect((await download.next()).value?.length).toBeGreaterThan(0);
    // Its connection is in the middle of a COPY: closed, never handed out again.
    const during = pool.totalCount;
    await download.return(undefined);
    expect(pool.totalCount).toBe(during - 1);
    const res = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/csv`);
    expect(parse(csvBody(res))).toHaveLength(30_001);
  });

  it('keeps each value under its column when a later file has other columns in another order', async () => {
    const s = await setupDataset(t, [col('stad', 'city')]);
    await importFile(t, t.cookie, s, 'email,naam,stad\na@kol.nl,Anna,Ede\nb@kol.nl,Bob,Epe\n');
    const second = 'tel,stad,email\n0612,Ede,a@kol.nl\n,Ommen,c@kol.nl\n';
    expect(await importFile(t, t.cookie, s, second)).toMatchObject({ saved: 2, deleted: 1, unchanged: 0 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.raw)).toEqual([
      { email: 'a@kol.nl', stad: 'Ede', tel: '0612' },
      { email: 'c@kol.nl', stad: 'Ommen' },
    ]);
    const csv = parse(
      csvBody(await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/csv`)),
    ) as string[][];
    expect(csv[0]).toEqual(['tel', 'stad', 'email']);
    expect(csv.slice(1).sort((x, y) => x[2].localeCompare(y[2]))).toEqual([
      ['0612', 'Ede', 'a@kol.nl'],
      ['', 'Ommen', 'c@kol.nl'],
    ]);
    const naam = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/naam/unique-values`);
    expect(naam.json()).toEqual([{ value: '', amount: 2 }]);
    const stad = await t.api('GET', `/api/datasets/${s.partnerId}/${s.datasetId}/stad/unique-values`);
    expect(stad.json()).toEqual([
      { value: 'Ede', amount: 1 },
      { value: 'Ommen', amount: 1 },
    ]);
    // A remap reads the values by column: nothing changed.
    const remap = await t.app.inject({
      method: 'POST',
      url: `/api/datasets/${s.partnerId}/${s.datasetId}/remap`,
      headers: { cookie: t.cookie },
    });
    const task = await waitForTask(t, t.cookie, remap.json().task._id);
    expect(task.result).toMatchObject({ read: 2, saved: 0, unchanged: 2 });
  });
});
