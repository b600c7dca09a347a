import { expect, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { loginAsAdmin, unique } from './support/session';

test('partner: validation, create, search, edit, contacts, delete', async ({ page }) => {
  const id = unique('P_');
  await loginAsAdmin(page, '/partners');
  await page.getByRole('link', { name: 'Nieuwe partner' }).first().click();
  await expect(page.getByRole('heading', { name: 'Nieuwe partner' })).toBeVisible();

  // Empty form: the 'Foute invoer' block lists both rules.
  await page.getByRole('button', { name: 'Opslaan' }).click();
  const errors = page.getByRole('alert').filter({ hasText: 'Foute invoer' });
  await expect(errors).toContainText('Het ID veld is verplicht');
  await expect(errors).toContainText('Het naam veld is verplicht');

  await page.getByRole('textbox', { name: 'ID', exact: true }).fill('met spatie');
  await page.getByLabel('Naam').fill('Adressen BV');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(errors).toContainText('Het ID mag alleen letters, cijfers en underscores bevatten');

  await page.getByRole('textbox', { name: 'ID', exact: true }).fill(id);
  await page.getByLabel('Plaats').fill('Zwolle');
  await page.getByLabel('BTW-percentage').fill('21');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('Partner aangemaakt')).toBeVisible();

  await page.goto('/partners');
  await page.getByLabel('Zoeken').fill(id.toLowerCase());
  const row = page.getByRole('row').filter({ hasText: id });
  await expect(row).toContainText('Adressen BV');
  await expect(row).toContainText('Nederland');

  await row.getByRole('link', { name: `Bewerk ${id}` }).click();
  await expect(page.getByRole('textbox', { name: 'ID', exact: true })).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('BTW-percentage')).toHaveValue('21');
  await page.getByLabel('Naam').fill('Adressen B.V.');
  await page.getByLabel('BTW-percentage').fill('9,5');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('Partner opgeslagen')).toBeVisible();
  const stored = await (await page.request.get(`/api/crud-partner/${id}`)).json();
  expect(stored.vatPercentage).toBeCloseTo(0.095);

  // Contacts: the password appears with a username and is then required.
  await page.goto(`/partners/${id}/contacts`);
  await page.getByRole('link', { name: 'Nieuwe contactpersoon' }).click();
  await page.getByLabel('Voornaam').fill('Anna');
  await page.getByLabel('Achternaam').fill('de Vries');
  await expect(page.getByRole('textbox', { name: 'Wachtwoord', exact: true })).toHaveCount(0);
  await page.getByLabel('Gebruikersnaam').fill(unique('anna'));
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Foute invoer' })).toContainText(
    'Het wachtwoord is een verplicht veld',
  );
  await page.getByRole('textbox', { name: 'Wachtwoord', exact: true }).fill('Welkom2026');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('Contactpersoon aangemaakt')).toBeVisible();
  const contactRow = page.getByRole('row').filter({ hasText: 'Anna de Vries' });
  await expect(contactRow).toBeVisible();
  await contactRow.getByRole('button', { name: 'Verwijder Anna de Vries' }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expect(page.getByText('Contactpersoon verwijderd')).toBeVisible();
  await expect(page.getByText('Geen contactpersonen gevonden.')).toBeVisible();

  // Delete with the confirm dialog: 'Nee' keeps it, 'Ja' removes it.
  await page.goto('/partners');
  await page.getByLabel('Zoeken').fill(id);
  await page.getByRole('button', { name: `Verwijder ${id}` }).click();
  await page.getByRole('button', { name: 'Nee' }).click();
  await expect(page.getByRole('row').filter({ hasText: id })).toBeVisible();
  await page.getByRole('button', { name: `Verwijder ${id}` }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expect(page.getByText('Partner verwijderd')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: id })).toHaveCount(0);
});

test('an unknown partner or contact in its form shows the danger alert and goes back to its list', async ({
  page,
}) => {
  await loginAsAdmin(page, `/partners/${unique('onbekend')}/edit`);
  await expectAlert(
    page,
    'danger',
    'An error occured while fetching partner',
    'Deze partner kon niet worden gevonden',
  );
  await expect(page).toHaveURL(/\/partners$/);

  const partnerId = unique('P_');
  const res = await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Contacten BV' } });
  expect(res.status()).toBe(200);
  await page.goto(`/partners/${partnerId}/contacts/${'0'.repeat(24)}/edit`);
  await expectAlert(
    page,
    'danger',
    'An error occured while fetching contact',
    'Deze contactpersoon kon niet worden gevonden',
  );
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/contacts$`));
});
