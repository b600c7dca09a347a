import { expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { loginAsAdmin, unique } from './support/session';

/** Types a DD-MM-YYYY date into a date field and closes its calendar. */
async function typeDate(page: Page, label: string, value: string) {
  const input = page.getByRole('textbox', { name: label });
  await input.fill(value);
  await page.keyboard.press('Escape');
}

test('datasets: create, search, edit with key, commission, participation, test persons, delete', async ({
  page,
}) => {
  await loginAsAdmin(page, '/partners');
  const partnerId = unique('P_');
  const label = unique('Label');
  expect(
    (await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Lijsten BV' } })).status(),
  ).toBe(200);
  expect((await page.request.post('/api/types', { data: { type: label } })).status()).toBe(200);
  const name = unique('Zomer');
  const otherName = unique('Winter');

  // The list of a partner without datasets.
  await page.goto(`/partners/${partnerId}/datasets`);
  await expect(page.getByRole('heading', { name: 'Bestanden van Lijsten BV' })).toBeVisible();
  await expect(page.getByTestId('total-records')).toHaveText('Totaal aantal records: 0');
  await expect(page.getByText('Geen bestanden gevonden.')).toBeVisible();

  // Create: the name pattern is checked before saving.
  await page.getByRole('link', { name: 'Nieuw bestand' }).click();
  await expect(page.getByRole('heading', { name: 'Nieuw bestand voor Lijsten BV' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Naam', exact: true }).fill('met spatie');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('De naam mag alleen letters en cijfers bevatten').first()).toBeVisible();
  await expectAlert(page, 'danger', 'Could not save dataset');

  await page.getByRole('textbox', { name: 'Naam', exact: true }).fill(name);
  await page.getByLabel('Omschrijving').fill('Zomeractie');
  await page.getByRole('combobox', { name: 'Labels' }).click();
  await page.getByRole('option', { name: label }).click();
  await page.keyboard.press('Escape');
  await page.getByLabel('Sortering').fill('2');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Bestand aangemaakt');
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets$`));

  // A second dataset with the same name is refused with the server's message.
  const dup = await page.request.post(`/api/datasets/${partnerId}`, { data: { name } });
  expect(dup.status()).toBe(409);
  expect((await dup.json()).error).toContain(name);
  const other = await (
    await page.request.post(`/api/datasets/${partnerId}`, { data: { name: otherName, sort: 5 } })
  ).json();

  // Search narrows the list; the row offers its actions.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: otherName })).toBeVisible();
  await page.getByLabel('Zoeken').fill(name.toLowerCase());
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Zomeractie');
  await expect(row).toContainText(label);
  await expect(page.getByRole('row').filter({ hasText: otherName })).toHaveCount(0);
  const csv = row.getByRole('link', { name: `Download CSV van ${name}` });
  await expect(csv).toHaveAttribute('href', /\/api\/datasets\/.+\/csv$/);
  await expect(row.getByRole('link', { name: `Upload naar ${name}` })).toHaveAttribute(
    'href',
    new RegExp(`^/upload/${partnerId}/`),
  );
  await expect(row.getByRole('link', { name: `Map kolommen van ${name}` })).toHaveAttribute(
    'href',
    /\/headers$/,
  );

  // Edit: the API key is shown read-only and can be replaced.
  await row.getByRole('link', { name: `Bewerk ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Bestand ${name} van Lijsten BV bewerken` })).toBeVisible();
  const datasetUrl = page.url().replace(/\/edit$/, '');
  const datasetId = new URL(datasetUrl).pathname.split('/').pop();
  const keyField = page.getByRole('textbox', { name: 'Sleutel' });
  await expect(keyField).toHaveAttribute('readonly', '');
  const oldKey = await keyField.inputValue();
  expect(oldKey).toMatch(/^[0-9a-f]{48}$/);
  await page.getByRole('button', { name: 'Nieuwe sleutel' }).click();
  await page.getByRole('button', { name: 'Ja', exact: true }).click();
  await expectAlert(page, 'success', 'Nieuwe API-sleutel aangemaakt');
  await expect(keyField).not.toHaveValue(oldKey);
  await page.getByLabel('Omschrijving').fill('Zomeractie 2024');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Bestand opgeslagen');
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Zomeractie 2024');

  // Commission with a comma amount; save is disabled while the amount is empty.
  await page.goto(`${datasetUrl}/edit`);
  await page.getByRole('link', { name: 'Commissies' }).click();
  await expect(page.getByRole('heading', { name: `Commissies van ${name}` })).toBeVisible();
  await page.getByRole('link', { name: 'Nieuwe commissie' }).click();
  await expect(page.getByRole('button', { name: 'Opslaan' })).toBeDisabled();
  await typeDate(page, 'Startdatum', '01-01-2024');
  await typeDate(page, 'Einddatum', '31-12-2024');
  await page.getByRole('textbox', { name: 'Bedrag' }).fill('0,05');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Commissie toegevoegd');
  const commissionRow = page.getByRole('row').filter({ hasText: '01-01-2024' });
  await expect(commissionRow).toContainText('31-12-2024');
  await expect(commissionRow).toContainText('0,05 commissie');
  const stored = await (await page.request.get(`/api/datasets/${partnerId}/${datasetId}`)).json();
  expect(stored.commission).toEqual([
    { _id: expect.any(String), start: '2024-01-01', end: '2024-12-31', amount: 0.05 },
  ]);

  // An overlapping period is refused by the server.
  await page.getByRole('link', { name: 'Nieuwe commissie' }).click();
  await typeDate(page, 'Startdatum', '01-06-2024');
  await typeDate(page, 'Einddatum', '30-06-2024');
  await page.getByRole('textbox', { name: 'Bedrag' }).fill('1');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(
    page,
    'danger',
    'Kon commissie niet toevoegen',
    'overlapt met een bestaande commissie (01-01-2024 t/m 31-12-2024)',
  );

  // Participation: an end before the start is an error; moving the start past the end moves the end.
  await page.goto(`${datasetUrl}/participation`);
  await expect(page.getByRole('heading', { name: `Extra inzet van ${name}` })).toBeVisible();
  await page.getByRole('link', { name: 'Nieuwe extra inzet' }).click();
  await typeDate(page, 'Startdatum', '10-05-2024');
  await typeDate(page, 'Einddatum', '01-05-2024');
  await page.getByRole('textbox', { name: 'Factor' }).fill('1,5');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('De einddatum mag niet voor de startdatum liggen').first()).toBeVisible();
  await expectAlert(
    page,
    'danger',
    'Kon extra inzet niet toevoegen',
    'De einddatum mag niet voor de startdatum liggen',
  );
  await typeDate(page, 'Einddatum', '15-05-2024');
  await typeDate(page, 'Startdatum', '20-05-2024');
  await expect(page.getByRole('textbox', { name: 'Einddatum' })).toHaveValue('20-05-2024');
  await typeDate(page, 'Einddatum', '31-05-2024');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Extra inzet toegevoegd');
  const participationRow = page.getByRole('row').filter({ hasText: '20-05-2024' });
  await expect(participationRow).toContainText('31-05-2024');
  await expect(participationRow).toContainText('1,5');

  // Edit: the start is fixed, the factor changes.
  await participationRow.getByRole('link', { name: 'Bewerk 20-05-2024 t/m 31-05-2024' }).click();
  await expect(page.getByRole('textbox', { name: 'Startdatum' })).toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Factor' })).toHaveValue('1,5');
  await page.getByRole('textbox', { name: 'Factor' }).fill('2,25');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Extra inzet bewerkt');
  await expect(page.getByRole('row').filter({ hasText: '20-05-2024' })).toContainText('2,25');

  // An unknown type sends the user back to the dataset.
  await page.goto(`${datasetUrl}/provisie`);
  await expect(page).toHaveURL(`${datasetUrl}/edit`);

  // Test persons: the e-mail is required; add one, then delete it.
  await page.getByRole('link', { name: 'Testpersonen' }).click();
  await expect(page.getByRole('heading', { name: `Testpersonen van ${name}` })).toBeVisible();
  await page.getByRole('link', { name: 'Nieuwe testpersoon' }).click();
  await expect(page.getByRole('combobox', { name: 'Geslacht' })).toHaveValue('man');
  await page.getByLabel('Voornaam').fill('Els');
  await page.getByLabel('Achternaam').fill('Jansen');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('Het e-mailadres is een verplicht veld').first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Geslacht' }).click();
  await page.getByRole('option', { name: 'vrouw', exact: true }).click();
  await page.getByLabel('E-mailadres').fill('els@example.nl');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Testpersoon aangemaakt');
  const personRow = page.getByRole('row').filter({ hasText: 'Els Jansen' });
  await expect(personRow).toContainText('vrouw');
  await expect(personRow).toContainText('els@example.nl');
  await personRow.getByRole('button', { name: 'Verwijder Els Jansen' }).click();
  await page.getByRole('button', { name: 'Ja', exact: true }).click();
  await expectAlert(page, 'success', 'Testpersoon verwijderd');
  await expect(page.getByText('Geen testpersonen gevonden.')).toBeVisible();

  // Delete with the confirm dialog: 'Nee' keeps it, 'Ja' removes it.
  await page.goto(`/partners/${partnerId}/datasets`);
  await page.getByRole('button', { name: `Verwijder ${name}` }).click();
  await page.getByRole('button', { name: 'Nee', exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
  await page.getByRole('button', { name: `Verwijder ${name}` }).click();
  await page.getByRole('button', { name: 'Ja', exact: true }).click();
  await expectAlert(page, 'success', 'Bestand verwijderd');
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  // Deleting a dataset that is already gone shows the failure.
  expect((await page.request.delete(`/api/datasets/${partnerId}/${other._id}`)).status()).toBe(200);
  await page.getByRole('button', { name: `Verwijder ${otherName}` }).click();
  await page.getByRole('button', { name: 'Ja', exact: true }).click();
  await expectAlert(page, 'danger', 'Kon bestand niet verwijderen', 'Dit bestand kon niet worden gevonden');
});

test('datasets of an unknown partner show the fetch error', async ({ page }) => {
  await loginAsAdmin(page, '/partners/bestaatniet/datasets');
  await expectAlert(page, 'danger', 'Unable to fetch datasets', 'Deze partner kon niet worden gevonden');
});

test('an unknown dataset or test person in its form shows the danger alert and goes back to its list', async ({
  page,
}) => {
  const partnerId = unique('P_');
  await loginAsAdmin(page, '/partners');
  expect(
    (await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Onbekend BV' } })).status(),
  ).toBe(200);
  await page.goto(`/partners/${partnerId}/datasets/${'0'.repeat(24)}/edit`);
  await expectAlert(page, 'danger', 'Unable to fetch datasets', 'Dit bestand kon niet worden gevonden');
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets$`));

  const dataset = await (
    await page.request.post(`/api/datasets/${partnerId}`, { data: { name: unique('Bestand ') } })
  ).json();
  await page.goto(`/partners/${partnerId}/datasets/${dataset._id}/testpersons/${'0'.repeat(24)}/edit`);
  await expectAlert(page, 'danger', 'An error occured while fetching test person');
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets/${dataset._id}/testpersons$`));
});
