import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

test('labels: validation, create, duplicate, search, refused delete while in use, delete with confirmation', async ({
  page,
}) => {
  const name = unique('Label ');
  await loginAsAdmin(page, '/types');
  await expect(page.getByRole('heading', { name: 'Labels' })).toBeVisible();

  // Only white space is refused on screen, under the field and in a red alert.
  await page.getByRole('link', { name: 'Nieuw label' }).click();
  await expect(page).toHaveURL(/\/types\/new$/);
  await page.getByRole('textbox', { name: 'Label', exact: true }).fill('   ');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Label kon niet worden opgeslagen' })).toContainText(
    'Label mag niet leeg zijn of alleen maar witruimte bevatten',
  );
  await expect(page.locator('form')).toContainText(
    'Label mag niet leeg zijn of alleen maar witruimte bevatten',
  );

  // Created trimmed; back on the list.
  await page.getByRole('textbox', { name: 'Label', exact: true }).fill(`  ${name}  `);
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Label succesvol aangemaakt' })).toBeVisible();
  await expect(page).toHaveURL(/\/types$/);

  // The same name again: the server's 409 message in the danger alert.
  await page.goto('/types/new');
  await page.getByRole('textbox', { name: 'Label', exact: true }).fill(name);
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Label kon niet worden opgeslagen' })).toContainText(
    `Het label '${name}' bestaat al`,
  );

  // Search (case-insensitive) finds it; no edit link for a label.
  await page.goto('/types');
  await page.getByLabel('Zoeken').fill(name.toUpperCase());
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link')).toHaveCount(0);

  // In use by a campaign: the delete is refused, naming the campaign.
  const campaign = await page.request.post('/api/campaigns', {
    data: { name: `Gebruikt ${name}`, type: name },
  });
  expect(campaign.status()).toBe(200);
  await row.getByRole('button', { name: `Verwijder ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ja' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Label kon niet worden verwijderd' })).toContainText(
    `in gebruik bij campagne Gebruikt ${name}`,
  );
  await expect(row).toHaveCount(1);

  // Free again: 'Nee' keeps it, 'Ja' deletes it.
  expect((await page.request.delete(`/api/campaigns/${(await campaign.json())._id}`)).status()).toBe(200);
  await row.getByRole('button', { name: `Verwijder ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Weet je zeker dat je het label ${name} wilt verwijderen?`);
  await dialog.getByRole('button', { name: 'Nee' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Verwijder ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ja' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: `Label ${name} is successvol verwijderd` }),
  ).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Geen labels gevonden.')).toBeVisible();
  expect(await (await page.request.get('/api/types')).json()).not.toContain(name);
});

test('labels: a failed fetch shows the danger alert', async ({ page }) => {
  await loginAsAdmin(page, '/tasks');
  await page.route('**/api/types', (route) =>
    route.fulfill({ status: 500, json: { message: 'Er ging iets mis op de server' } }),
  );
  await page.goto('/types');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Labels konden niet worden opgehaald' }),
  ).toContainText('Er ging iets mis op de server');
});
