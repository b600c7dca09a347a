import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

test('interest types: validation, create, paged search, duplicate, delete with confirmation', async ({
  page,
}) => {
  const prefix = unique('it');
  const name = `${prefix} Reizen`;
  await loginAsAdmin(page, '/interest-types');
  await expect(page.getByRole('heading', { name: 'Lijst van interesse types' })).toBeVisible();

  await page.getByRole('link', { name: 'Nieuwe klikinteresse' }).click();
  await expect(page.getByRole('heading', { name: 'Nieuwe klikinteresse' })).toBeVisible();
  await page.getByLabel('Naam:').fill('   ');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Ongeldige interesse type' })).toContainText(
    'Interesse type naam mag niet leeg zijn of alleen maar witruimte bevatten',
  );
  await expect(page).toHaveURL(/\/interest-types\/new$/);

  await page.getByLabel('Naam:').fill(`  ${name}  `);
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Interesse type succesvol aangemaakt' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/interest-types$/);

  // Eleven more with the same prefix: the search finds twelve, ten on the first page.
  for (let i = 0; i < 11; i++) {
    const res = await page.request.post('/api/click-interest-types', {
      data: { name: `${prefix} extra ${String(i).padStart(2, '0')}` },
    });
    expect(res.status()).toBe(200);
  }
  await page.reload();
  await page.getByLabel('Zoeken').fill(prefix.toUpperCase());
  const rows = page.getByRole('row').filter({ hasText: prefix });
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText(`${prefix} extra 00`);
  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.last()).toContainText(name);

  // A duplicate in another case is refused by the server.
  await page.getByRole('link', { name: 'Nieuwe klikinteresse' }).click();
  await page.getByLabel('Naam:').fill(name.toUpperCase());
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Interesse type kon niet worden opgeslagen' }),
  ).toContainText('bestaat al');

  await page.goto('/interest-types');
  await page.getByLabel('Zoeken').fill('reizen');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Verwijder ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('interest type verwijderen?');
  await dialog.getByRole('button', { name: 'Ja' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Interesse type is succesvol verwijderd' }),
  ).toBeVisible();
  await page.getByLabel('Zoeken').fill(name);
  await expect(page.getByText('Geen interesses types gevonden')).toBeVisible();
  expect(await (await page.request.get('/api/click-interest-types')).json()).not.toContain(name);
});

test('interest types: the loading message shows until the page arrives; a failed fetch shows a danger alert', async ({
  page,
}) => {
  await loginAsAdmin(page, '/tasks');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/paginated-click-interest-types/**', async (route) => {
    await held;
    await route.fulfill({ status: 500, json: { message: 'Er ging iets mis op de server' } });
  });
  await page.goto('/interest-types');
  await expect(page.getByText('Interesse types ophalen...')).toBeVisible();
  release();
  await expect(page.getByRole('alert').filter({ hasText: 'Kon interesse types niet ophalen' })).toContainText(
    'Er ging iets mis op de server',
  );
});
