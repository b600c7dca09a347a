import { expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { importCsv, ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// The mapping editor does not drop unsaved work. Leaving with unsaved changes asks
// first (in-app links, breadcrumbs, the sidebar, the browser's back button, reload), and a
// column's 'Waarden' saves first (or says why it cannot). Trim refuses '1,5'.

const PROMPT = 'Niet-opgeslagen wijzigingen';

/** A partner with a dataset whose file (email, naam, geslacht) is imported; answers their ids. */
async function seedDataset(page: Page): Promise<{ partnerId: string; datasetId: string; name: string }> {
  const partnerId = unique('Unsaved_');
  const name = unique('Leden');
  await ok(page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Map BV' } }));
  const { _id: datasetId } = await ok(page.request.post(`/api/datasets/${partnerId}`, { data: { name } }));
  const csv = 'email,naam,geslacht\njan@voorbeeld.nl,Jan,M\nmies@voorbeeld.nl,Mies,V\n';
  await importCsv(page.request, partnerId, name, csv, 'leden.csv');
  return { partnerId, datasetId, name };
}

/** Opens the mapping editor from the dataset list (an in-app navigation, so Back stays in the app). */
async function openEditor(page: Page, partnerId: string, name: string) {
  await page.goto(`/partners/${partnerId}/datasets`);
  await page.getByRole('link', { name: `Map kolommen van ${name}` }).click();
  await expect(page.getByRole('heading', { name: 'Map', exact: true })).toBeVisible();
  await expect(page.getByTestId('mapping-row').first()).toBeVisible();
}

test('leaving the mapping editor with unsaved changes asks first; staying keeps them', async ({ page }) => {
  await loginAsAdmin(page, '/');
  const { partnerId, datasetId, name } = await seedDataset(page);
  const editorUrl = new RegExp(`/partners/${partnerId}/datasets/${datasetId}/headers$`);

  // Without changes nothing is asked.
  await openEditor(page, partnerId, name);
  await page.getByRole('link', { name: 'Terug naar bestanden' }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets$`));

  await page.getByRole('link', { name: `Map kolommen van ${name}` }).click();
  const naam = page.getByRole('combobox', { name: 'Kenmerk voor naam', exact: true });
  await naam.fill('firstName');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('unsaved')).toBeVisible();

  const dialog = page.getByRole('dialog', { name: PROMPT });
  const stay = async () => {
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Op deze pagina blijven' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(editorUrl);
    await expect(naam).toHaveValue('firstName');
  };

  // The screen's own link, a breadcrumb, the sidebar: each asks, and staying keeps the change.
  await page.getByRole('link', { name: 'Terug naar bestanden' }).click();
  await stay();
  await page.getByRole('navigation', { name: 'Kruimelpad' }).getByRole('link', { name: 'Bestanden' }).click();
  await stay();
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Taken', exact: true })
    .click();
  await stay();

  // The browser's back button asks too.
  await page.goBack();
  await stay();

  // A reload asks through the browser's own question; dismissing it keeps the page and the change.
  const question = page.waitForEvent('dialog');
  const reload = page.reload().catch(() => null);
  const beforeUnload = await question;
  expect(beforeUnload.type()).toBe('beforeunload');
  await beforeUnload.dismiss();
  await Promise.race([reload, page.waitForTimeout(1000)]);
  await expect(naam).toHaveValue('firstName');

  // Leaving without saving goes, and the change is gone.
  await page.getByRole('link', { name: 'Terug naar bestanden' }).click();
  await dialog.getByRole('button', { name: 'Verlaten zonder opslaan' }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets$`));
  const saved = await (await page.request.get(`/api/datasets/${partnerId}/${datasetId}/mappings`)).json();
  expect(saved.map((m: { mapped: string }) => m.mapped)).not.toContain('firstName');
});

test("a column's 'Waarden' right after mapping it saves first and opens its values", async ({ page }) => {
  await loginAsAdmin(page, '/');
  const { partnerId, datasetId, name } = await seedDataset(page);
  await openEditor(page, partnerId, name);

  // An unsaved change that cannot be saved: 'Waarden' says why and stays. Trim '1,5' is refused
  // with its message (it used to become 15).
  await page.getByRole('combobox', { name: 'Kenmerk voor naam', exact: true }).fill('firstName');
  await page.keyboard.press('Escape');
  const trim = page.getByRole('textbox', { name: 'Trim naam', exact: true });
  await trim.fill('1,5');
  await expect(page.getByText('Trim moet een geheel getal van 0 of meer zijn')).toBeVisible();
  await page.getByRole('combobox', { name: 'Kenmerk voor geslacht', exact: true }).fill('gender');
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Waarden van geslacht' }).click();
  await expectAlert(
    page,
    'danger',
    'De waarden openen pas na opslaan, en opslaan lukt nog niet',
    'Trim moet een geheel getal van 0 of meer zijn',
  );
  await expect(page.getByRole('heading', { name: 'Map', exact: true })).toBeVisible();

  // With the trim fixed, 'Waarden' saves the mapping and opens the column's values, without a prompt.
  await trim.fill('3');
  await expect(page.getByText('Trim moet een geheel getal van 0 of meer zijn')).toHaveCount(0);
  await page.getByRole('link', { name: 'Waarden van geslacht' }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets/${datasetId}/geslacht/mappings`));
  await expect(page.getByRole('heading', { name: 'Kenmerken' })).toBeVisible();
  await expect(page.getByText('Ga terug en map deze kolom eerst')).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: PROMPT })).toHaveCount(0);
  const saved = await (await page.request.get(`/api/datasets/${partnerId}/${datasetId}/mappings`)).json();
  expect(saved).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ field: 'naam', mapped: 'firstName', trim: 3 }),
      expect.objectContaining({ field: 'geslacht', mapped: 'gender' }),
    ]),
  );
});
