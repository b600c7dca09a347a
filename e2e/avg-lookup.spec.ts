import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { importCsv, ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

test('AVG-verzoeken: an address is looked up, its dataset and mailing shown, and its data downloaded as JSON', async ({
  page,
}) => {
  const tag = unique('avg');
  const email = `jan.${tag}@voorbeeld.nl`;
  await loginAsAdmin(page, '/');
  const partner = `p_${tag}`;
  await ok(page.request.post('/api/crud-partner', { data: { id: partner, name: `Partner ${tag}` } }));
  const dataset = `bestand${tag}`;
  await ok(
    page.request.post(`/api/datasets/${partner}`, { data: { name: dataset, emailColumnName: 'email' } }),
  );
  await importCsv(page.request, partner, dataset, `email\n${email}\n`);
  const campaign = await ok(page.request.post('/api/campaigns', { data: { name: `Campagne ${tag}` } }));
  const mailing = await ok(
    page.request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: `Verzending ${tag}`, plannedSend: '2030-03-01T09:00:00Z' },
    }),
  );
  await ok(page.request.post(`/api/e2e/mailings/${mailing._id}/allocate`, { data: { emails: [email] } }));

  await page.getByRole('link', { name: 'AVG-verzoeken' }).click();
  await expect(page.getByRole('heading', { name: 'AVG-verzoeken' })).toBeVisible();

  // A malformed address is refused on the screen; an unknown one finds nothing.
  await page.getByLabel('E-mailadres').fill('geen-adres');
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByText('Vul een geldig e-mailadres in')).toBeVisible();
  await page.getByLabel('E-mailadres').fill(`niemand.${tag}@voorbeeld.nl`);
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByText(`Niets gevonden voor niemand.${tag}@voorbeeld.nl.`)).toBeVisible();

  await page.getByLabel('E-mailadres').fill(` ${email.toUpperCase()} `);
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByRole('heading', { name: 'Bestanden' })).toBeVisible();
  await expect(page.getByRole('cell', { name: dataset, exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Partner ${tag}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Verzending ${tag}` })).toBeVisible();
  await expect(page.getByRole('cell', { name: `Campagne ${tag}` })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Downloaden (JSON)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^avg-\d{4}-\d{2}-\d{2}\.json$/);
  const body = JSON.parse(await fs.readFile((await download.path()) ?? '', 'utf8'));
  expect(body.email).toBe(email);
  expect(body.records.map((r: { dataset: { name: string } }) => r.dataset.name)).toEqual([dataset]);
  expect(body.mailings.map((m: { mailing: { name: string } }) => m.mailing.name)).toEqual([
    `Verzending ${tag}`,
  ]);
});
