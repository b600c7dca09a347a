import { expect, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { ok } from './support/api';
import { loginAsAdmin } from './support/session';

// An enrichment file named '..' (saved before the name rule refused such names) can
// be deleted from the list; a browser resolves '..' away in a URL path, so the screen sends the
// name as ?name=.

test('enrichment: a file named .. is deleted from the list', async ({ page }) => {
  await loginAsAdmin(page, '/');
  await ok(await page.request.post('/api/e2e/enrichment-files', { data: { name: '..' } }));
  await page.goto('/enrichment');
  await expect(page.getByRole('heading', { name: 'Verrijkingsbestanden' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Zoeken' }).fill('..');
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: '..', exact: true }) });
  await expect(row).toHaveCount(1);
  await page.getByRole('button', { name: 'Verwijder ..', exact: true }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Het verrijkingsbestand is verwijderd');
  await expect(row).toHaveCount(0);
  const listed = await ok<{ name: string }[]>(await page.request.get('/api/enrichment/files'));
  expect(listed.map((f) => f.name)).not.toContain('..');
});
