import { expect, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { importCsv, ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// An enrichment file naming an erased address (AVG art. 17): its row is left out and the upload's
// success message says so under its own reason.

test('enrichment: the rows of an erased address are left out and named', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/');
  const domain = `${unique('weg')}.nl`;
  const partnerId = unique('Avg_');
  await ok(await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'AVG BV' } }));
  const dataset = unique('bestand');
  await ok(await page.request.post(`/api/datasets/${partnerId}`, { data: { name: dataset } }));
  await importCsv(page.request, partnerId, dataset, `email\nblijft@${domain}\nweg@${domain}\n`);
  await ok(await page.request.post('/api/avg/erase', { data: { email: `weg@${domain}` } }));

  await page.goto('/enrichment/upload');
  const lines = ['E-mail;Groep', `blijft@${domain};goud`, `WEG@${domain};goud`];
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'groepen.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await page.getByRole('combobox', { name: 'Kenmerk voor E-mail' }).fill('email');
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Kenmerk voor Groep' }).fill(unique('groep'));
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Match E-mail' }).click();
  await page.getByRole('textbox', { name: 'Bestandsnaam' }).fill(unique('Groepen '));
  await page.getByRole('button', { name: 'Uploaden' }).click();
  await expectAlert(
    page,
    'success',
    'Upload geslaagd',
    'Het verrijkingsbestand is verwerkt: 1 adressen gevonden. 1 regel overgeslagen: AVG-verwijderd.',
  );
  await expect(page).toHaveURL(/\/enrichment$/);
});
