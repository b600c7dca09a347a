import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { columnMapping as col, importFile, setupDataset, waitForTask } from '../../test/imports';

const t = setupTestApp();

const FILE = [
  'email,geslacht,geboren,Postcode,Telefoon',
  'a@pre.nl,man,17-05-1980,1234 AB,0612',
  'b@pre.nl,Vrouw,01-12-1975,,',
  'c@pre.nl,x,geen datum,9999ZZ,0699',
].join('\n');

describe('GET /api/datasets/{p}/{d}/preview', () => {
  it('shows the first records with the file columns beside the mapped attributes, refreshed by a remap', async () => {
    const mappings = [
      col('geslacht', 'gender', {
        values: [
          { original: 'man', mapped: 'M', insensitive: true },
          { original: 'vrouw', mapped: 'F', insensitive: true },
        ],
      }),
      col('geboren', 'geboortedatum', { date: 'DD-MM-YYYY' }),
      col('Postcode', 'postcode', { strip: true }),
      col('Telefoon', 'telefoon', { encrypted: true }),
      { type: 'extra' as const, mapped: 'bron', value: 'web', encrypted: false },
    ];
    const s = await setupDataset(t, mappings);
    await importFile(t, t.cookie, s, FILE);
    const base = `/api/datasets/${s.partnerId}/${s.datasetId}`;
    const res = await t.api('GET', `${base}/preview`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({
      columns: ['email', 'geslacht', 'geboren', 'Postcode', 'Telefoon'],
      attributes: ['gender', 'geboortedatum', 'postcode', 'telefoon', 'bron'],
      applied: true,
      recordCount: 3,
    });
    const byEmail = Object.fromEntries(preview.rows.map((r: { email: string }) => [r.email, r])) as Record<
      string,
      { values: (string | null)[]; attrs: (string | null)[] }
    >;
    // Encrypted values decrypted (as the CSV download shows them), empty ones null.
    expect(byEmail['a@pre.nl'].values).toEqual(['a@pre.nl', 'man', '17-05-1980', '1234 AB', '0612']);
    const stored = await t.database.pool.query(
      `SELECT r.attrs ->> 'telefoon' AS tel FROM records r JOIN addresses a ON a.id = r.address_id WHERE a.email = 'a@pre.nl'`,
    );
    expect(stored.rows[0].tel).toMatch(/^enc:v1:/);
    expect(byEmail['a@pre.nl'].attrs).toEqual(['M', '1980-05-17 00:00:00', '1234AB', '0612', 'web']);
    expect(byEmail['b@pre.nl'].values).toEqual(['b@pre.nl', 'Vrouw', '01-12-1975', null, null]);
    expect(byEmail['b@pre.nl'].attrs[0]).toBe('F');
    expect(byEmail['c@pre.nl'].attrs[0]).toBe('x');
    // ?limit takes the first records by address id.
    const limited = (await t.api('GET', `${base}/preview?limit=2`)).json();
    expect(limited.rows).toHaveLength(2);
    expect(limited.rows.map((r: { email: string }) => r.email)).toEqual(
      preview.rows.slice(0, 2).map((r: { email: string }) => r.email),
    );

    // A saved mapping the records were not built with: applied false until the remap.
    const changed = [
      { ...mappings[0], values: [{ original: 'man', mapped: 'Man', insensitive: true }] },
      ...mappings.slice(1),
    ];
    expect((await t.api('PUT', `${base}/mappings`, changed)).statusCode).toBe(200);
    const before = (await t.api('GET', `${base}/preview`)).json();
    expect(before.applied).toBe(false);
    expect(before.rows.find((r: { email: string }) => r.email === 'a@pre.nl').attrs[0]).toBe('M');
    const remap = await t.api('POST', `${base}/remap`);
    expect((await waitForTask(t, t.cookie, remap.json().task._id)).state).toBe('done');
    const after = (await t.api('GET', `${base}/preview`)).json();
    expect(after.applied).toBe(true);
    const a = after.rows.find((r: { email: string }) => r.email === 'a@pre.nl');
    expect(a.attrs[0]).toBe('Man');
    expect(after.rows.find((r: { email: string }) => r.email === 'b@pre.nl').attrs[0]).toBe('Vrouw');
  });

  it('answers an empty sample for a dataset without records, 400 for a bad limit, 404 and 401', async () => {
    const s = await setupDataset(t);
    const base = `/api/datasets/${s.partnerId}/${s.datasetId}`;
    expect((await t.api('GET', `${base}/preview`)).json()).toEqual({
      columns: [],
      attributes: [],
      applied: false,
      recordCount: 0,
      rows: [],
    });
    for (const limit of ['0', '101', 'abc', '1.5', '-1'])
      expect((await t.api('GET', `${base}/preview?limit=${limit}`)).statusCode).toBe(400);
    expect((await t.api('GET', '/api/datasets/x/y/preview')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${base}/preview` })).statusCode).toBe(401);
  });
});
