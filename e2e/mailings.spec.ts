import { expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { loginAsAdmin, unique } from './support/session';

const section = (page: Page, state: string) => page.getByRole('region', { name: state });
const row = (page: Page, state: string, name: string) =>
  section(page, state).getByRole('row').filter({ hasText: name });

async function allocate(page: Page, mailingId: string, emails: string[]) {
  expect(
    (await page.request.post(`/api/e2e/mailings/${mailingId}/allocate`, { data: { emails } })).status(),
  ).toBe(200);
}

test('mailings: create, pressure check and limit, results, copy, Definitief with CSV and test list, Maildruk', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const tag = unique('m');
  const emails = Array.from({ length: 6 }, (_, i) => `p${i}.${tag}@voorbeeld.nl`);
  await loginAsAdmin(page, '/');
  const campaign = (
    await (await page.request.post('/api/campaigns', { data: { name: `Campagne ${tag}` } })).json()
  )._id as string;
  await page.request.put('/api/testperson', {
    data: { firstName: 'Tess', lastName: 'Test', gender: 'F', email: 'tess@lijstwerk.nl' },
  });

  // Create a mailing through the form: it starts under Concept.
  await page.goto(`/campaigns/${campaign}/mailings`);
  await page.getByRole('link', { name: 'Nieuwe verzending' }).click();
  await expect(page.getByRole('heading', { name: 'Nieuwe mailing' })).toBeVisible();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'danger', 'Fout tijdens aanmaken van mailing', 'Het naam veld is verplicht');
  await page.getByLabel('Naam').fill(`Nieuwsbrief ${tag}`);
  await page.getByLabel('Verzenddatum').fill('12-03-2031');
  await page.getByLabel('Aantal adressen 100%').fill('10');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Mailing succesvol aangemaakt');
  await expect(row(page, 'Concept', `Nieuwsbrief ${tag}`)).toContainText('12-03-2031');
  const list = await (await page.request.get(`/api/campaigns/${campaign}/mailings`)).json();
  const mailingId = list[0]._id as string;

  // Addresses as the selection engine would allocate them; two are held by a Definitief mailing of that week.
  await allocate(page, mailingId, emails);
  const other = await (
    await page.request.post(`/api/campaigns/${campaign}/mailings`, {
      data: { name: `Andere ${tag}`, plannedSend: '2031-03-14T09:00:00Z' },
    })
  ).json();
  await allocate(page, other._id, emails.slice(0, 2));
  expect(
    (
      await page.request.put(`/api/campaigns/${campaign}/mailings/${other._id}`, {
        data: { name: 'Andere', state: 'final' },
      })
    ).status(),
  ).toBe(200);
  await page.reload();
  const mine = row(page, 'Concept', `Nieuwsbrief ${tag}`);
  await expect(mine).toContainText('6');

  // Definitief is refused while the pressure rule would break.
  await mine.getByRole('link', { name: /^Bewerk/ }).click();
  await expect(page.getByRole('heading', { name: 'Bewerk verzending' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Definitief' }).click();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(
    page,
    'danger',
    'Fout tijdens opslaan van mailing',
    'De mailing kan niet Definitief of Aangeboden worden: 2 adressen',
  );
  await expect(page.getByTestId('save-state')).toHaveText('Failed');

  // The pressure modal shows the conflicts and removes them.
  await page.goto(`/campaigns/${campaign}/mailings`);
  await row(page, 'Concept', `Nieuwsbrief ${tag}`)
    .getByRole('button', { name: /^Controleer maildruk/ })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('pressure-new')).toHaveText('2');
  await dialog.getByRole('button', { name: 'Maildruk verwijderen' }).click();
  await expectAlert(page, 'success', 'Succesvol aangepast', 'Er zijn 2 e-mails verwijderd uit de verzending');
  await expect(row(page, 'Concept', `Nieuwsbrief ${tag}`)).toContainText('4');

  // The limit modal: a negative number becomes 0; 3 removes one address.
  await row(page, 'Concept', `Nieuwsbrief ${tag}`)
    .getByRole('button', { name: /^Aantal adressen maximeren/ })
    .click();
  const limit = page.getByRole('dialog').getByLabel('Maximaal aantal adressen');
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Maximeren' })).toBeDisabled();
  await limit.fill('-5');
  await expect(limit).toHaveValue('0');
  // A decimal is kept as typed and refused with the rule, not read as 15.
  await limit.fill('1,5');
  await page.getByRole('dialog').getByRole('button', { name: 'Maximeren' }).click();
  await expect(page.getByRole('dialog')).toContainText(
    'Het maximum moet een geheel getal van 0 of meer zijn',
  );
  await expect(limit).toHaveValue('1,5');
  await limit.fill('3');
  await page.getByRole('dialog').getByRole('button', { name: 'Maximeren' }).click();
  await expectAlert(
    page,
    'success',
    'Succesvol gemaximeerd',
    'Er zijn 1 e-mails verwijderd uit de verzending',
  );

  // Results: upload a file on the row and see the opens and clicks.
  const held = await (await page.request.get(`/api/campaigns/${campaign}/mailings/${mailingId}/csv`)).text();
  // The e-mail is the first column; export columns other journeys made may follow it.
  const heldEmails = held
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[0]);
  expect(heldEmails).toHaveLength(3);
  // In address order (the seed inserts them in the order given): the last one holds no result.
  heldEmails.sort();
  const results = [
    'email,event,date',
    `${heldEmails[0]},open,2031-03-12 10:00:00`,
    `${heldEmails[1]},open,12-03-2031`,
    `${heldEmails[1]},click,2031-03-12 11:00:00`,
  ].join('\n');
  await row(page, 'Concept', `Nieuwsbrief ${tag}`)
    .getByRole('button', { name: `Resultaten uploaden voor Nieuwsbrief ${tag}` })
    .click();
  const resultsDialog = page.getByRole('dialog', { name: `Resultaten uploaden: Nieuwsbrief ${tag}` });
  await resultsDialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'resultaten.csv', mimeType: 'text/csv', buffer: Buffer.from(results) });
  await resultsDialog.getByRole('button', { name: 'Uploaden' }).click();
  await expect(resultsDialog.getByTestId('results-count-saved')).toHaveText('3');
  await resultsDialog.getByRole('button', { name: 'Sluiten' }).click();
  await expect(page.getByTestId(`results-${mailingId}`)).toHaveText('2 / 1 / 0');

  // Copy the opened addresses into a new draft.
  const target = await (
    await page.request.post(`/api/campaigns/${campaign}/mailings`, {
      data: { name: `Herhaling ${tag}`, plannedSend: '2031-04-02T09:00:00Z' },
    })
  ).json();
  await page.reload();
  await row(page, 'Concept', `Herhaling ${tag}`)
    .getByRole('link', { name: /^Kopieer adressen/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Kopieer adressen van een mailing' })).toBeVisible();
  await expect(page.getByLabel('Naar mailing')).toHaveValue(`Herhaling ${tag}`);
  await expect(page.getByRole('button', { name: 'Kopiëren' })).toBeDisabled();
  await page.getByRole('combobox', { name: 'Campagne' }).fill(`Campagne ${tag}`);
  await page.getByRole('option', { name: `Campagne ${tag}` }).click();
  await page.getByRole('combobox', { name: 'Mailing' }).click();
  await page.getByRole('option', { name: `Nieuwsbrief ${tag}` }).click();
  await page.getByRole('combobox', { name: 'Type adressen' }).click();
  await page.getByRole('option', { name: 'Geopende', exact: true }).click();
  await expect(page.getByLabel('Omschrijving')).toHaveValue(
    `Geopende e-mails van Nieuwsbrief ${tag} in Campagne ${tag}`,
  );
  await page.getByRole('button', { name: 'Kopiëren' }).click();
  await expectAlert(page, 'success', 'Kopie succesvol', 'De mailing is gekopieerd');
  await expect(row(page, 'Concept', `Herhaling ${tag}`)).toContainText('2');
  expect(
    (await (await page.request.get(`/api/campaigns/${campaign}/mailings/${target._id}`)).json()).recordCount,
  ).toBe(2);

  // A limit says that the removed addresses' results go with them, and counts them: 1 keeps the
  // first address (the highest address ids go first), so the second's open and click go.
  await row(page, 'Concept', `Nieuwsbrief ${tag}`)
    .getByRole('button', { name: /^Aantal adressen maximeren/ })
    .click();
  await expect(page.getByRole('dialog').getByTestId('removal-results-warning')).toHaveText(
    'Van de verwijderde adressen worden ook hun resultaten in deze verzending verwijderd.',
  );
  await page.getByRole('dialog').getByLabel('Maximaal aantal adressen').fill('1');
  await page.getByRole('dialog').getByRole('button', { name: 'Maximeren' }).click();
  await expectAlert(
    page,
    'success',
    'Succesvol gemaximeerd',
    'Er zijn 2 e-mails verwijderd uit de verzending, met hun 2 resultaten',
  );
  await expect(page.getByTestId(`results-${mailingId}`)).toHaveText('1 / 0 / 0');

  // Now Definitief is accepted; the row moves and offers the CSV and the test list.
  await row(page, 'Concept', `Nieuwsbrief ${tag}`)
    .getByRole('link', { name: /^Bewerk/ })
    .click();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Definitief' }).click();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Mailing succesvol opgeslagen');
  const final = row(page, 'Definitief', `Nieuwsbrief ${tag}`);
  await expect(final).toBeVisible();
  await expect(final.getByRole('button', { name: /^Verwijder/ })).toHaveCount(0);
  const csv = page.waitForEvent('download');
  await final.getByRole('link', { name: /^Download CSV/ }).click();
  const csvText = await (await (await csv).createReadStream()).toArray();
  // email, then the export columns (other journeys may have made some), in their order.
  const columns = (await (await page.request.get('/api/export/columns')).json()) as { _id: string }[];
  // After the UTF-8 byte order mark every CSV download starts with.
  expect(Buffer.concat(csvText).toString('utf8').split('\r\n')[0]).toBe(
    `\uFEFF${['email', ...columns.map((c) => c._id)].join(',')}`,
  );
  const tests = page.waitForEvent('download');
  await final.getByRole('link', { name: /^Download testlijst/ }).click();
  const testText = Buffer.concat(await (await (await tests).createReadStream()).toArray()).toString('utf8');
  expect(testText).toContain('tess@lijstwerk.nl');

  // Maildruk lists the day of both Definitief mailings.
  await page.goto('/pressure');
  await expect(page.getByRole('heading', { name: 'Maildruk' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '12-03-2031' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '14-03-2031' })).toBeVisible();
});
