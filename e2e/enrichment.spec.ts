import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { importCsv, ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// spec 001 §2 Enrichment (Verrijking), DESIGN §6: upload an enrichment file, see it listed, use its
// attribute in a selection line, delete it.

/** A dataset of ten addresses, a campaign and a draft mailing. */
async function seed(request: APIRequestContext, domain: string) {
  const partnerId = unique('Verr_');
  await ok(await request.post('/api/crud-partner', { data: { id: partnerId, name: 'Verrijking BV' } }));
  const name = unique('bestand');
  await ok(await request.post(`/api/datasets/${partnerId}`, { data: { name } }));
  const rows = Array.from({ length: 10 }, (_, i) => `v${i}@${domain}`);
  await importCsv(request, partnerId, name, ['email', ...rows].join('\n'));
  const campaignName = unique('Campagne ');
  const campaign = await ok(
    await request.post('/api/campaigns', {
      data: { name: campaignName, start: new Date().toISOString().slice(0, 10) },
    }),
  );
  const mailing = await ok(
    await request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: unique('Verzending '), plannedSend: '2031-06-04T10:00:00Z', addresses: 100 },
    }),
  );
  return { campaignId: campaign._id as string, mailingId: mailing._id as string };
}

/** Maps a column of the chosen file onto an attribute. */
async function mapColumn(page: Page, field: string, attribute: string) {
  await page.getByRole('combobox', { name: `Kenmerk voor ${field}` }).fill(attribute);
  await page.keyboard.press('Escape');
}

test('enrichment: upload a file, see it listed, select on its attribute, delete it', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/');
  const domain = `${unique('verrijk')}.nl`;
  const w = await seed(page.request, domain);
  const attribute = unique('klantgroep');
  const fileName = unique('Klantgroepen ');

  // The sidebar's Verrijking section leads to the upload screen.
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Verrijkingsbestand uploaden' })
    .click();
  await expect(page.getByRole('heading', { name: 'Verrijkingsbestand uploaden' })).toBeVisible();
  const upload = page.getByRole('button', { name: 'Uploaden' });
  await expect(upload).toBeDisabled();

  // A file whose header row cannot be read says so (spec 001 §8) and offers no columns.
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'leeg.csv', mimeType: 'text/csv', buffer: Buffer.from('') });
  await expectAlert(page, 'danger', 'Failed to parse CSV');
  await expect(page.getByTestId('enrichment-column')).toHaveCount(0);
  await expect(upload).toBeDisabled();
  await page.getByRole('button', { name: 'Ander bestand' }).click();

  // Four of the ten addresses are 'goud' (two written differently), one address is unknown.
  const lines = [
    'E-mail;Groep',
    `v0@${domain};goud`,
    ` V1@${domain.toUpperCase()} ;Goud`,
    `v2@${domain};goud`,
    `v3@${domain};goud`,
    `v4@${domain};zilver`,
    `niemand@${domain};goud`,
  ];
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'groepen.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page.getByTestId('chosen-file')).toContainText('groepen.csv');
  await expect(page.getByTestId('enrichment-column')).toHaveCount(2);
  // Match and Verrijk stay disabled until the column is mapped.
  await expect(page.getByRole('button', { name: 'Match E-mail' })).toBeDisabled();
  await mapColumn(page, 'E-mail', 'email');
  await mapColumn(page, 'Groep', attribute);
  await expect(page.getByRole('button', { name: 'Verrijk Groep' })).toHaveAttribute('aria-pressed', 'true');
  // Mapped, but nothing on Match yet: no upload.
  await expect(upload).toBeDisabled();
  await page.getByRole('button', { name: 'Match E-mail' }).click();
  await expect(upload).toBeEnabled();
  // The file name is required.
  await upload.click();
  await expect(page.getByText('Vul een bestandsnaam in')).toBeVisible();
  await page.getByRole('textbox', { name: 'Bestandsnaam' }).fill(fileName);
  await upload.click();
  await expectAlert(
    page,
    'success',
    'Upload geslaagd',
    'Het verrijkingsbestand is verwerkt: 5 adressen gevonden.',
  );

  // Listed with its count of matched addresses.
  await expect(page).toHaveURL(/\/enrichment$/);
  await expect(page.getByRole('heading', { name: 'Verrijkingsbestanden' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Zoeken' }).fill(fileName);
  const row = page.getByRole('row').filter({ hasText: fileName });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('5');

  // The attribute is offered by the selection builder's line and selects the 'goud' addresses.
  await page.goto(`/selection-builder/${w.campaignId}/${w.mailingId}`);
  await page.getByRole('button', { name: 'Regel toevoegen' }).first().click();
  const lineDrawer = page.getByRole('dialog');
  await lineDrawer.getByRole('link', { name: 'Selecteren op kenmerken', exact: true }).click();
  const attr = page.getByRole('combobox', { name: 'Kenmerk', exact: true });
  await attr.click();
  await attr.fill(attribute.slice(0, -2));
  await page.getByRole('option', { name: attribute, exact: true }).click();
  await page.getByRole('combobox', { name: 'Operator', exact: true }).click();
  await page.getByRole('option', { name: 'is', exact: true }).click();
  await page.getByRole('combobox', { name: 'Waarde', exact: true }).fill('GOUD');
  // Leave the field: its value suggestions, arriving a moment later, would cover 'Toevoegen'.
  await page.keyboard.press('Tab');
  await lineDrawer.getByRole('button', { name: 'Toevoegen' }).click();
  await expect(lineDrawer).toHaveCount(0);
  await expect(page.getByTestId('query-line')).toHaveText(`${attribute} is GOUD`);
  // Counted live, without a button; 'Maak aan' stores the selection and counts the same.
  await expect(page.getByTestId('count-total')).toHaveText('4 adressen gevonden');
  await expect(page.getByTestId('selected-total')).toHaveText('4');
  await page.getByRole('button', { name: 'Maak aan' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Klaar');
  await expect(page.getByTestId('selected-total')).toHaveText('4');

  // Deleted after a confirmation: gone from the list, and the attribute no longer selects anyone.
  await page.goto('/enrichment');
  await page.getByRole('textbox', { name: 'Zoeken' }).fill(fileName);
  await page.getByRole('button', { name: `Verwijder ${fileName}` }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Het verrijkingsbestand is verwijderd');
  await expect(page.getByRole('row').filter({ hasText: fileName })).toHaveCount(0);
});
