import { expect, test } from '@playwright/test';
import { GENDER_LABELS } from '../common/person';
import { loginAsAdmin } from './support/session';

test('settings: a non-number is refused and kept as typed; saved values come back after a reload', async ({
  page,
}) => {
  await loginAsAdmin(page, '/settings');
  await expect(page.getByRole('heading', { name: 'Instellingen' })).toBeVisible();
  const minMailings = page.getByLabel('Minimale verzendingen');
  await expect(minMailings).toHaveValue('1');

  await minMailings.fill('drie');
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Opslaan mislukt' })).toContainText(
    'Minimale verzendingen moet een getal zijn',
  );
  await expect(page.getByText('Minimale verzendingen moet een getal zijn').first()).toBeVisible();
  await expect(minMailings).toHaveValue('drie');
  // The server keeps the rule too: it stores only a number.
  const refused = await page.request.post('/api/settings', { data: { minMailings: 'drie', solarId: '' } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toBe('Minimale verzendingen moet een getal zijn');

  await minMailings.fill('3');
  await page.getByLabel('Standaard Solar ID').fill('SOLAR-7');
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Opgeslagen' })).toContainText(
    'De instellingen zijn opgeslagen.',
  );

  await page.reload();
  await expect(page.getByLabel('Minimale verzendingen')).toHaveValue('3');
  await expect(page.getByLabel('Standaard Solar ID')).toHaveValue('SOLAR-7');
  expect(await (await page.request.get('/api/settings')).json()).toEqual({
    minMailings: 3,
    solarId: 'SOLAR-7',
    retentionDays: expect.any(Number),
  });
});

test('test person: loading first, e-mail required and valid, saved values come back after a reload', async ({
  page,
}) => {
  await loginAsAdmin(page, '/settings');
  // Other journeys may have saved a test person already (the mailings journey needs one for its
  // test list): the form starts with what the server holds, 'man' when nothing was saved.
  const stored = await (await page.request.get('/api/testperson')).json();
  const startGender = GENDER_LABELS[(stored?.gender ?? 'M') as keyof typeof GENDER_LABELS];
  // Hold the test person answer until 'Loading...' has been seen (later calls pass straight on).
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/testperson', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('link', { name: 'Bewerk testpersoon' }).click();
  await expect(page).toHaveURL(/\/settings\/testperson$/);
  await expect(page.getByText('Loading...')).toBeVisible();
  release();

  const gender = page.getByRole('combobox', { name: 'Geslacht' });
  await expect(gender).toHaveValue(startGender);
  await page.getByLabel('Voornaam').fill('Tess');
  await page.getByLabel('Tussenvoegsel').fill('van');
  await page.getByLabel('Achternaam').fill('Testen');
  await page.getByLabel('E-mailadres').fill('');
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Opslaan mislukt' })).toContainText(
    'Het e-mailadres is verplicht',
  );

  await page.getByLabel('E-mailadres').fill('geen-adres');
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByText('Vul een geldig e-mailadres in').first()).toBeVisible();

  await page.getByLabel('E-mailadres').fill('Tess@Example.nl');
  await gender.click();
  // Another gender than the one shown (choosing the shown one again would clear the select).
  const chosen = startGender === 'vrouw' ? 'onbekend' : 'vrouw';
  await page.getByRole('option', { name: chosen, exact: true }).click();
  await page.getByRole('button', { name: 'Sla op' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Opgeslagen' })).toContainText(
    'De instellingen zijn opgeslagen.',
  );

  await page.reload();
  await expect(page.getByLabel('Voornaam')).toHaveValue('Tess');
  await expect(page.getByLabel('Tussenvoegsel')).toHaveValue('van');
  await expect(page.getByLabel('Achternaam')).toHaveValue('Testen');
  await expect(page.getByRole('combobox', { name: 'Geslacht' })).toHaveValue(chosen);
  await expect(page.getByLabel('E-mailadres')).toHaveValue('tess@example.nl');
  await page.getByRole('link', { name: 'Terug' }).click();
  await expect(page.getByRole('heading', { name: 'Instellingen' })).toBeVisible();
});
