import { expect, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { loginAsAdmin, unique } from './support/session';

// The e2e server's DNS server (server/test/dns-server.ts) answers by a name's first label:
// mx-* has MX, a-* only an A record, nodata-* nothing, anything else does not exist.
test('DNS check: start, see each result, add the preselected domains to the blacklist, keep the result after a reload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/dns-check');
  const tag = unique('d');
  const domains = {
    ok: `mx-${tag}.test`,
    implicit: `a-${tag}.test`,
    noMx: `nodata-${tag}.test`,
    gone: `${tag}.test`,
  };

  // Addresses at those domains come in by an upload into a dataset.
  const partnerId = unique('Dns_');
  expect(
    (await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'DNS BV' } })).status(),
  ).toBe(200);
  expect(
    (await page.request.post(`/api/datasets/${partnerId}`, { data: { name: 'adressen' } })).status(),
  ).toBe(200);
  const file = [
    'email',
    `a@${domains.ok}`,
    `b@${domains.ok}`,
    `c@${domains.implicit}`,
    `d@${domains.noMx}`,
    `e@${domains.gone}`,
  ].join('\n');
  const upload = await page.request.post(`/api/import/${partnerId}/adressen`, {
    multipart: { file: { name: 'adressen.csv', mimeType: 'text/csv', buffer: Buffer.from(file) } },
  });
  expect(upload.status()).toBe(200);
  const taskId = (await upload.json()).task._id as string;
  await expect
    .poll(async () => (await (await page.request.get(`/api/tasks/${taskId}`)).json()).state)
    .toBe('done');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'DNS Check' })).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  const row = (domain: string) => page.getByTestId(`dns-row-${domain}`);
  await expect(row(domains.noMx)).toBeVisible();
  await expect(row(domains.ok)).toContainText('Gevonden');
  await expect(row(domains.ok)).toContainText('2');
  await expect(row(domains.implicit)).toContainText('Gevonden');
  await expect(row(domains.noMx)).toContainText('Geen MX');
  await expect(row(domains.gone)).toContainText('Niet gevonden');

  // Geen MX and Niet gevonden are preselected; Gevonden is not.
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.gone}` })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.ok}` })).not.toBeChecked();

  // Select-all selects every row and clears it again; the button needs a selection.
  await page.getByRole('checkbox', { name: 'Alles selecteren' }).check();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.ok}` })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Alles selecteren' }).uncheck();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` })).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Voeg toe aan blacklist' })).toBeDisabled();

  // The result stays after a reload, preselection and all; adding blacklists the selected domains.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` })).toBeChecked();
  await page.getByRole('checkbox', { name: `Selecteer ${domains.gone}` }).uncheck();
  await page.getByRole('button', { name: 'Voeg toe aan blacklist' }).click();
  await expectAlert(page, 'success', 'Toegevoegd aan blacklist');
  await expect(row(domains.noMx)).toContainText('Op blacklist');
  await expect(row(domains.gone)).not.toContainText('Op blacklist');

  await page.goto('/blacklist/domain');
  await page.getByRole('textbox', { name: 'Zoeken' }).fill(tag);
  await expect(page.getByRole('cell', { name: domains.noMx, exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: domains.gone, exact: true })).toHaveCount(0);
});
