import { expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { loginAs, loginAsAdmin, unique } from './support/session';

// spec 001 §2 Users, §5 (password rules), §8: the user list, form validation, create, edit,
// delete with the ja/nee dialog, and an unknown user.

// The accessible names skip Mantine's aria-hidden ' *', so 'Naam' does not also find 'Gebruikersnaam'.
const nameField = (page: Page) => page.getByRole('textbox', { name: 'Naam', exact: true });
const usernameField = (page: Page) => page.getByRole('textbox', { name: 'Gebruikersnaam', exact: true });
const passwordField = (page: Page) => page.getByLabel('Wachtwoord');

async function searchUsers(page: Page, term: string): Promise<void> {
  await page.getByLabel('Zoeken').fill(term);
}

test('creates, edits and deletes a user through the screens', async ({ page, request }) => {
  const username = unique('gebruiker');
  const name = unique('Piet ');
  const newName = unique('Klaas ');
  await loginAsAdmin(page, '/users');
  await expect(page.getByRole('heading', { name: 'Gebruikers' })).toBeVisible();

  await page.getByRole('link', { name: 'Nieuwe gebruiker' }).click();
  await expect(page).toHaveURL(/\/users\/new$/);
  await expect(page.getByRole('heading', { name: 'Nieuwe gebruiker' })).toBeVisible();

  // An empty form: the danger alert and a message under every field.
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'danger', 'Foute invoer', 'De naam is een verplicht veld');
  await expect(nameField(page)).toHaveAccessibleDescription('De naam is een verplicht veld');
  await expect(usernameField(page)).toHaveAccessibleDescription('De gebruikersnaam is een verplicht veld');
  await expect(passwordField(page)).toHaveAccessibleDescription(/Het wachtwoord is een verplicht veld/);
  await expect(page).toHaveURL(/\/users\/new$/);

  // A weak password.
  await nameField(page).fill(name);
  await usernameField(page).fill(username);
  await passwordField(page).fill('abc');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(passwordField(page)).toHaveAccessibleDescription(
    /Het wachtwoord moet minimaal 8 tekens bevatten/,
  );
  await expect(nameField(page)).toHaveAccessibleDescription('');
  await expect(page).toHaveURL(/\/users\/new$/);

  // Valid values create the user; the role is 'Medewerker' unless the administrator chooses.
  await passwordField(page).fill('Geheim123');
  await expect(page.getByRole('radio', { name: 'Medewerker' })).toBeChecked();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Gebruiker is aangemaakt');
  await expect(page).toHaveURL(/\/users$/);
  await searchUsers(page, username);
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(name);
  await expect(row).toContainText('Medewerker');
  await expect(row.getByTestId('twofa-key')).toHaveCount(0);

  // Edit: a new name and the role Beheerder, the password left empty.
  await row.getByRole('link', { name: `Bewerk ${username}` }).click();
  await expect(page).toHaveURL(/\/users\/edit\/[0-9a-f]+$/);
  await expect(nameField(page)).toHaveValue(name);
  await expect(passwordField(page)).toHaveValue('');
  await nameField(page).fill(newName);
  await page.getByRole('radio', { name: 'Beheerder' }).check();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Gebruiker succesvol opgeslagen');
  await expect(page).toHaveURL(/\/users$/);
  await searchUsers(page, username);
  await expect(row).toContainText(newName);
  await expect(row).toContainText('Beheerder');
  // The old password still works (own cookie jar, the browser stays the admin's): empty kept it.
  const check = await request.post('/api/auth/login', { data: { username, password: 'Geheim123' } });
  expect(check.status()).toBe(200);

  // Delete: 'Nee' keeps the user, 'Ja' removes it.
  await row.getByRole('button', { name: `Verwijder ${username}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(username);
  await dialog.getByRole('button', { name: 'Nee' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toHaveCount(1);

  await row.getByRole('button', { name: `Verwijder ${username}` }).click();
  await dialog.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Gebruiker succesvol verwijderd');
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Geen gebruikers gevonden.')).toBeVisible();
});

test('a username in use is refused with the server message', async ({ page }) => {
  const username = unique('dubbel');
  await loginAsAdmin(page, '/users/new');
  const created = await page.request.post('/api/users', {
    data: { name: 'Eerste', username, password: 'Geheim123' },
  });
  expect(created.status()).toBe(200);

  await nameField(page).fill('Tweede');
  await usernameField(page).fill(username);
  await passwordField(page).fill('Geheim123');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'danger', 'Foute invoer', 'Deze gebruikersnaam is al in gebruik');
  await expect(page).toHaveURL(/\/users\/new$/);
});

test('an unknown user shows "Gebruiker niet gevonden" and returns to the list', async ({ page }) => {
  await loginAsAdmin(page, '/users');
  await page.goto('/users/edit/doesnotexist');
  await expectAlert(page, 'danger', 'Gebruiker niet gevonden', 'Deze gebruiker kan niet gevonden worden');
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { name: 'Gebruikers' })).toBeVisible();
});

test('a staff member sees no Gebruikers section, gets Geen toegang there, and changes only their own password', async ({
  page,
}) => {
  const username = unique('medewerker');
  const name = unique('Mia ');
  await loginAsAdmin(page, '/users');
  const created = await page.request.post('/api/users', { data: { name, username, password: 'Geheim123' } });
  expect(created.status()).toBe(200);
  const { _id: id } = (await created.json()) as { _id: string };
  await page.getByRole('button', { name: /Log uit/ }).click();
  await expect(page.getByRole('heading', { name: 'Inloggen' })).toBeVisible();

  await loginAs(page, username, 'Geheim123', '/partners');
  const menu = page.getByRole('navigation', { name: 'Hoofdmenu' });
  await expect(menu.getByRole('link', { name: 'Partners' }).first()).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Gebruikers' })).toHaveCount(0);
  await expect(menu.getByText('Gebruikers', { exact: true })).toHaveCount(0);

  // The administrators' screens say so, and the session stays.
  for (const path of ['/users', '/users/new', '/users/edit/iemand-anders']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Geen toegang' })).toBeVisible();
    await expect(page.getByText('Alleen een beheerder kan gebruikers beheren.')).toBeVisible();
    await expect(page.getByRole('button', { name: `Log uit (${name})` })).toBeVisible();
  }

  // 'Mijn account': no role to choose; a new password needs the current one.
  await page.getByRole('link', { name: 'Mijn account' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/edit/${id}$`));
  await expect(page.getByRole('heading', { name: 'Mijn account' })).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(0);
  await page.getByLabel('Nieuw wachtwoord').fill('Nieuw12345');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(
    page,
    'danger',
    'Foute invoer',
    'Vul je huidige wachtwoord in om je wachtwoord te wijzigen',
  );
  await page.getByLabel('Huidig wachtwoord').fill('Geheim123');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Gebruiker succesvol opgeslagen');
  await expect(page.getByRole('button', { name: `Log uit (${name})` })).toBeVisible();
  const check = await page.request.post('/api/auth/login', { data: { username, password: 'Nieuw12345' } });
  expect(check.status()).toBe(200);
});
