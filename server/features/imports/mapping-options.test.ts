import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { decryptValue, tryDecryptValue } from '../../lib/crypto';
import { setupTestApp } from '../../test/app';
import { columnMapping as col, importFile, recordsOf, setupDataset, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { getRecordCount } from './import.queries';
import { saveDatasetMappings } from './mapping.queries';

const t = setupTestApp();

async function attrsAfter(mapping: Parameters<typeof col>[2], field: string, value: string) {
  const s = await setupDataset(t, [col(field, 'out', mapping)]);
  await importFile(t, t.cookie, s, `email;${field}\nx@x.nl;"${value.replace(/"/g, '""')}"\n`);
  return (await recordsOf(t, s.datasetId))[0]?.attrs.out;
}

describe('mapping options', () => {
  it.each([
    ['lower', { lower: true }, 'ÉÉN Twee', 'één twee'],
    ['strip', { strip: true }, ' 12 34  AB ', '1234AB'],
    ['trim', { trim: 4 }, '1234AB', '1234'],
    ['emailDomain', { emailDomain: true }, 'jan@Voorbeeld.nl', 'Voorbeeld.nl'],
    ['date', { date: 'DD-MM-YYYY' }, '05-03-2024', '2024-03-05 00:00:00'],
    ['date with month name', { date: 'D MMMM YYYY' }, '3 maart 2024', '2024-03-03 00:00:00'],
    ['date with time', { date: 'YYYY/MM/DD HH:mm:ss' }, '2024/12/31 23:59:58', '2024-12-31 23:59:58'],
    ['combined', { strip: true, lower: true, trim: 6 }, '1234 ab extra', '1234ab'],
    ['surrounding space trimmed', {}, '  Anna  ', 'Anna'],
  ])('%s', async (_name, mapping, input, expected) => {
    expect(await attrsAfter(mapping, 'v', input)).toBe(expected);
  });

  it('keeps an unparsable date empty and still saves the record', async () => {
    const s = await setupDataset(t, [col('geb', 'birthDate', { date: 'DD-MM-YYYY' })]);
    const result = await importFile(t, t.cookie, s, 'email,geb\na@d.nl,31-02-2024\nb@d.nl,01-01-1990\n');
    expect(result.saved).toBe(2);
    const rows = await recordsOf(t, s.datasetId);
    expect(rows[0].attrs.birthDate).toBeUndefined();
    expect(rows[1].attrs.birthDate).toBe('1990-01-01 00:00:00');
  });

  it('excludes rows by exact value and by /regex/, counting them skipped', async () => {
    const s = await setupDataset(t, [
      col('status', 'status', { exclude: 'afgemeld' }),
      col('bron', 'source', { exclude: '/^test/i' }),
    ]);
    const result = await importFile(
      t,
      t.cookie,
      s,
      'email,status,bron\na@e.nl,actief,web\nb@e.nl,afgemeld,web\nc@e.nl,actief,TEST-lijst\nd@e.nl,actief,beurs\n',
    );
    expect(result).toMatchObject({ read: 4, saved: 2, skipped: 2 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['a@e.nl', 'd@e.nl']);
  });

  it('maps values sensitively and insensitively, others kept', async () => {
    const values = [
      { original: 'Man', mapped: 'M', insensitive: false },
      { original: 'vrouw', mapped: 'F', insensitive: true },
    ];
    const s = await setupDataset(t, [col('geslacht', 'gender', { values })]);
    await importFile(
      t,
      t.cookie,
      s,
      'email,geslacht\na@v.nl,Man\nb@v.nl,MAN\nc@v.nl,VROUW\nd@v.nl,onbekend\n',
    );
    expect((await recordsOf(t, s.datasetId)).map((r) => r.attrs.gender)).toEqual([
      'M',
      'MAN',
      'F',
      'onbekend',
    ]);
  });

  it('adds the extra (fixed value) mappings to every record', async () => {
    const s = await setupDataset(t, [
      { type: 'extra', mapped: 'bron', value: 'beurs2026', encrypted: false },
    ]);
    await importFile(t, t.cookie, s, 'email\na@f.nl\nb@f.nl\n');
    expect((await recordsOf(t, s.datasetId)).map((r) => r.attrs.bron)).toEqual(['beurs2026', 'beurs2026']);
  });

  it('fills postcode companions from one column (trim = digit, strip and lower)', async () => {
    const pc = (n: number) => col('postcode', `pc${n}`, { trim: n, strip: true, lower: true });
    const s = await setupDataset(t, [col('postcode', 'postcode'), pc(1), pc(2), pc(3), pc(4), pc(6)]);
    await importFile(t, t.cookie, s, 'email,postcode\na@p.nl,1234 AB\n');
    expect((await recordsOf(t, s.datasetId))[0].attrs).toEqual({
      postcode: '1234 AB',
      pc1: '1',
      pc2: '12',
      pc3: '123',
      pc4: '1234',
      pc6: '1234ab',
    });
  });
});

describe('encrypted columns', () => {
  it('stores no plain value, only ciphertext and a blind index; re-import is unchanged', async () => {
    const s = await setupDataset(t, [col('telefoon', 'phone', { encrypted: true, strip: true })]);
    const file = 'email,telefoon\na@c.nl,06 1234 5678\nb@c.nl,06 8765 4321\n';
    expect(await importFile(t, t.cookie, s, file)).toMatchObject({ saved: 2 });
    const dump = await t.db.execute(
      sql`SELECT r.raw::text || r.attrs::text AS t FROM records r WHERE dataset_id = ${s.datasetId}`,
    );
    // Ciphertext and blind indexes are random-looking, so they may hold '1234' by chance: look for
    // the whole plain values, and check that every stored value is ciphertext, a blind index or
    // the (plain) e-mail.
    const text = dump.rows.map((r) => r.t).join('\n');
    expect(text).not.toContain('06 1234 5678');
    expect(text).not.toContain('0612345678');
    const rows = await recordsOf(t, s.datasetId);
    const stored = rows.flatMap((r) => [...Object.values(r.raw), ...Object.values(r.attrs)]);
    expect(stored.filter((v) => !/^enc:v1:/.test(v) && !/^[0-9a-f]{64}$/.test(v)).sort()).toEqual([
      'a@c.nl',
      'b@c.nl',
    ]);
    expect(decryptValue(t.ctx.columnKeys(), rows[0].attrs.phone)).toBe('0612345678');
    expect(decryptValue(t.ctx.columnKeys(), rows[0].raw.telefoon)).toBe('06 1234 5678');
    expect(rows[0].attrs.phone__bi).toMatch(/^[0-9a-f]{64}$/);
    expect(await importFile(t, t.cookie, s, file)).toMatchObject({ saved: 0, unchanged: 2 });
    expect(
      await importFile(t, t.cookie, s, 'email,telefoon\na@c.nl,06 1234 5678\nb@c.nl,06 0000 0000\n'),
    ).toMatchObject({
      saved: 1,
      unchanged: 1,
    });
  });
});

describe('remap', () => {
  async function remap(s: { partnerId: string; datasetId: string }) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/datasets/${s.partnerId}/${s.datasetId}/remap`,
      headers: { cookie: t.cookie },
    });
    expect(res.statusCode).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task.state, task.error).toBe('done');
    return task.result;
  }

  it('re-applies a changed mapping from the stored raw columns', async () => {
    const s = await setupDataset(t, [col('naam', 'firstName')]);
    await importFile(t, t.cookie, s, 'email,naam,stad\na@r.nl,Anna,Zwolle\nb@r.nl,Bob,Delft\n');
    await saveDatasetMappings(t.db, s.datasetId, [
      col('naam', 'firstName', { lower: true }),
      col('stad', 'city', { exclude: 'Delft' }),
    ]);
    expect(await remap(s)).toEqual({ read: 2, saved: 1, skipped: 0, deleted: 1, unchanged: 0 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.attrs)).toEqual([
      { firstName: 'anna', city: 'Zwolle' },
    ]);
    expect(await getRecordCount(t.db, s.datasetId)).toBe(1);
    expect(await remap(s)).toEqual({ read: 1, saved: 0, skipped: 0, deleted: 0, unchanged: 1 });
  });

  it('keeps encrypted values encrypted when remapping', async () => {
    const s = await setupDataset(t, [col('tel', 'phone', { encrypted: true })]);
    await importFile(t, t.cookie, s, 'email,tel\na@q.nl,0612\n');
    expect(await remap(s)).toMatchObject({ read: 1, unchanged: 1 });
    const [row] = await recordsOf(t, s.datasetId);
    expect(decryptValue(t.ctx.columnKeys(), row.attrs.phone)).toBe('0612');
  });

  it('finds every record unchanged right after an import, whatever characters its values hold', async () => {
    const s = await setupDataset(t, [col('naam', 'lastName'), col('stad', 'city', { lower: true })]);
    const file =
      'email;naam;stad;leeg\na@u.nl;"Zoë \\ ""de"" Vries\tx";\'s-Hertogenbosch;\nb@u.nl;"twee\nregels";;x\n';
    expect(await importFile(t, t.cookie, s, file)).toMatchObject({ saved: 2 });
    expect(await remap(s)).toEqual({ read: 2, saved: 0, skipped: 0, deleted: 0, unchanged: 2 });
    expect(await importFile(t, t.cookie, s, file)).toMatchObject({ saved: 0, unchanged: 2 });
  });

  it('encrypts the stored values of a column that became encrypted, once', async () => {
    const s = await setupDataset(t, [col('tel', 'phone')]);
    await importFile(t, t.cookie, s, 'email,tel,stad\na@v.nl,0612,Ede\nb@v.nl,,Ede\n');
    await saveDatasetMappings(t.db, s.datasetId, [col('tel', 'phone', { encrypted: true })]);
    // The record without a phone number has nothing to encrypt: unchanged.
    expect(await remap(s)).toMatchObject({ read: 2, saved: 1, unchanged: 1 });
    const rows = await recordsOf(t, s.datasetId);
    expect(tryDecryptValue(t.ctx.columnKeys(), rows[0].raw.tel)).toBe('0612');
    expect(decryptValue(t.ctx.columnKeys(), rows[0].raw.tel)).toBe('0612');
    expect(rows[0].raw.tel__bi).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].raw.stad).toBe('Ede');
    expect(decryptValue(t.ctx.columnKeys(), rows[0].attrs.phone)).toBe('0612');
    expect(rows[1].raw).toEqual({ email: 'b@v.nl', stad: 'Ede' });
    expect(await remap(s)).toMatchObject({ read: 2, saved: 0, unchanged: 2 });
  });

  it('answers 404 for an unknown dataset', async () => {
    const res = await t.api('POST', '/api/datasets/x/y/remap');
    expect(res.statusCode).toBe(404);
  });
});

describe('delete from file', () => {
  it('removes the listed addresses from the dataset and reports how many', async () => {
    const s = await setupDataset(t);
    await importFile(t, t.cookie, s, 'email\na@del.nl\nb@del.nl\nc@del.nl\n');
    const body = multipartBody(
      { emailColumn: 'adres' },
      { name: 'weg.csv', content: 'adres\nB@del.nl\nc@del.nl\nonbekend@del.nl\n' },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/deleteall/${s.partnerId}/${s.datasetId}`,
      payload: body.payload,
      headers: { ...body.headers, cookie: t.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const task = await waitForTask(t, t.cookie, res.json().task._id);
    expect(task.result).toEqual({ read: 3, deleted: 2 });
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['a@del.nl']);
  });

  it('refuses a file without the named column', async () => {
    const s = await setupDataset(t);
    const body = multipartBody({ emailColumn: 'adres' }, { name: 'weg.csv', content: 'email\na@x.nl\n' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/deleteall/${s.partnerId}/${s.datasetId}`,
      payload: body.payload,
      headers: { ...body.headers, cookie: t.cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Het bestand bevat geen kolom genaamd adres');
  });
});
