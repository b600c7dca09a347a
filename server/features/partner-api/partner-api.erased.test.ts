import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { columnMapping } from '../../../common/mappings';
import { PartnerApiMessages } from '../../../common/partner-api';
import { setupTestApp } from '../../test/app';
import { suppress, whileErasing } from '../avg/suppression.test-helpers';
import { partnerApiHelpers } from './partner-api.test-helpers';

// An erased address (AVG art. 17) through every call of the partner API: never stored, counted as
// erased by the upsert and the CSV task, and a single call answers as for an address the dataset
// never held (docs/decisions.md, AVG erasure).

const t = setupTestApp();
const { keyedDataset, call, recordsOf, recordCount, importCsv } = partnerApiHelpers(t);

/** Whether `addresses` holds the e-mail (an erased e-mail never does). */
async function addressExists(email: string): Promise<boolean> {
  const { rows } = await t.db.execute(sql`SELECT 1 FROM addresses WHERE email = ${email}`);
  return rows.length > 0;
}

/** The status and body of a call, to compare two calls' answers whole. */
async function answer(...args: Parameters<typeof call>) {
  const res = await call(...args);
  return { status: res.statusCode, body: res.json() };
}

describe('an erased address through the partner API', () => {
  it('one-record calls answer as for an address the dataset never held, and store nothing', async () => {
    const ds = await keyedDataset([
      columnMapping('voornaam', 'voornaam', { exclude: 'Spam' }),
      columnMapping('postcode', 'postcode'),
    ]);
    await suppress(t, ['weg@example.nl']);

    // POST: refused exactly as a record the dataset does not take (the mapping's exclusion).
    const erasedPost = await answer(ds.key, 'POST', '/partnerlist', {
      email: ' Weg@Example.NL ',
      voornaam: 'W',
    });
    const excludedPost = await answer(ds.key, 'POST', '/partnerlist', {
      email: 'spam@example.nl',
      voornaam: 'Spam',
    });
    expect(erasedPost).toEqual({ status: 400, body: { message: PartnerApiMessages.excluded } });
    expect(erasedPost).toEqual(excludedPost);

    // PUT, GET, DELETE: the answers of an address the dataset never held.
    const erasedPut = await answer(ds.key, 'PUT', '/partnerlist/weg@example.nl', { voornaam: 'W' });
    const unknownPut = await answer(ds.key, 'PUT', '/partnerlist/nooit@example.nl', { voornaam: 'N' });
    expect(erasedPut).toEqual({ status: 404, body: { message: PartnerApiMessages.recordNotFound } });
    expect(erasedPut).toEqual(unknownPut);
    for (const method of ['GET', 'DELETE'] as const) {
      const erased = await answer(ds.key, method, '/partnerlist/weg@example.nl');
      expect(erased).toEqual(await answer(ds.key, method, '/partnerlist/nooit@example.nl'));
      expect(erased.status).toBe(404);
    }

    // Once the dataset holds records, PUT of the erased address is still the unknown one's 404.
    await call(ds.key, 'POST', '/partnerlist', { email: 'jan@example.nl', voornaam: 'Jan' });
    const putAfter = await answer(ds.key, 'PUT', '/partnerlist/WEG@example.nl', { voornaam: 'W' });
    expect(putAfter).toEqual(await answer(ds.key, 'PUT', '/partnerlist/nooit@example.nl', { voornaam: 'N' }));
    expect(putAfter.status).toBe(404);

    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['jan@example.nl']);
    expect(await recordCount(ds.id)).toBe(1);
    expect(await addressExists('weg@example.nl')).toBe(false);
  });

  it('an upsert stores the others and counts the erased records', async () => {
    const ds = await keyedDataset();
    await suppress(t, ['weg1@example.nl', 'weg2@example.nl']);
    const res = await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'piet@example.nl', voornaam: 'Piet' },
      { email: 'WEG1@example.nl', voornaam: 'Weg' },
      { email: 'klaas@example.nl', voornaam: 'Klaas' },
      { email: ' weg2@example.nl', voornaam: 'Weg' },
      // The last of two records with one address wins: one erased record, not two.
      { email: 'weg2@example.nl', voornaam: 'Weg' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Records saved', inserted: 2, modified: 0, skipped: 0, erased: 2 });
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['klaas@example.nl', 'piet@example.nl']);
    expect(await recordCount(ds.id)).toBe(2);
    expect(await addressExists('weg1@example.nl')).toBe(false);
    expect(await addressExists('weg2@example.nl')).toBe(false);
    // The call's audit entry counts them too.
    const { rows } = await t.db.execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_log WHERE kind = 'partner-api-write' AND subject = ${ds.id}`,
    );
    expect(rows.map((r) => r.details)).toEqual([
      { operation: 'upsert', received: 5, saved: 2, skipped: 0, erased: 2 },
    ]);

    // Only erased records: nothing written, not even the dataset's records table.
    const only = await call(ds.key, 'POST', '/partnerlist/upsert', [{ email: 'weg1@example.nl' }]);
    expect(only.json()).toEqual({
      message: 'Records saved',
      inserted: 0,
      modified: 0,
      skipped: 0,
      erased: 1,
    });
    expect(await recordCount(ds.id)).toBe(2);
  });

  it('a CSV task leaves the erased rows out and reports them', async () => {
    const ds = await keyedDataset();
    await suppress(t, ['weg@example.nl']);
    const task = await importCsv(ds.key, 'email,voornaam\njan@example.nl,Jan\nWeg@example.nl,Weg\n');
    expect(task.state, task.error).toBe('done');
    expect(task.result).toMatchObject({ read: 2, saved: 1, skipped: 1, erased: 1 });
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['jan@example.nl']);
    expect(await addressExists('weg@example.nl')).toBe(false);
  });

  it('the document at /apidocs names the erased counts of the upsert and the CSV task', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/apidocs/json' })).json();
    const schemaOf = (path: string, method: string) =>
      doc.paths[path][method].responses['200'].content['application/json'].schema;
    const upsert = schemaOf('/partnerlist/upsert', 'post');
    expect(upsert.required).toContain('erased');
    expect(upsert.properties.erased.description).toMatch(/erased/);
    expect(upsert.example.erased).toBe(0);
    const task = schemaOf('/partnerlist/csv/{taskId}', 'get');
    const result =
      task.properties.result.anyOf?.find((s: { type?: string }) => s.type === 'object') ??
      task.properties.result;
    expect(result.properties.erased.description).toMatch(/erased/);
  });

  it('a write waits for an erasure that runs, then sees its suppression', async () => {
    const ds = await keyedDataset();
    const res = await whileErasing(
      t,
      () =>
        call(ds.key, 'POST', '/partnerlist/upsert', [
          { email: 'nu@example.nl', voornaam: 'Nu' },
          { email: 'blijft@example.nl', voornaam: 'Blijft' },
        ]),
      // The erasure commits this suppression while the write waits: the write must see it.
      (tx) => suppress(t, ['nu@example.nl'], tx),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ inserted: 1, erased: 1 });
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['blijft@example.nl']);
  });
});
