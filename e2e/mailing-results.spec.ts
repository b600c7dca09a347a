import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

test('mailing results: the upload screen names the columns and date forms, a Dutch date is read, skipped rows are counted and downloaded', async ({
  page,
}) => {
  const tag = unique('r');
  const [an, bo] = [`an.${tag}@voorbeeld.nl`, `bo.${tag}@voorbeeld.nl`];
  await loginAsAdmin(page, '/');
  const campaign = (
    await (await page.request.post('/api/campaigns', { data: { name: `Campagne ${tag}` } })).json()
  )._id as string;
  const mailing = await (
    await page.request.post(`/api/campaigns/${campaign}/mailings`, {
      data: { name: `Resultaten ${tag}`, plannedSend: '2026-11-27T09:00:00Z' },
    })
  ).json();
  expect(
    (
      await page.request.post(`/api/e2e/mailings/${mailing._id}/allocate`, { data: { emails: [an, bo] } })
    ).status(),
  ).toBe(200);

  await page.goto(`/campaigns/${campaign}/mailings`);
  await page.getByRole('button', { name: `Resultaten uploaden voor Resultaten ${tag}` }).click();
  const dialog = page.getByRole('dialog', { name: `Resultaten uploaden: Resultaten ${tag}` });

  // What the file must hold: the columns and the date forms the server reads.
  const columns = dialog.getByRole('table', { name: 'Kolommen van een resultatenbestand' });
  for (const name of ['email', 'event', 'date', 'os']) await expect(columns).toContainText(name);
  await expect(columns).toContainText('open, click, hardBounce, softBounce of rejected');
  const forms = dialog.getByLabel('Datumvormen van een resultatenbestand');
  await expect(forms).toContainText('DD-MM-YYYY HH:mm');
  await expect(forms).toContainText('(28-11-2026 11:24)');
  await expect(forms).toContainText('DD/MM/YYYY');
  await expect(forms).toContainText('YYYY-MM-DDTHH:mm:ss');

  // A file without a date column is refused, and the screen says which columns it needs.
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'zonder-datum.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`email,event\n${an},open\n`),
  });
  await dialog.getByRole('button', { name: 'Uploaden' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Kon bestand niet opslaan' })).toContainText(
    'Het bestand moet de kolommen email, event en date bevatten',
  );
  await dialog.getByRole('button', { name: 'Ander bestand' }).click();

  // A file with a Dutch date (DD-MM-YYYY HH:mm), a bad date and an address outside the mailing.
  const file = [
    'email;event;date',
    `${an};click;28-11-2026 11:24`,
    `${bo};open;gisteren`,
    `buiten.${tag}@voorbeeld.nl;open;28-11-2026`,
  ].join('\r\n');
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'resultaten.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await expect(dialog.getByTestId('chosen-file')).toContainText('resultaten.csv');
  await dialog.getByRole('button', { name: 'Uploaden' }).click();
  // The outcome stays on the screen (the alert with the same counts closes after a few seconds).
  await expect(dialog.getByRole('alert').filter({ hasText: 'Resultaten verwerkt' })).toBeVisible();
  await expect(dialog.getByTestId('results-count-read')).toHaveText('3');
  await expect(dialog.getByTestId('results-count-saved')).toHaveText('1');
  await expect(dialog.getByTestId('results-count-skipped')).toHaveText('2');
  await expect(dialog.getByTestId('skipped-invalidDate')).toHaveText('1');
  await expect(dialog.getByTestId('skipped-notInMailing')).toHaveText('1');

  // The skipped rows download: the file's line, the reason in Dutch and the e-mail as in the file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: 'Download overgeslagen regels' }).click(),
  ]);
  const csv = await fs.readFile((await download.path())!, 'utf8');
  expect(
    csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean),
  ).toEqual([
    'regel,reden,email',
    `3,Ongeldige datum,${bo}`,
    `4,E-mailadres niet in deze mailing,buiten.${tag}@voorbeeld.nl`,
  ]);

  // The mailing row counts the click.
  await dialog.getByRole('button', { name: 'Sluiten' }).click();
  await expect(page.getByTestId(`results-${mailing._id}`)).toHaveText('0 / 1 / 0');
});
