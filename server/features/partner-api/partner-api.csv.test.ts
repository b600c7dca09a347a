import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { multipartBody } from '../../test/multipart';
import { partnerApiHelpers } from './partner-api.test-helpers';

// POST /partnerlist/csv and its task (spec 001 §7, §8, §9): an upload through the import, deleteOld
// both ways, the refused files, another dataset's task.

const t = setupTestApp();
const { keyedDataset, call, recordsOf, waitForTask, postCsv } = partnerApiHelpers(t);

describe('CSV', () => {
  it('imports a file through the mapping; deleteOld (default true) removes records not in the file', async () => {
    const ds = await keyedDataset();
    await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'keep@example.nl', voornaam: 'Keep' },
      { email: 'old@example.nl', voornaam: 'Old' },
    ]);
    const res = await postCsv(
      ds.key,
      'email;voornaam;dataset\nkeep@example.nl;Kept;x\nnew@example.nl;New;y\n',
    );
    expect([200, 202]).toContain(res.statusCode);
    const task = res.statusCode === 202 ? await waitForTask(ds.key, res.json().id) : res.json();
    expect(task).toMatchObject({ state: 'done', percentage: 100, file: 'leden.csv' });
    expect(task.result).toMatchObject({ read: 2, deleted: 1 });
    expect((await recordsOf(ds.id)).map((r) => [r.email, r.attrs.voornaam])).toEqual([
      ['keep@example.nl', 'Kept'],
      ['new@example.nl', 'New'],
    ]);
    // The reserved column 'dataset' of the file is stored as dataset1.
    expect((await call(ds.key, 'GET', '/partnerlist/new@example.nl')).json().dataset1).toBe('y');
    const polled = await call(ds.key, 'GET', `/partnerlist/csv/${task.id}`);
    expect(polled.json()).toMatchObject({ id: task.id, state: 'done' });
  });

  it('deleteOld=false keeps records not in the file', async () => {
    const ds = await keyedDataset();
    await call(ds.key, 'POST', '/partnerlist/upsert', [{ email: 'stay@example.nl', voornaam: 'Stay' }]);
    const res = await postCsv(ds.key, 'email,voornaam\nadded@example.nl,Added\n', { deleteOld: 'false' });
    const task = res.statusCode === 202 ? await waitForTask(ds.key, res.json().id) : res.json();
    expect(task.result).toMatchObject({ read: 1, deleted: 0 });
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['added@example.nl', 'stay@example.nl']);
    const bad = await postCsv(ds.key, 'email\na@example.nl\n', { deleteOld: 'misschien' });
    expect([bad.statusCode, bad.json().message]).toEqual([400, PartnerApiMessages.badDeleteOld]);
  });

  it('refuses a missing file, UTF-16, a binary file and a file too small (400), nothing written', async () => {
    const ds = await keyedDataset();
    const noFile = multipartBody({ deleteOld: 'true' });
    const cases: [{ payload: Buffer | string; headers: Record<string, string> }, string][] = [
      [noFile, PartnerApiMessages.missingFile],
      [{ payload: '{}', headers: { 'content-type': 'application/json' } }, PartnerApiMessages.missingFile],
      [
        multipartBody(
          {},
          {
            name: 'a.csv',
            content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\na@b.nl\n', 'utf16le')]),
          },
        ),
        PartnerApiMessages.unexpectedEncoding,
      ],
      [
        multipartBody({}, { name: 'a.csv', content: Buffer.from('email\na@b.nl\n', 'utf16le') }),
        PartnerApiMessages.unexpectedEncoding,
      ],
      [
        multipartBody({}, { name: 'a.csv', content: crypto.randomBytes(5000) }),
        PartnerApiMessages.unexpectedEncoding,
      ],
      [multipartBody({}, { name: 'a.csv', content: '' }), PartnerApiMessages.fileTooSmall],
      [multipartBody({}, { name: 'a.csv', content: 'email\n' }), PartnerApiMessages.fileTooSmall],
      [multipartBody({}, { name: 'a.txt', content: 'email\na@b.nl\n' }), PartnerApiMessages.onlyCsv],
    ];
    for (const [body, message] of cases) {
      const res = await call(ds.key, 'POST', '/partnerlist/csv', body.payload, body.headers);
      expect([res.statusCode, res.json().message]).toEqual([400, message]);
    }
    expect(await recordsOf(ds.id)).toEqual([]);
    const failed = await t.db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM tasks WHERE payload ->> 'datasetId' = ${ds.id} OR (dataset_id = ${ds.name} AND state <> 'failed')`);
    expect(failed.rows[0].n).toBe(0);
  });

  it('a task of another dataset is 404', async () => {
    const a = await keyedDataset();
    const b = await keyedDataset();
    const res = await postCsv(a.key, 'email\na@example.nl\n');
    const id = res.statusCode === 202 ? res.json().id : res.json().id;
    expect((await call(a.key, 'GET', `/partnerlist/csv/${id}`)).statusCode).toBe(200);
    const other = await call(b.key, 'GET', `/partnerlist/csv/${id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: PartnerApiMessages.taskNotFound });
    expect((await call(a.key, 'GET', '/partnerlist/csv/unknown')).statusCode).toBe(404);
  });
});
