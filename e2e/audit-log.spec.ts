import { expect, test } from '@playwright/test';
import { loginAsAdmin } from './support/session';

// The 'Auditlog' journey: an administrator changes the retention period ('Bewaartermijn (dagen)'),
// finds the change in the audit log by its kind, and downloads the filtered log.

test('audit log: a retention change is found by its kind and downloaded', async ({ page }) => {
  await loginAsAdmin(page, '/settings');
  const before = (await (await page.request.get('/api/settings')).json()).retentionDays as number;
  const after = before === 1000 ? 1001 : 1000;
  const retention = page.getByLabel('Bewaartermijn (dagen)');
  await expect(retention).toHaveValue(String(before));

  // Out of range: refused in Dutch, nothing stored.
  await retention.fill('10');
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Opslaan mislukt' })).toContainText(
    'De bewaartermijn moet een geheel aantal dagen van 30 tot en met 3650 zijn',
  );
  await retention.fill(String(after));
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Opgeslagen' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Hoofdmenu' }).getByRole('link', { name: 'Auditlog' }).click();
  await expect(page.getByRole('heading', { name: 'Auditlog' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Soort' }).click();
  await page.getByRole('option', { name: 'Bewaartermijn gewijzigd' }).click();
  const row = page.getByRole('row').filter({ hasText: `after: ${after}` });
  await expect(row.first()).toBeVisible();
  await expect(row.first()).toContainText('Bewaartermijn gewijzigd');
  await expect(row.first()).toContainText(`before: ${before}`);
  await expect(row.first()).toContainText(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}/);

  // A period in which nothing happened shows the empty state.
  await page.getByLabel('Van', { exact: true }).fill('01-01-2001');
  await page.getByLabel('Tot', { exact: true }).fill('02-01-2001');
  await expect(page.getByText('Geen vermeldingen gevonden.')).toBeVisible();
  await page.getByLabel('Van', { exact: true }).clear();
  await page.getByLabel('Tot', { exact: true }).clear();
  await expect(row.first()).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Downloaden (CSV)' }).click();
  const file = Buffer.concat(await (await (await download).createReadStream()).toArray()).toString('utf8');
  expect(file.split('\r\n')[0]).toBe('\uFEFFTijdstip,Gebruiker,IP,Soort,Onderwerp,Rijen,Details');
  expect(file).toContain('Bewaartermijn gewijzigd');
  expect(file).not.toContain('Ingelogd');

  // The download is itself in the log.
  const downloads = await (await page.request.get('/api/audit-log?kind=download')).json();
  expect(downloads.entries[0]).toMatchObject({ subject: 'auditlog', username: 'admin' });
});
