import { expect, type Page, test } from '@playwright/test';
import { columnMapping } from '../common/mappings';
import { expectAlert } from './support/alerts';
import { ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// What a mapping made of the records (the preview, refreshed by a remap), why
// rows were skipped (counts per reason and their download, from the result and from /tasks), and
// the Excel variant of a CSV download (semicolons, a UTF-8 byte order mark, 'José' intact).

const FILE = [
  'email,naam,geslacht,geboren',
  'jose@voorbeeld.nl,José,Man,17-05-1980', // 2
  'geen-adres,Piet,Man,01-01-1990', // 3 invalid
  'anna@voorbeeld.nl,Anna,Vrouw,02-03-1975', // 4
  'weg@voorbeeld.nl,WEG,Man,01-01-2000', // 5 excluded (naam 'weg')
  'JOSE@voorbeeld.nl,José,Man,17-05-1980', // 6 repeat of line 2
].join('\n');

/** Clicks a download menu's item (`format`) beside the link named `label`; returns the file's bytes. */
async function downloadVia(page: Page, label: string, format: 'CSV (komma)' | 'Excel (puntkomma)') {
  await page
    .getByRole('button', { name: `Kies bestandsformaat: ${label}`, exact: true })
    .first()
    .click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: format }).click();
  return Buffer.concat(await (await (await download).createReadStream()).toArray());
}

test('import details: skipped rows per reason and their download, the preview after a remap, the Excel download', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/');
  const partnerId = unique('Det_');
  const name = unique('Details');
  await ok(page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Details BV' } }));
  const { _id: datasetId } = await ok(page.request.post(`/api/datasets/${partnerId}`, { data: { name } }));
  const saved = await page.request.put(`/api/datasets/${partnerId}/${datasetId}/mappings`, {
    data: [
      columnMapping('naam', 'firstName', { exclude: '/^weg$/i' }),
      columnMapping('geslacht', 'gender', {
        values: [
          { original: 'Man', mapped: 'M', insensitive: true },
          { original: 'Vrouw', mapped: 'F', insensitive: true },
        ],
      }),
      columnMapping('geboren', 'birthDate', { date: 'DD-MM-YYYY' }),
    ],
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // The upload result: 3 skipped, one per reason, and their download (line, reason, e-mail as in the file).
  await page.goto(`/upload/${partnerId}/${datasetId}`);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'details.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
  await page.getByRole('button', { name: 'Uploaden' }).click();
  await expectAlert(page, 'success', 'Upload geslaagd', /Gevonden: 5, Opgeslagen: 2, Overgeslagen: 3/);
  const skipped = page.getByTestId('upload-status').getByTestId('skipped-rows');
  await expect(skipped.getByTestId('skipped-invalid')).toHaveText('1');
  await expect(skipped.getByTestId('skipped-repeated')).toHaveText('1');
  await expect(skipped.getByTestId('skipped-excluded')).toHaveText('1');
  const rows = await downloadVia(page, 'Download overgeslagen regels', 'CSV (komma)');
  expect(rows.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  expect(rows.subarray(3).toString('utf8')).toBe(
    [
      'regel,reden,email',
      '3,Ongeldig e-mailadres,geen-adres',
      '5,Uitgesloten door de mapping,weg@voorbeeld.nl',
      '6,Dubbel in het bestand,JOSE@voorbeeld.nl',
      '',
    ].join('\r\n'),
  );

  // The same from /tasks, as the Excel file.
  await page.goto('/tasks');
  const card = page.getByTestId('task-card').filter({ hasText: 'details.csv' }).first();
  await expect(card.getByTestId('skipped-rows')).toContainText('Ongeldig e-mailadres 1');
  await card.getByRole('button', { name: 'Kies bestandsformaat: Download overgeslagen regels' }).click();
  const fromTasks = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Excel (puntkomma)' }).click();
  const excelRows = Buffer.concat(await (await (await fromTasks).createReadStream()).toArray()).toString(
    'utf8',
  );
  expect(excelRows).toBe(
    '\uFEFFregel;reden;email\r\n3;Ongeldig e-mailadres;geen-adres\r\n5;Uitgesloten door de mapping;weg@voorbeeld.nl\r\n6;Dubbel in het bestand;JOSE@voorbeeld.nl\r\n',
  );

  // The mapping screen previews the records: the file's columns beside the mapped attributes.
  await page.goto(`/partners/${partnerId}/datasets/${datasetId}/headers`);
  const preview = page.getByRole('table', { name: 'Voorbeeld van de records' });
  await expect(preview).toBeVisible();
  const jose = preview.getByRole('row').filter({ hasText: 'jose@voorbeeld.nl' });
  await expect(jose.getByRole('cell')).toHaveText([
    'jose@voorbeeld.nl',
    'José',
    'Man',
    '17-05-1980',
    'José',
    'M',
    '1980-05-17 00:00:00',
  ]);

  // A saved change shows as not yet applied; the remap shows what it made.
  await page.getByLabel('Kleine letters naam', { exact: true }).check();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Opgeslagen');
  await expect(page.getByTestId('preview-not-applied')).toBeVisible();
  await page.getByRole('button', { name: 'Mapping doorvoeren' }).click();
  await expectAlert(page, 'success', 'Mapping doorgevoerd');
  await expect(page.getByTestId('preview-not-applied')).toHaveCount(0);
  // The file's value stays as it came; the attribute is now in lower case (the editor saved the
  // mapping in its own row order, so the attribute columns are looked up by value).
  await expect(jose.getByRole('cell', { name: 'josé', exact: true })).toBeVisible();
  await expect(jose.getByRole('cell', { name: 'José', exact: true })).toBeVisible();
  const anna = preview.getByRole('row').filter({ hasText: 'anna@voorbeeld.nl' });
  await expect(anna.getByRole('cell', { name: 'anna', exact: true })).toBeVisible();
  await expect(anna.getByRole('cell', { name: 'F', exact: true })).toBeVisible();

  // The dataset's Excel download: BOM, semicolons, 'José' intact; the comma file beside it.
  const excel = await downloadVia(page, 'Download CSV', 'Excel (puntkomma)');
  expect(excel.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  const lines = excel.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toBe('email;naam;geslacht;geboren');
  expect(lines).toContain('jose@voorbeeld.nl;José;Man;17-05-1980');
  const comma = await downloadVia(page, 'Download CSV', 'CSV (komma)');
  expect(comma.subarray(3).toString('utf8').split('\r\n')).toContain('jose@voorbeeld.nl,José,Man,17-05-1980');
});
