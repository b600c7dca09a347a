import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { makeSession } from '../../test/factories';
import { columnMapping as col, importFile, recordsOf, setupDataset } from '../../test/imports';

// The import maps the next slice while it writes one (IMPORT_SLICE_ROWS). With slices of 2 lines,
// every rule that spans the file must still hold across slices.
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ config: { importSliceRows: 2 } });
  cookie = (await makeSession(t.app, t.database.db)).cookie;
});
afterAll(() => t.close());

const mappings = [col('naam', 'firstName'), col('status', 'status', { exclude: 'uit' })];

describe('an import in slices', () => {
  it('keeps the first occurrence of an address across slices and counts every row once', async () => {
    const s = await setupDataset(t, mappings);
    const result = await importFile(
      t,
      cookie,
      s,
      [
        'email,naam,status',
        'a@s.nl,Anna,in', // slice 1
        'b@s.nl,Bob,uit', // excluded
        'B@s.nl,Bas,in', // slice 2: b's first kept row
        'geen-adres,X,in', // invalid
        'A@S.NL,Tweede,in', // slice 3: repeats a
        'c@s.nl,Cor,in',
        'b@s.nl,Later,in', // slice 4: repeats b
      ].join('\n'),
    );
    expect(result).toEqual({ read: 7, saved: 3, skipped: 4, deleted: 0, unchanged: 0 });
    const rows = await recordsOf(t, s.datasetId);
    expect(rows.map((r) => `${r.email}:${r.attrs.firstName}`)).toEqual([
      'a@s.nl:Anna',
      'b@s.nl:Bas',
      'c@s.nl:Cor',
    ]);
  });

  it('re-imports across slices: unchanged, changed, new and deleted', async () => {
    const s = await setupDataset(t, mappings);
    const first =
      'email,naam,status\na@r.nl,Anna,in\nb@r.nl,Bob,in\nc@r.nl,Cor,in\nd@r.nl,Dirk,in\ne@r.nl,Eva,in\n';
    await importFile(t, cookie, s, first);
    expect(await importFile(t, cookie, s, first)).toEqual({
      read: 5,
      saved: 0,
      skipped: 0,
      deleted: 0,
      unchanged: 5,
    });
    const next =
      'email,naam,status\ne@r.nl,Eva,in\nb@r.nl,Bobby,in\nf@r.nl,Fem,in\na@r.nl,Anna,in\nb@r.nl,Dubbel,in\n';
    expect(await importFile(t, cookie, s, next)).toEqual({
      read: 5,
      saved: 2,
      skipped: 1,
      deleted: 2,
      unchanged: 2,
    });
    const rows = await recordsOf(t, s.datasetId);
    expect(rows.map((r) => `${r.email}:${r.attrs.firstName}`)).toEqual([
      'a@r.nl:Anna',
      'b@r.nl:Bobby',
      'e@r.nl:Eva',
      'f@r.nl:Fem',
    ]);
    const [ds] = (
      await t.database.db.execute<{ n: number }>(
        sql`SELECT record_count AS n FROM datasets WHERE id = ${s.datasetId}`,
      )
    ).rows;
    expect(Number(ds.n)).toBe(4);
  });

  it('leaves no work or staging table behind', async () => {
    const tables = await t.database.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'imp\\_%' OR tablename LIKE 'stg\\_%'`,
    );
    expect(Number(tables.rows[0].n)).toBe(0);
  });
});
