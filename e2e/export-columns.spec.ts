import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

test('export columns: validation, add with suggestions, default type, duplicate, search, delete with confirmation', async ({
  page,
}) => {
  const free = unique('kolom_');
  await loginAsAdmin(page, '/csv-columns');
  await expect(page.getByRole('heading', { name: 'CSV Export kolommen' })).toBeVisible();

  await page.getByRole('link', { name: 'Nieuwe kolom' }).click();
  await expect(page).toHaveURL(/\/csv-columns\/new$/);
  await page.getByRole('button', { name: 'Voeg toe' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Error' })).toContainText(
    'De kolomnaam is verplicht',
  );

  // Suggestions come from the global mappings, matched case-insensitively anywhere in the name.
  const column = page.getByRole('combobox', { name: 'Kolom' });
  await column.fill('THDAT');
  await page.getByRole('option', { name: 'birthDate', exact: true }).click();
  await expect(column).toHaveValue('birthDate');
  const type = page.getByRole('combobox', { name: 'Type' });
  await expect(type).toHaveValue('Tekst');
  await type.click();
  await page.getByRole('option', { name: 'Datum', exact: true }).click();
  await page.getByRole('button', { name: 'Voeg toe' }).click();
  await expect(page).toHaveURL(/\/csv-columns$/);
  await expect(page.getByRole('row').filter({ hasText: 'birthDate' })).toContainText('Datum');

  // A name that is not a global attribute, with the default type.
  await page.getByRole('link', { name: 'Nieuwe kolom' }).click();
  await page.getByRole('combobox', { name: 'Kolom' }).fill(free);
  await page.getByRole('button', { name: 'Voeg toe' }).click();
  await expect(page).toHaveURL(/\/csv-columns$/);
  await expect(page.getByRole('row').filter({ hasText: free })).toContainText('Tekst');

  // The same column twice: the danger alert titled 'Error', and the form stays.
  await page.getByRole('link', { name: 'Nieuwe kolom' }).click();
  await page.getByRole('combobox', { name: 'Kolom' }).fill('birthDate');
  await page.getByRole('button', { name: 'Voeg toe' }).click();
  // The first check's toast may still be shown (toasts stack bottom right): find this one by its text.
  await expect(
    page.getByRole('alert').filter({ hasText: 'Error' }).filter({ hasText: 'Kolom birthDate bestaat al' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/csv-columns\/new$/);
  await page.getByRole('link', { name: 'Terug' }).click();
  await expect(page).toHaveURL(/\/csv-columns$/);

  await page.getByLabel('Zoeken').fill('BIRTH');
  const row = page.getByRole('row').filter({ hasText: 'birthDate' });
  await expect(row).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: free })).toHaveCount(0);
  await row.getByRole('button', { name: 'Verwijder birthDate' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Verwijder');
  await expect(dialog).toContainText('Weet je zeker dat je birthDate wilt verwijderen?');
  await dialog.getByRole('button', { name: 'Ja' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Kolom verwijderd' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'birthDate' })).toHaveCount(0);
  const stored = (await (await page.request.get('/api/export/columns')).json()) as { _id: string }[];
  expect(stored.map((c) => c._id)).toContain(free);
  expect(stored.map((c) => c._id)).not.toContain('birthDate');
});
