import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ImportMessages } from '../../../common/imports';
import { columnMapping } from '../../../common/mappings';
import { englishNameMessage, MAX_COLUMNS } from '../../../common/names';
import { PartnerApiMessages, UPSERT_BODY_MB } from '../../../common/partner-api';
import { TaskMessages } from '../../../common/tasks';
import { setupTestApp } from '../../test/app';
import { getDatasetMapping } from '../imports/mapping.queries';
import { CsvRecordEnglish, MAX_RECORD_BYTES } from '../uploads/csv-fields';
import { CsvEnglish } from '../uploads/csv-staging';
import { UploadEnglish } from '../uploads/upload';
import { partnerApiHelpers } from './partner-api.test-helpers';

// In the partner API: the dataset's column limit at every entry point, one name rule
// for JSON and CSV fields, and every answer in English (CSV errors and the body limit included).

const t = setupTestApp();
const { keyedDataset, call, recordsOf, postCsv, importCsv } = partnerApiHelpers(t);

/** `n` fields named prefix0.. with a value each. */
const fields = (prefix: string, n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'x']));

/** The import tasks of a dataset that did not fail (a refused file leaves none). */
async function unfailedTasks(datasetId: string): Promise<number> {
  const { rows } = await t.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM tasks
    WHERE payload ->> 'datasetId' = ${datasetId} AND state <> 'failed'`);
  return rows[0].n;
}

describe(`the column limit (${MAX_COLUMNS}) through the API`, () => {
  it('refuses a single call, a batch and a replace that would pass it (400 naming it), writing nothing', async () => {
    const ds = await keyedDataset([]);
    // 900 fields and the address: 901 columns.
    const first = await call(ds.key, 'POST', '/partnerlist', { email: 'a@example.nl', ...fields('a', 900) });
    expect(first.statusCode, first.body).toBe(200);
    const refused: [string, string, unknown, number][] = [
      ['POST', '/partnerlist', { email: 'b@example.nl', ...fields('b', 900) }, 1801],
      [
        'POST',
        '/partnerlist/upsert',
        [
          { email: 'c@example.nl', ...fields('c', 50) },
          { email: 'd@example.nl', ...fields('d', 50) },
        ],
        1001,
      ],
      ['PUT', '/partnerlist/a@example.nl', fields('e', 100), 1001],
    ];
    for (const [method, url, body, columns] of refused) {
      const res = await call(ds.key, method as 'POST', url, body);
      expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([
        400,
        { message: PartnerApiMessages.tooManyColumns(columns) },
      ]);
      expect(res.json().message).toContain(`at most ${MAX_COLUMNS}`);
    }
    expect((await recordsOf(ds.id)).map((r) => r.email)).toEqual(['a@example.nl']);
    expect((await getDatasetMapping(t.db, ds.id)).headers).toHaveLength(901);
    expect((await call(ds.key, 'GET', '/partnerlist/a@example.nl')).json()).not.toHaveProperty('e0');
    // Up to the limit is taken.
    const full = await call(ds.key, 'POST', '/partnerlist/upsert', [
      { email: 'c@example.nl', ...fields('c', 99) },
    ]);
    expect(full.statusCode, full.body).toBe(200);
    expect((await getDatasetMapping(t.db, ds.id)).headers).toHaveLength(MAX_COLUMNS);
  });

  it('refuses a CSV file of more columns (400 in English), writing nothing; a file at the limit is taken', async () => {
    const ds = await keyedDataset([]);
    const header = (n: number) => ['email', ...Array.from({ length: n - 1 }, (_, i) => `k${i}`)].join(',');
    const over = await postCsv(ds.key, `${header(MAX_COLUMNS + 1)}\na@example.nl\n`);
    expect([over.statusCode, over.json()]).toEqual([400, { message: CsvEnglish.tooManyColumns }]);
    expect(await recordsOf(ds.id)).toEqual([]);
    expect(await unfailedTasks(ds.id)).toBe(0);
    const task = await importCsv(ds.key, `${header(MAX_COLUMNS)}\na@example.nl\n`);
    expect(task.state, task.error).toBe('done');
    expect((await getDatasetMapping(t.db, ds.id)).headers).toHaveLength(MAX_COLUMNS);
  });
});

describe('field names of a CSV file follow the rule of JSON fields', () => {
  it('refuses __proto__, constructor and a blind index name (400 in English), writing nothing', async () => {
    const ds = await keyedDataset([columnMapping('naam', 'naam', { encrypted: true })]);
    const cases: [string, string, 'prototype' | 'blindIndex' | 'control'][] = [
      ['email,__proto__\na@example.nl,x\n', '__proto__', 'prototype'],
      ['email;constructor\na@example.nl;x\n', 'constructor', 'prototype'],
      ['email,naam,naam__bi\na@example.nl,Jan,x\n', 'naam__bi', 'blindIndex'],
      ['email,Naam__BI\na@example.nl,x\n', 'Naam__BI', 'blindIndex'],
    ];
    for (const [file, name, problem] of cases) {
      const res = await postCsv(ds.key, file);
      expect([res.statusCode, res.json()], name).toEqual([
        400,
        { message: englishNameMessage('field', name, problem) },
      ]);
    }
    // The same names as JSON fields ('__proto__' the JSON parser refuses).
    const json = await call(ds.key, 'POST', '/partnerlist', { email: 'a@example.nl', naam__bi: 'x' });
    expect(json.json().message).toBe(englishNameMessage('field', 'naam__bi', 'blindIndex'));
    expect(await recordsOf(ds.id)).toEqual([]);
    expect(await unfailedTasks(ds.id)).toBe(0);
  });
});

describe('answers in English', () => {
  it('CSV errors name the line in English', async () => {
    const ds = await keyedDataset();
    const cases: [string | Buffer, string][] = [
      ['email,voornaam\na@example.nl,"Jan\n', CsvEnglish.badRow(2, CsvRecordEnglish.unclosedQuote)],
      ['email;voornaam\na@example.nl;Jan;x\n', CsvEnglish.badRow(2, CsvRecordEnglish.tooManyFields)],
      ['email,Email\na@example.nl,x\n', CsvEnglish.duplicateColumn('Email')],
      // A closed quoted field past the record limit is that, not an unclosed quote.
      [
        `email,voornaam\na@example.nl,"${'x'.repeat(MAX_RECORD_BYTES + 1024)}"\n`,
        CsvEnglish.badRow(2, CsvRecordEnglish.recordLimit),
      ],
    ];
    for (const [file, message] of cases) {
      const res = await postCsv(ds.key, file);
      expect([res.statusCode, res.json()]).toEqual([400, { message }]);
    }
    expect(CsvEnglish.badRow(2, CsvRecordEnglish.unclosedQuote)).toBe(
      'Invalid CSV at line 2: a quote is not closed',
    );
    expect(CsvRecordEnglish.recordLimit).toContain(`${MAX_RECORD_BYTES / 1024 / 1024} MB`);
    const part = (name: string) =>
      `--twee\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\nemail\na@example.nl\n\r\n`;
    const twice = `${part('a.csv')}${part('b.csv')}--twee--\r\n`;
    const headers = { 'content-type': 'multipart/form-data; boundary=twee' };
    const res = await call(ds.key, 'POST', '/partnerlist/csv', twice, headers);
    expect([res.statusCode, res.json()]).toEqual([400, { message: UploadEnglish.oneFile }]);
    expect(await recordsOf(ds.id)).toEqual([]);
  });

  it(`an upsert body over ${UPSERT_BODY_MB} MB is 413 saying so, though its records are few enough`, async () => {
    const ds = await keyedDataset();
    const value = 'x'.repeat(9000);
    const body = JSON.stringify(
      Array.from({ length: 4000 }, (_, i) => ({ email: `r${i}@example.nl`, value })),
    );
    expect(body.length).toBeGreaterThan(UPSERT_BODY_MB * 1024 * 1024);
    const res = await call(ds.key, 'POST', '/partnerlist/upsert', body, {
      'content-type': 'application/json',
    });
    expect([res.statusCode, res.json()]).toEqual([413, { message: PartnerApiMessages.bodyTooLarge }]);
    expect(res.json().message).toContain(`${UPSERT_BODY_MB} MB`);
    expect(await recordsOf(ds.id)).toEqual([]);
  });

  it('an unknown call is 404 in English (401 without a key)', async () => {
    const ds = await keyedDataset();
    const res = await call(ds.key, 'POST', '/partnerlist/unknown/call?x=1', { email: 'a@example.nl' });
    expect([res.statusCode, res.json()]).toEqual([
      404,
      { message: PartnerApiMessages.notFound('POST', '/partner-api/partnerlist/unknown/call') },
    ]);
    expect((await call(undefined, 'GET', '/elders')).statusCode).toBe(401);
  });

  it("a failed task's error is English", async () => {
    const ds = await keyedDataset();
    const task = await importCsv(ds.key, 'email\na@example.nl\n');
    const failWith = async (error: string) => {
      await t.db.execute(sql`UPDATE tasks SET state = 'failed', error = ${error} WHERE id = ${task.id}`);
      return (await call(ds.key, 'GET', `/partnerlist/csv/${task.id}`)).json().error;
    };
    expect(await failWith(ImportMessages.datasetGone)).toBe(PartnerApiMessages.datasetNotFound);
    expect(await failWith(TaskMessages.orphaned)).toBe(PartnerApiMessages.taskInterrupted);
    expect(await failWith('De taak is mislukt door een serverfout')).toBe(PartnerApiMessages.failedUpload);
  });
});
