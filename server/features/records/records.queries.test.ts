import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app';
import { importFile, recordsOf, setupDataset, uploadFile, waitForTask } from '../../test/imports';
import { multipartBody } from '../../test/multipart';
import { getRecordCount } from '../imports/import.queries';
import { dropOrphanPartitions, recordsPartition } from './records.queries';

// Each dataset's records are a partition of records (migration 0010): made by its first import,
// emptied when the dataset is deleted, then detached and dropped by the worker's sweep.
const t = setupTestApp();

const q = (text: string, values: unknown[] = []) => t.database.pool.query(text, values);

/** The dataset's partition as the catalog describes it; undefined when it does not exist. */
async function partitionOf(datasetId: string) {
  const { rows } = await q(
    `SELECT c.oid::int AS oid, pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhrelid IS NOT NULL AS attached,
       (SELECT array_agg(pg_get_indexdef(x.indexrelid)) FROM pg_index x WHERE x.indrelid = c.oid) AS indexes,
       (SELECT count(*)::int FROM records r WHERE r.tableoid = c.oid) AS records
     FROM pg_class c LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND i.inhparent = 'records'::regclass
     WHERE c.oid = to_regclass($1)`,
    [recordsPartition(datasetId)],
  );
  return rows[0] as
    | { oid: number; bound: string; attached: boolean; indexes: string[]; records: number }
    | undefined;
}

describe('a dataset partition', () => {
  it('is made by the first import: attached, holding the records, its primary key its only index', async () => {
    const s = await setupDataset(t);
    expect(await partitionOf(s.datasetId)).toBeUndefined();
    await importFile(t, t.cookie, s, 'email\na@p.nl\nb@p.nl\nA@p.nl\ngeen-adres\n');
    expect(await partitionOf(s.datasetId)).toEqual({
      oid: expect.any(Number),
      bound: `FOR VALUES IN ('${s.datasetId}')`,
      attached: true,
      indexes: [expect.stringMatching(/^CREATE UNIQUE INDEX \S+_pkey ON .* USING btree \(address_id\)$/)],
      records: 2,
    });
    expect(await getRecordCount(t.db, s.datasetId)).toBe(2);
    // A re-import works in the same partition.
    await importFile(t, t.cookie, s, 'email\nb@p.nl\nc@p.nl\n');
    expect((await recordsOf(t, s.datasetId)).map((r) => r.email)).toEqual(['b@p.nl', 'c@p.nl']);
    expect((await partitionOf(s.datasetId))?.records).toBe(2);
  });

  it('takes the next import of an emptied dataset into the same table', async () => {
    const s = await setupDataset(t);
    await importFile(t, t.cookie, s, 'email\nweg@p.nl\n');
    const before = await partitionOf(s.datasetId);
    const body = multipartBody({ emailColumn: 'email' }, { name: 'weg.csv', content: 'email\nweg@p.nl\n' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/deleteall/${s.partnerId}/${s.datasetId}`,
      payload: body.payload,
      headers: { ...body.headers, cookie: t.cookie },
    });
    expect((await waitForTask(t, t.cookie, res.json().task._id)).result).toEqual({ read: 1, deleted: 1 });
    expect((await partitionOf(s.datasetId))?.records).toBe(0);

    const result = await importFile(t, t.cookie, s, 'email\nterug@p.nl\nnieuw@p.nl\n');
    expect(result).toMatchObject({ read: 2, saved: 2, deleted: 0 });
    expect(await partitionOf(s.datasetId)).toMatchObject({ oid: before?.oid, attached: true, records: 2 });
    expect(await getRecordCount(t.db, s.datasetId)).toBe(2);
  });

  it('lets first imports of two datasets run at the same time', async () => {
    const a = await setupDataset(t);
    const b = await setupDataset(t);
    const rows = (p: string) =>
      `email\n${Array.from({ length: 2000 }, (_, i) => `${p}${i}@twee.nl`).join('\n')}\n`;
    const [ra, rb] = await Promise.all([
      uploadFile(t, t.cookie, a, rows('a')),
      uploadFile(t, t.cookie, b, rows('b')),
    ]);
    const [ta, tb] = await Promise.all([
      waitForTask(t, t.cookie, ra.json().task._id),
      waitForTask(t, t.cookie, rb.json().task._id),
    ]);
    expect([ta.state, tb.state]).toEqual(['done', 'done']);
    expect((await partitionOf(a.datasetId))?.records).toBe(2000);
    expect((await partitionOf(b.datasetId))?.records).toBe(2000);
  });
});

describe('deleting datasets', () => {
  it('empties the partition at once; the sweep drops it and leaves the others', async () => {
    const a = await setupDataset(t);
    const b = await setupDataset(t);
    await importFile(t, t.cookie, a, 'email\none@del.nl\ntwo@del.nl\n');
    await importFile(t, t.cookie, b, 'email\none@del.nl\n');
    expect((await t.api('DELETE', `/api/datasets/${a.partnerId}/${a.datasetId}`)).statusCode).toBe(200);
    expect(await partitionOf(a.datasetId)).toMatchObject({ attached: true, records: 0 });

    expect(await dropOrphanPartitions(t.database.pool)).toEqual([recordsPartition(a.datasetId)]);
    expect(await partitionOf(a.datasetId)).toBeUndefined();
    expect(await partitionOf(b.datasetId)).toMatchObject({ attached: true, records: 1 });
    expect(await dropOrphanPartitions(t.database.pool)).toEqual([]);

    // A partner's deletion reaches the partitions of all its datasets.
    expect((await t.api('DELETE', `/api/crud-partner/${b.partnerId}`)).statusCode).toBe(200);
    expect((await partitionOf(b.datasetId))?.records).toBe(0);
    expect(await dropOrphanPartitions(t.database.pool)).toEqual([recordsPartition(b.datasetId)]);
    expect(await partitionOf(b.datasetId)).toBeUndefined();
  });

  it('leaves a partition for the next sweep while records is in use, without waiting long', async () => {
    const s = await setupDataset(t);
    await importFile(t, t.cookie, s, 'email\nbezet@del.nl\n');
    expect((await t.api('DELETE', `/api/datasets/${s.partnerId}/${s.datasetId}`)).statusCode).toBe(200);
    const reader = new pg.Client({ connectionString: t.url });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM records');
      expect(await dropOrphanPartitions(t.database.pool)).toEqual([]);
      expect(await partitionOf(s.datasetId)).toMatchObject({ attached: true, records: 0 });
      await reader.query('COMMIT');
    } finally {
      await reader.end();
    }
    expect(await dropOrphanPartitions(t.database.pool)).toEqual([recordsPartition(s.datasetId)]);
    expect(await partitionOf(s.datasetId)).toBeUndefined();
  });
});
