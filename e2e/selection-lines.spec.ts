import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { englishWordsIn } from '../common/ui-language.test-helpers';
import { ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// The builder's lines read as Dutch text with the attributes' Dutch labels; the raw query text is
// shown on the 'Query' tab only.

// Query syntax staff must never read outside the 'Query' tab, nor an attribute's name where the
// labels table has its Dutch label (pc4, clickInterests, a file line's gen_id).
const RAW_SYNTAX = ['{!', ' TO ', ':[', '*:*', 'NOW', 'pc4', 'clickInterests', 'gen_id', '(NOT)'];

/** A label, a click interest, a campaign and a draft mailing of its own. */
async function seed(request: APIRequestContext) {
  const label = unique('Optin');
  const interest = unique('Energie');
  await ok(request.post('/api/types', { data: { type: label } }));
  await ok(request.post('/api/click-interest-types', { data: { name: interest } }));
  const campaign = await ok<{ _id: string }>(
    request.post('/api/campaigns', {
      data: { name: unique('Campagne '), start: new Date().toISOString().slice(0, 10) },
    }),
  );
  const mailing = await ok<{ _id: string }>(
    request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: unique('Verzending '), plannedSend: '2031-03-05T10:00:00Z', addresses: 100 },
    }),
  );
  return { label, interest, campaignId: campaign._id, mailingId: mailing._id };
}

/** The line drawer over the builder (adds or edits a line). */
const lineDrawer = (page: Page) => page.getByRole('dialog');

/** Opens a line type in the drawer from the root group's 'Regel toevoegen'. */
async function openLineType(page: Page, label: string) {
  await page.getByRole('button', { name: 'Regel toevoegen' }).first().click();
  await expect(page).toHaveURL(/[?&]line=menu$/);
  await lineDrawer(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('dialog', { name: `Regel toevoegen: ${label}` })).toBeVisible();
}

/** Chooses a value in a Mantine select by its label. */
async function choose(page: Page, field: string, option: string) {
  await page.getByRole('combobox', { name: field, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Adds an attribute line: attribute, operator and its value(s). */
async function addAttributeLine(page: Page, attribute: string, operator: string, values: string[]) {
  await openLineType(page, 'Selecteren op kenmerken');
  await page.getByRole('combobox', { name: 'Kenmerk', exact: true }).fill(attribute);
  await choose(page, 'Operator', operator);
  if (values.length === 1) {
    await page.getByRole('combobox', { name: 'Waarde', exact: true }).fill(values[0]);
    // Leave the field: its value suggestions, arriving a moment later, would cover 'Toevoegen'.
    await page.keyboard.press('Tab');
  } else {
    await lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true }).fill(values[0]);
    await lineDrawer(page).getByRole('textbox', { name: 'Tot', exact: true }).fill(values[1]);
  }
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
}

/** The texts of the builder's lines, top to bottom. */
const lineTexts = (page: Page) => page.getByTestId('query-line-text');

/**
 * Everything the builder shows or says (a hidden tab shows nothing): its text and the aria-label,
 * title and placeholder of its visible elements.
 */
function shownText(scope: Locator): Promise<string> {
  return scope.evaluate((main) => {
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is the text as shown (no hidden tab).
    const parts = [(main as HTMLElement).innerText];
    for (const el of main.querySelectorAll('[aria-label], [title], [placeholder]'))
      if (el.checkVisibility())
        for (const a of ['aria-label', 'title', 'placeholder']) parts.push(el.getAttribute(a) ?? '');
    return parts.join('\n');
  });
}

/** Expects no query syntax and no English word in what the builder shows outside the 'Query' tab. */
async function expectNoRawSyntax(page: Page, scope: Locator = page.getByRole('main')) {
  const shown = await shownText(scope);
  for (const syntax of RAW_SYNTAX) expect(shown).not.toContain(syntax);
  expect(englishWordsIn(shown)).toEqual([]);
}

test('lines built in the builder read as Dutch text; the raw query is on the Query tab only', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);
  await page.goto(`/selection-builder/${w.campaignId}/${w.mailingId}`);

  await addAttributeLine(page, 'pc4', 'tussen', ['1000', '2999']);
  await expect(lineTexts(page)).toHaveText(['Postcode (4 cijfers) 1000 t/m 2999']);
  // The picker offers the attributes by their Dutch labels, found by label or by name; the line
  // reopens with the label.
  await page.getByTestId('query-line').first().getByRole('button', { name: 'Bewerk regel' }).click();
  const attribute = page.getByRole('combobox', { name: 'Kenmerk', exact: true });
  await expect(attribute).toHaveValue('Postcode (4 cijfers)');
  await attribute.fill('pc');
  await expect(page.getByRole('option', { name: 'Postcode (4 cijfers)', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'pc4', exact: true })).toHaveCount(0);
  await attribute.fill('geboorte');
  await page.getByRole('option', { name: 'Geboortedatum', exact: true }).click();
  await expect(attribute).toHaveValue('Geboortedatum');
  await expectNoRawSyntax(page, lineDrawer(page));
  await lineDrawer(page).getByRole('button', { name: 'Annuleren' }).click();
  await expect(lineDrawer(page)).toHaveCount(0);
  await addAttributeLine(page, 'gender', 'is', ['F']);
  await addAttributeLine(page, 'city', 'is', ['Amster*']);

  await openLineType(page, 'Label');
  await choose(page, 'Label', w.label);
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  await openLineType(page, 'Interesse type');
  await lineDrawer(page).getByRole('combobox', { name: 'Interesses' }).click();
  await page.getByRole('option', { name: w.interest }).click();
  await page.keyboard.press('Escape');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  // 'Externe kenmerken' starts on the domain.
  await openLineType(page, 'Externe kenmerken');
  const values = page.getByRole('combobox', { name: 'Waarden', exact: true });
  await values.fill('voorbeeld.nl');
  await values.press('Enter');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  // A file of 4,200 addresses, matched on the e-mail address: its rows are counted in the browser.
  const csv = ['email', ...Array.from({ length: 4200 }, (_, i) => `klant${i}@${unique('lijn')}.nl`)];
  await openLineType(page, 'Bestandsmatch');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'klanten.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\n')) });
  await choose(page, 'Koppeling voor email', 'Basis: e-mailadres');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();

  await expect(lineTexts(page)).toHaveText([
    'Postcode (4 cijfers) 1000 t/m 2999',
    'Geslacht is vrouw',
    'Woonplaats begint met Amster',
    `Label is ${w.label}`,
    `Klikinteresse ${w.interest}`,
    'Domein is voorbeeld.nl',
    'In bestand klanten.csv (4.200 regels), op E-mailadres',
  ]);
  // A negated line is marked and keeps its text.
  const interestLine = page.getByTestId('query-line').nth(4);
  await interestLine.getByRole('button', { name: 'Uitsluiten', exact: true }).click();
  await expect(interestLine).toHaveAttribute('data-negated', 'true');
  await expect(interestLine.getByText('NIET', { exact: true })).toBeVisible();
  await expect(lineTexts(page).nth(4)).toHaveText(`Klikinteresse ${w.interest}`);
  await expectNoRawSyntax(page);

  // Nothing is stored yet: the file counts once the selection is saved, as the builder says.
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}$`));
  await expect(page.getByTestId('count-error')).toHaveText(
    'Het bestand klanten.csv telt mee zodra de selectie is opgeslagen.',
  );

  // Counted: the results and their 'Query' tab; the raw text is there, the lines stay Dutch.
  await page.getByRole('switch', { name: 'Gebruik label van de campagne' }).click();
  await page.getByRole('button', { name: 'Maak aan' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Klaar', { timeout: 60_000 });
  await expect(page.getByTestId('count-error')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Query' })).toBeVisible();
  await expectNoRawSyntax(page);
  // Each tab but 'Query', once its figures are there, is Dutch and without query syntax.
  for (const tab of ['Per regel', 'Voorbeeld', 'Resultaten']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.locator('.mantine-Loader:visible')).toHaveCount(0, { timeout: 30_000 });
    await expectNoRawSyntax(page);
  }
  await page.getByRole('tab', { name: 'Query' }).click();
  const raw = page.getByRole('textbox', { name: 'Query', exact: true });
  await expect(raw).toHaveValue(/pc4:\[1000 TO 2999\]/);
  await expect(raw).toHaveValue(/\{!intersect file="klanten\.csv" fields="gen_id"\}/);
  await expect(raw).toHaveValue(new RegExp(`NOT clickInterests:${w.interest}`));
  await expect(lineTexts(page).first()).toHaveText('Postcode (4 cijfers) 1000 t/m 2999');
});

test('a stored selection reopens with dates, ages, lists, open ranges and groups as Dutch text', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);
  const { selectionId } = await ok<{ selectionId: string }>(
    page.request.post(`/api/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections`, {
      data: {
        description: 'Leesbare regels',
        query: {
          and: [
            { dateRange: { optinDate: ['NOW-30DAYS', 'NOW'] } },
            { dateRange: { birthDate: ['01-01-1980', '1999-12-31'] } },
            { range: { pc4: ['1000', '*'] } },
            { in: { gender: ['M', 'F'] } },
            { match: { city: '*dam' } },
            { age: { birthDate: [30, 50] } },
            { empty: { phone: true } },
            { includes: { street: 'laan' } },
            { not: { dataset: { type: w.label } } },
            { or: [{ interests: { open: [w.interest] } }, { contains: { os: ['iOS', 'Android'] } }] },
          ],
        },
      },
    }),
  );
  // A slow read of the selection is a visible wait: 'Selectie laden...' (not the empty tree's 'Nog
  // geen regels') and 'Tellen...', each with a spinner.
  const stored = `**/api/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections/${selectionId}`;
  await page.route(stored, async (r) => {
    if (r.request().method() === 'GET') await new Promise((done) => setTimeout(done, 1500));
    await r.fallback();
  });
  await page.goto(`/selection-builder/${w.campaignId}/${w.mailingId}/${selectionId}`);
  await expect(page.getByTestId('selection-loading')).toHaveText('Selectie laden...');
  await expect(page.getByText('Nog geen regels')).toHaveCount(0);
  await expect(page.getByTestId('count-running')).toHaveText('Tellen...');
  await expect(page.getByTestId('selection-loading')).toHaveCount(0, { timeout: 15_000 });
  await page.unroute(stored);
  await expect(page.getByRole('textbox', { name: 'Omschrijving' })).toHaveValue('Leesbare regels');
  await expect(lineTexts(page)).toHaveText([
    'Opt-indatum in de laatste 30 dagen',
    'Geboortedatum van 01-01-1980 t/m 31-12-1999',
    'Postcode (4 cijfers) vanaf 1000',
    'Geslacht is een van: man, vrouw',
    'Woonplaats eindigt op dam',
    'Leeftijd 30 t/m 50 jaar',
    'Telefoonnummer is leeg',
    'Straat bevat laan',
    `Label is ${w.label}`,
    `Openinteresse ${w.interest}`,
    'Besturingssysteem is een van: iOS, Android',
  ]);
  await expect(page.getByTestId('query-line').nth(8)).toHaveAttribute('data-negated', 'true');
  await expect(page.locator('[data-testid=query-group][data-kind=or]')).toBeVisible();
  await expectNoRawSyntax(page);

  // A relative date line reopens in words, and words typed are kept as the engine's bounds.
  await page.getByTestId('query-line').first().getByRole('button', { name: 'Bewerk regel' }).click();
  await expect(page.getByRole('combobox', { name: 'Kenmerk', exact: true })).toHaveValue('Opt-indatum');
  const from = lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true });
  await expect(from).toHaveValue('30 dagen geleden');
  await expect(lineDrawer(page).getByRole('textbox', { name: 'Tot', exact: true })).toHaveValue('vandaag');
  await expectNoRawSyntax(page, lineDrawer(page));
  await from.fill('2 weken geleden');
  await lineDrawer(page).getByRole('button', { name: 'Opslaan' }).click();
  await expect(lineTexts(page).first()).toHaveText('Opt-indatum in de laatste 14 dagen');
});
