import { expect, type Page, test } from '@playwright/test';
import { ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// The attribute line form offers every operator by its Dutch name, builds its line, shows the
// rules' messages beside the field and reopens a line of each kind filled in.

/** The line drawer over the builder (adds or edits a line). */
const lineDrawer = (page: Page) => page.getByRole('dialog');

/** Opens the attribute form in the drawer from the root group's 'Regel toevoegen'. */
async function openAttributeForm(page: Page) {
  await page.getByRole('button', { name: 'Regel toevoegen' }).first().click();
  await expect(page).toHaveURL(/[?&]line=menu$/);
  await lineDrawer(page).getByRole('link', { name: 'Selecteren op kenmerken', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Regel toevoegen: Selecteren op kenmerken' })).toBeVisible();
}

/** Fills the attribute and chooses the operator by its Dutch name. */
async function attributeAndOperator(page: Page, attribute: string, operator: string) {
  await page.getByRole('combobox', { name: 'Kenmerk', exact: true }).fill(attribute);
  await page.getByRole('combobox', { name: 'Operator', exact: true }).click();
  await page.getByRole('option', { name: operator, exact: true }).click();
}

/** Pastes a text into a field as the clipboard would. */
async function paste(page: Page, name: string, text: string) {
  await page.getByRole('combobox', { name, exact: true }).evaluate((input, pasted) => {
    const data = new DataTransfer();
    data.setData('text', pasted);
    input.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

const lineTexts = (page: Page) => page.getByTestId('query-line-text');

test('the attribute form adds a line of each operator, says what is wrong beside the field and reopens a line filled in', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const campaign = await ok<{ _id: string }>(
    page.request.post('/api/campaigns', {
      data: { name: unique('Campagne '), start: new Date().toISOString().slice(0, 10) },
    }),
  );
  const mailing = await ok<{ _id: string }>(
    page.request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: unique('Verzending '), plannedSend: '2031-03-05T10:00:00Z', addresses: 100 },
    }),
  );
  await page.goto(`/selection-builder/${campaign._id}/${mailing._id}`);

  // An age that is no whole number of years is refused, with the rule's message beside the field.
  await openAttributeForm(page);
  await attributeAndOperator(page, 'birthDate', 'leeftijd (jaren)');
  await lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true }).fill('dertig');
  await lineDrawer(page).getByRole('textbox', { name: 't/m', exact: true }).fill('50');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByText('Vul een leeftijd in hele jaren in (0 t/m 150)').first()).toBeVisible();
  await lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true }).fill('30');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(lineDrawer(page)).toHaveCount(0);
  await expect(lineTexts(page)).toHaveText(['Leeftijd 30 t/m 50 jaar']);

  await openAttributeForm(page);
  await attributeAndOperator(page, 'phone', 'is leeg');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  await openAttributeForm(page);
  await attributeAndOperator(page, 'street', 'is niet leeg');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  await openAttributeForm(page);
  await attributeAndOperator(page, 'city', 'begint met');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByText('Vul een waarde in').first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Waarde', exact: true }).fill('Amster*');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  await openAttributeForm(page);
  await attributeAndOperator(page, 'street', 'bevat');
  await page.getByRole('combobox', { name: 'Waarde', exact: true }).fill('laan');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  // 'is een van' takes a pasted list, one a line.
  await openAttributeForm(page);
  await attributeAndOperator(page, 'gender', 'is een van');
  await paste(page, 'Waarden', 'M\nF\nm\n');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  await expect(lineTexts(page)).toHaveText([
    'Leeftijd 30 t/m 50 jaar',
    'Telefoonnummer is leeg',
    'Straat is niet leeg',
    'Woonplaats begint met Amster*',
    'Straat bevat laan',
    'Geslacht is een van: man, vrouw',
  ]);

  // Each line's edit link opens its form filled in; the age line is changed there.
  const expected: [number, string, Record<string, string>][] = [
    [1, 'is leeg', {}],
    [2, 'is niet leeg', {}],
    [3, 'begint met', { Waarde: 'Amster*' }],
    [4, 'bevat', { Waarde: 'laan' }],
  ];
  for (const [index, operator, values] of expected) {
    await page.getByTestId('query-line').nth(index).getByRole('button', { name: 'Bewerk regel' }).click();
    await expect(page.getByRole('combobox', { name: 'Operator', exact: true })).toHaveValue(operator);
    for (const [field, value] of Object.entries(values)) {
      await expect(page.getByRole('combobox', { name: field, exact: true })).toHaveValue(value);
    }
    await expect(page.getByRole('dialog', { name: 'Regel bewerken: Selecteren op kenmerken' })).toBeVisible();
    await lineDrawer(page).getByRole('button', { name: 'Annuleren' }).click();
    await expect(lineDrawer(page)).toHaveCount(0);
  }
  await page.getByTestId('query-line').first().getByRole('button', { name: 'Bewerk regel' }).click();
  await expect(page.getByRole('combobox', { name: 'Kenmerk', exact: true })).toHaveValue('Geboortedatum');
  await expect(lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true })).toHaveValue('30');
  await expect(lineDrawer(page).getByRole('textbox', { name: 't/m', exact: true })).toHaveValue('50');
  await lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true }).fill('40');
  await lineDrawer(page).getByRole('button', { name: 'Opslaan' }).click();
  await expect(lineDrawer(page)).toHaveCount(0);
  await expect(lineTexts(page).first()).toHaveText('Leeftijd 40 t/m 50 jaar');
  await expect(lineTexts(page)).toHaveCount(6);
  // Only lines were built: nothing is stored before 'Maak aan'.
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${campaign._id}/${mailing._id}$`));
});
