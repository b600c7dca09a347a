import { expect, test } from '@playwright/test';
import { businessToday } from '../common/calendar-day';
import { importCsv, ok, waitForTask } from './support/api';
import { loginAsAdmin, unique } from './support/session';

test('reports: a partner’s delivered addresses, opens, clicks and rates as charts and a table; a mailing’s results over time; the pressure per week', async ({
  page,
}) => {
  const tag = unique('rap');
  const partner = unique('rapp_');
  await loginAsAdmin(page, '/');
  await ok(page.request.post('/api/crud-partner', { data: { id: partner, name: `Partner ${tag}` } }));
  const dataset = await ok(
    page.request.post(`/api/datasets/${partner}`, {
      data: { name: `bestand${tag}`, emailColumnName: 'email' },
    }),
  );
  const emails = [0, 1, 2, 3].map((i) => `r${i}.${tag}@voorbeeld.nl`);
  await importCsv(page.request, partner, `bestand${tag}`, `email\n${emails.join('\n')}\n`);

  // A mailing of this month with the four addresses, Aangeboden; two opened, one of them clicked.
  const month = businessToday().slice(0, 7);
  const campaign = await ok(page.request.post('/api/campaigns', { data: { name: `Campagne ${tag}` } }));
  const mailing = await ok(
    page.request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: `Rapport ${tag}`, plannedSend: `${month}-01T09:00:00Z` },
    }),
  );
  await ok<{ ok: boolean }>(
    page.request.post(`/api/e2e/mailings/${mailing._id}/allocate`, {
      data: { emails, datasetId: dataset._id },
    }),
  );
  await ok(
    page.request.put(`/api/campaigns/${campaign._id}/mailings/${mailing._id}`, {
      data: { name: `Rapport ${tag}`, state: 'offered', plannedSend: `${month}-01T09:00:00Z` },
    }),
  );
  const results = [
    'email,event,date',
    `${emails[0]},open,${month}-01T10:00:00`,
    `${emails[1]},open,${month}-02T10:00:00`,
    `${emails[1]},click,${month}-02T10:05:00`,
  ].join('\n');
  const upload = await ok<{ task: { _id: string } }>(
    page.request.post(`/api/campaigns/${campaign._id}/mailings/${mailing._id}/results`, {
      multipart: { file: { name: 'resultaten.csv', mimeType: 'text/csv', buffer: Buffer.from(results) } },
    }),
  );
  await waitForTask(page.request, upload.task._id);

  // The sidebar leads to the reports; the partner filter narrows them to this partner.
  await page.goto('/');
  await page.getByRole('link', { name: 'Rapportages', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Rapportages' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Partner' }).click();
  await page.getByRole('option', { name: `Partner ${tag}` }).click();
  await expect(page.getByTestId('chart-delivered').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('chart-rates').locator('svg').first()).toBeVisible();
  const table = page.getByRole('table', { name: 'Rapportage' });
  const row = table.getByRole('row').filter({ hasText: `bestand${tag}` });
  await expect(row).toHaveCount(1);
  // Verzendingen, afgeleverd, geopend, geklikt, bounces, hard bounces, then the three rates.
  await expect(row.getByRole('cell')).toHaveText([
    /.+/,
    `Partner ${tag}`,
    `bestand${tag}`,
    '1',
    '4',
    '2',
    '1',
    '0',
    '0',
    '50,0 %',
    '25,0 %',
    '0,0 %',
  ]);
  await expect(page.getByTestId('report-total')).toContainText('50,0 %');
  // A period that ends before it starts says so, without a report loading for ever, and offers no
  // download (the server would answer it with its refusal).
  const csv = page.getByRole('main').getByLabel('Download CSV');
  await expect(csv).not.toHaveCount(0);
  await page.getByRole('combobox', { name: 'Tot en met' }).click();
  await page.getByRole('option').nth(12).click();
  await expect(page.getByText('De beginmaand moet vóór of gelijk aan de eindmaand liggen')).toBeVisible();
  await expect(page.getByRole('main').locator('.mantine-Loader-root')).toHaveCount(0);
  await expect(csv).toHaveCount(0);

  // The mailing's screen: its results over time, ending at the counts of the mailing list.
  await page.goto(`/campaigns/${campaign._id}/mailings/${mailing._id}/edit`);
  const timeline = page.getByTestId('chart-timeline');
  await expect(timeline.locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('timeline-totals')).toContainText(
    'Afgeleverd 4 · geopend 2 (50,0 %) · geklikt 1 (25,0 %)',
  );
  await page.goto(`/campaigns/${campaign._id}/mailings`);
  await expect(page.getByTestId(`results-${mailing._id}`)).toHaveText('2 / 1 / 0');

  // The pressure screen: its table and beside it the addresses per week.
  await page.goto('/pressure');
  await expect(page.getByRole('table', { name: 'Maildruk' })).toBeVisible();
  await expect(page.getByTestId('chart-pressure').locator('svg').first()).toBeVisible();
});
