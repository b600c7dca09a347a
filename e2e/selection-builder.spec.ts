import { type APIRequestContext, type APIResponse, expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { ok as expectOk, waitForTask } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// The journeys of spec 001 §2 Selection builder and of the selections of a mailing.

interface World {
  label: string;
  interest: string;
  domain: string;
  campaignId: string;
  campaignName: string;
  mailingId: string;
  mailingName: string;
  datasetA: string;
  datasetB: string;
}

/** An API answer's fields this journey reads. */
interface Answer {
  _id: string;
  name: string;
  selectionId: string;
  task: { _id: string };
}

/** Expects a 200 and returns the body as the answers this journey reads. */
const ok = (res: APIResponse) => expectOk<Answer>(res);

/** Moves a mailing to Definitief through the API, keeping its other fields as stored. */
async function finalizeMailing(request: APIRequestContext, campaignId: string, mailingId: string) {
  const url = `/api/campaigns/${campaignId}/mailings/${mailingId}`;
  const mailing = await (await request.get(url)).json();
  await ok(
    await request.put(url, {
      data: {
        name: mailing.name,
        state: 'final',
        plannedSend: mailing.plannedSend,
        budget: mailing.budget,
        addresses: mailing.addresses,
        interests: mailing.interests,
        externalParty: mailing.externalParty,
        externalId: mailing.externalId,
      },
    }),
  );
}

/** Two datasets with one label (A: ages 20-39, B: ages 40-49 and 25-29), a campaign and a draft mailing. */
async function seed(request: APIRequestContext): Promise<World> {
  const label = unique('Nieuws');
  const interest = unique('Reizen');
  const domain = `${unique('sel')}.nl`;
  await ok(await request.post('/api/types', { data: { type: label } }));
  await ok(await request.post('/api/click-interest-types', { data: { name: interest } }));
  const partnerId = unique('Sel_');
  await ok(await request.post('/api/crud-partner', { data: { id: partnerId, name: 'Selectie BV' } }));
  const datasets: string[] = [];
  const files = [
    Array.from({ length: 20 }, (_, i) => `a${i}@${domain},${20 + i},10${i}AB`),
    [
      ...Array.from({ length: 10 }, (_, i) => `b${i}@${domain},${40 + i},20${i}AB`),
      ...Array.from({ length: 5 }, (_, i) => `c${i}@${domain},${25 + i},30${i}AB`),
    ],
  ];
  for (const [i, rows] of files.entries()) {
    const name = unique(`bestand${i}`);
    const ds = await ok(
      await request.post(`/api/datasets/${partnerId}`, { data: { name, types: [label], sort: i + 1 } }),
    );
    datasets.push(ds._id);
    await ok(
      await request.put(`/api/datasets/${partnerId}/${ds._id}/mappings`, {
        data: [
          {
            type: 'column',
            field: 'leeftijd',
            mapped: 'leeftijd',
            encrypted: false,
            values: [{ original: '99', mapped: 'hoogbejaard' }],
          },
          { type: 'column', field: 'postcode', mapped: 'postcode', encrypted: false },
        ],
      }),
    );
    const up = await ok(
      await request.post(`/api/import/${partnerId}/${name}`, {
        multipart: {
          file: {
            name: 'adressen.csv',
            mimeType: 'text/csv',
            buffer: Buffer.from(['email,leeftijd,postcode', ...rows].join('\n')),
          },
        },
      }),
    );
    await waitForTask(request, up.task._id);
  }
  const campaignName = unique('Campagne ');
  const campaign = await ok(
    await request.post('/api/campaigns', {
      data: { name: campaignName, start: new Date().toISOString().slice(0, 10) },
    }),
  );
  const mailingName = unique('Verzending ');
  const mailing = await ok(
    await request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: mailingName, plannedSend: '2031-03-05T10:00:00Z', addresses: 100 },
    }),
  );
  return {
    label,
    interest,
    domain,
    campaignId: campaign._id,
    campaignName,
    mailingId: mailing._id,
    mailingName,
    datasetA: datasets[0],
    datasetB: datasets[1],
  };
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

test('builds a selection with a range, a label and a not-interest, counted live with its funnel and preview; edits two cells, allocates after a confirmation and reopens with its last count', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);

  // The spec's deep link opens the builder with the line drawer on the attribute form (adding to
  // the root group); 'Annuleren' closes it on the builder.
  await page.goto('/selection-builder/add-line/attribute');
  await expect(page).toHaveURL(/\/selection-builder\?line=attribute$/);
  const deepLinked = page.getByRole('dialog', { name: 'Regel toevoegen: Selecteren op kenmerken' });
  await expect(deepLinked.getByRole('combobox', { name: 'Kenmerk', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Doelgroep selecteren' })).toBeVisible();
  await deepLinked.getByRole('button', { name: 'Annuleren' }).click();
  await expect(lineDrawer(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/selection-builder$/);
  // The sidebar's link (the breadcrumb of the builder has the same name once it has rendered).
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Doelgroep selecteren' })
    .click();
  await expect(page.getByRole('heading', { name: 'Doelgroep selecteren' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Maak aan' })).toBeDisabled();
  await choose(page, 'Campagne', w.campaignName);
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}$`));
  await choose(page, 'Verzending', w.mailingName);
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}$`));
  // The default pressure date is the Monday after Wednesday 05-03-2031.
  await expect(page.getByText('Standaard de maandag na de verzenddatum: 10-03-2031')).toBeVisible();

  // An attribute range: the rules refuse a half range with the common message.
  await openLineType(page, 'Selecteren op kenmerken');
  await page.getByRole('combobox', { name: 'Kenmerk', exact: true }).fill('leeftijd');
  // The value field suggests the attribute's mapped values.
  await choose(page, 'Operator', 'is');
  await page.getByRole('combobox', { name: 'Waarde', exact: true }).click();
  await expect(page.getByRole('option', { name: 'hoogbejaard' })).toBeVisible();
  await page.keyboard.press('Escape');
  await choose(page, 'Operator', 'tussen');
  await lineDrawer(page).getByRole('textbox', { name: 'Van', exact: true }).fill('25');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByTestId('line-errors')).toContainText('Vul een van- en een tot-waarde in');
  await lineDrawer(page).getByRole('textbox', { name: 'Tot', exact: true }).fill('29');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(lineDrawer(page)).toHaveCount(0);
  await expect(page.getByTestId('query-line')).toHaveText('Leeftijd 25 t/m 29');
  // Counted without a button: a1..a9 are 25-29 in A is a5..a9, c0..c4 in B.
  await expect(page.getByTestId('count-total')).toHaveText('10 adressen gevonden');
  await expect(page.getByTestId('counted-at')).toContainText('geteld op');
  // No selection is made before the first save.
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}$`));

  // A label.
  await openLineType(page, 'Label');
  await choose(page, 'Label', w.label);
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  // An interest, then negated in the editor.
  await openLineType(page, 'Interesse type');
  await lineDrawer(page).getByRole('combobox', { name: 'Interesses' }).click();
  await page.getByRole('option', { name: w.interest }).click();
  await page.keyboard.press('Escape');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByTestId('query-line')).toHaveCount(3);
  await page
    .getByTestId('query-line')
    .nth(2)
    .getByRole('button', { name: 'Uitsluiten', exact: true })
    .click();
  await expect(page.getByTestId('query-line').nth(2)).toHaveAttribute('data-negated', 'true');
  // Moving the label line up puts it first.
  await page.getByTestId('query-line').nth(1).getByRole('button', { name: 'Omhoog' }).click();
  await expect(page.getByTestId('query-line').first()).toHaveText(`Label is ${w.label}`);

  // Still no selection stored: nothing is left on the mailing by building.
  const none = await page.request.get(`/api/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections`);
  expect(await none.json()).toEqual([]);

  // The figures follow the edits without a button (the label and the not-interest change nothing
  // here): a5..a9 in A (5), c0..c4 in B (5).
  await expect(page.getByTestId('count-total')).toHaveText('10 adressen gevonden');
  await expect(page.getByTestId('count-running')).toHaveCount(0);
  const rows = page.getByTestId('result-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('row-total')).toHaveText('5');
  await expect(rows.nth(1).getByTestId('row-total')).toHaveText('5');
  await expect(page.getByTestId('selected-total')).toHaveText('10');

  // Edit two cells: 3 of A's new, and 99 of B's new (more than its 5: said at once, the text
  // kept as typed and nothing changed, also after leaving the field), then 2.
  const cells = page.getByRole('textbox', { name: /^Nieuw / });
  await cells.nth(0).fill('3');
  await cells.nth(1).fill('99');
  await expect(page.getByText('Er zijn maar 5 adressen beschikbaar')).toBeVisible();
  await cells.nth(1).blur();
  await expect(cells.nth(1)).toHaveValue('99');
  await expect(page.getByText('Er zijn maar 5 adressen beschikbaar')).toBeVisible();
  await expect(rows.nth(1).getByTestId('row-total')).toHaveText('5');
  await cells.nth(1).fill('2');
  await expect(page.getByText('Er zijn maar 5 adressen beschikbaar')).toHaveCount(0);
  // '1,5' and '-1' are refused with the rule and change nothing; the 2 stays.
  for (const wrong of ['1,5', '-1']) {
    await cells.nth(1).fill(wrong);
    await expect(page.getByText('Een aantal moet een geheel getal van 0 of meer zijn')).toBeVisible();
    await expect(rows.nth(1).getByTestId('row-total')).toHaveText('2');
  }
  await cells.nth(1).fill('2');
  await expect(page.getByText('Een aantal moet een geheel getal van 0 of meer zijn')).toHaveCount(0);
  await expect(rows.nth(0)).toHaveAttribute('data-changed', 'true');
  await expect(page.getByTestId('selected-total')).toHaveText('5');
  await expect(page.getByTestId('allocate-hint')).toBeVisible();

  // 'Per regel': each top-level line in Dutch with the addresses left after it.
  await page.getByRole('tab', { name: 'Per regel' }).click();
  await expect(page.getByTestId('funnel-line')).toHaveText([
    `Label is ${w.label}`,
    'Leeftijd 25 t/m 29',
    `niet Klikinteresse ${w.interest}`,
  ]);
  await expect(page.getByTestId('funnel-remaining').last()).toHaveText('10');
  // 'Voorbeeld': the ten addresses, each with the dataset it would come from.
  await page.getByRole('tab', { name: 'Voorbeeld' }).click();
  await expect(page.getByTestId('preview-row')).toHaveCount(10);
  await expect(page.getByTestId('preview-table')).toContainText('a5@');

  // The 'Query' tab shows the query text.
  await page.getByRole('tab', { name: 'Query' }).click();
  await expect(page.getByRole('textbox', { name: 'Query', exact: true })).toHaveValue(
    `type:${w.label} AND leeftijd:[25 TO 29] AND NOT clickInterests:${w.interest}`,
  );
  await page.getByRole('tab', { name: 'Resultaten' }).click();

  // 'Toewijzen' asks first, with the number of addresses; then saves, allocates and recounts: the
  // saved rows come first and the mailing holds 5.
  await page.getByTestId('allocate').click();
  const confirm = page.getByRole('dialog', { name: 'Adressen toewijzen' });
  await expect(confirm).toContainText(
    `5 adressen toewijzen aan ${w.mailingName}? De selectie wordt eerst opgeslagen.`,
  );
  await confirm.getByRole('button', { name: 'Ja' }).click();
  // The allocation (a save, a task polled every 2 s, a count) is a visible wait on its own button.
  await expect(page.getByTestId('allocate')).toHaveAttribute('data-loading', 'true');
  await expect(page.getByTestId('save-state')).toHaveText('Klaar');
  await expect(page.getByTestId('allocate')).not.toHaveAttribute('data-loading', 'true');
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}/[^/?]+$`));
  await expect(page.getByTestId('saved-total')).toHaveText('5');
  await expect(page.locator('[data-testid=result-row][data-saved=true]')).toHaveCount(2);
  await expect(page.getByTestId('mailing-count')).toContainText('5 van 100');
  const mailing = await (
    await page.request.get(`/api/campaigns/${w.campaignId}/mailings/${w.mailingId}`)
  ).json();
  expect(mailing.recordCount).toBe(5);

  // Reopened, the selection shows its last count with its time at once, and counts again.
  const reopened = page.url();
  await page.goto('/partners');
  await page.goto(reopened);
  await expect(page.getByTestId('counted-at')).toContainText('geteld op');
  await expect(page.getByTestId('saved-total')).toHaveText('5');
  await expect(page.getByTestId('count-running')).toHaveCount(0);

  // The selections of the mailing list it with its count.
  await page.goto(`/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections`);
  await expect(page.getByRole('cell', { name: '5', exact: true })).toBeVisible();
});

test('starts from a predefined template; a changed setting recounts by itself with the previous result greyed', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);
  // A predefined selection in another mailing of the campaign.
  const other = await ok(
    await page.request.post(`/api/campaigns/${w.campaignId}/mailings`, {
      data: { name: unique('Bron '), plannedSend: '2031-03-05T10:00:00Z' },
    }),
  );
  const base = `/api/campaigns/${w.campaignId}/mailings/${other._id}/selections`;
  const description = `Sjabloon ${'x'.repeat(80)}`;
  const { selectionId } = await ok(
    await page.request.post(base, {
      data: {
        description,
        query: { and: [{ dataset: { type: w.label } }, { range: { leeftijd: ['40', '44'] } }] },
      },
    }),
  );
  await ok(await page.request.put(`${base}/${selectionId}`, { data: { preDefined: true } }));

  await page.goto(`/selection-builder/${w.campaignId}/${w.mailingId}`);
  await page.getByRole('combobox', { name: 'Sjabloon' }).click();
  // The description is cut to 65 characters.
  const option = page.getByRole('option', {
    name: `${w.campaignName} / ${other.name}: ${description.slice(0, 65)}`,
  });
  await expect(option).toHaveText(`${w.campaignName} / ${other.name}: ${description.slice(0, 65)}`);
  await option.click();
  await expect(page.getByTestId('query-line')).toHaveCount(2);
  await expect(page.getByTestId('query-line').nth(1)).toHaveText('Leeftijd 40 t/m 44');
  await expect(page.getByRole('textbox', { name: 'Omschrijving' })).toHaveValue(description);
  // Settings without the pressure date.
  await page.getByRole('switch', { name: 'Houd rekening met maildruk' }).click();
  await expect(page.getByRole('textbox', { name: 'Maildrukdatum' })).toBeDisabled();

  await page.getByRole('button', { name: 'Maak aan' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Klaar');
  await expect(page.getByTestId('selected-total')).toHaveText('5');
  const stored = await (
    await page.request.get(`/api/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections`)
  ).json();
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({
    description,
    useDate: false,
    useBlacklist: true,
    activeDatasetsOnly: true,
    useCampaignLabel: true,
  });

  // A setting changed counts again by itself: the previous result stays, greyed, until the new one is in.
  await page.getByRole('switch', { name: 'Houd rekening met maildruk' }).click();
  await expect(page.locator('[data-stale=true]').first()).toBeVisible();
  await expect(page.getByTestId('results-table')).toBeVisible();
  await expect(page.locator('[data-stale=false]').first()).toBeVisible();
  await expect(page.getByTestId('count-running')).toHaveCount(0);
  await expect(page.getByTestId('selected-total')).toHaveText('5');
  // 'Opslaan' stores the change (the background save may have been first).
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Klaar');

  // 'Nieuwe query' asks first, then empties the query for a new selection of the mailing.
  await page.getByRole('button', { name: 'Nieuwe query' }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}$`));
  await expect(page.getByTestId('query-line')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Maak aan' })).toBeDisabled();
});

test('a Bestandsmatch line with an uploaded file: header preview, gen_ names, upload on save, matched count', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);
  await page.goto(`/selection-builder/${w.campaignId}/${w.mailingId}`);
  await page.getByRole('button', { name: 'Regel toevoegen' }).click();
  await lineDrawer(page).getByRole('link', { name: 'Bestandsmatch', exact: true }).click();
  const fileDrawer = page.getByRole('dialog', { name: 'Regel toevoegen: Bestandsmatch' });
  await expect(fileDrawer).toBeVisible();
  // The drawer is over the builder (its crumbs stay) and in the URL: back closes it, forward opens it.
  await expect(page.getByRole('navigation', { name: 'Kruimelpad' })).toContainText(w.mailingName);
  await page.goBack();
  await expect(lineDrawer(page)).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}$`));
  await page.goForward();
  await expect(fileDrawer).toBeVisible();
  // Without a file the line is refused.
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByTestId('line-errors')).toContainText('Kies een .csv-bestand');

  const csv = [
    'mail;pc;tweede',
    `a1@${w.domain};101AB;x`,
    `A2@${w.domain.toUpperCase()};999ZZ;y`,
    `b3@${w.domain};203AB;z`,
  ].join('\n');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'lijst.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('line-column')).toHaveCount(3);
  // Nothing mapped: refused with the common message.
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByTestId('line-errors')).toContainText('Map minstens één kolom');
  await choose(page, 'Koppeling voor mail', 'Basis: e-mailadres');
  await expect(page.getByRole('textbox', { name: 'Naam voor mail' })).toHaveValue('gen_id');
  await choose(page, 'Koppeling voor tweede', 'Basis: e-mailadres');
  await expect(page.getByRole('textbox', { name: 'Naam voor tweede' })).toHaveValue('gen_id0');
  await choose(page, 'Koppeling voor tweede', 'Niet gebruiken');
  await choose(page, 'Koppeling voor pc', 'Kenmerk');
  await page.getByRole('combobox', { name: 'Kenmerk voor pc' }).fill('postcode');
  await lineDrawer(page).getByRole('button', { name: 'Toevoegen' }).click();
  await expect(page.getByTestId('query-line')).toHaveText(
    'In bestand lijst.csv (3 regels), op E-mailadres en Postcode',
  );

  // A file not yet saved is not counted, and the builder says why.
  await expect(page.getByTestId('count-error')).toHaveText(
    'Het bestand lijst.csv telt mee zodra de selectie is opgeslagen.',
  );
  // 'Maak aan' stores the selection, uploads the file and counts: a1 and b3 match on both columns.
  await page.getByRole('switch', { name: 'Gebruik label van de campagne' }).click();
  await page.getByRole('button', { name: 'Maak aan' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Klaar');
  await expect(page.getByTestId('selected-total')).toHaveText('2');
  await expect(page.getByTestId('result-row')).toHaveCount(2);
  await expect(page.getByTestId('count-error')).toHaveCount(0);
});

test('the selections of a mailing: newest first, predefined toggle, delete in Concept or when empty', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);
  const base = `/api/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections`;
  const open = { useCampaignLabel: false, activeDatasetsOnly: false, useBlacklist: false, useDate: false };
  const first = (
    await ok(
      await page.request.post(base, {
        data: { description: 'Eerste selectie', query: { and: [] }, ...open },
      }),
    )
  ).selectionId;
  const second = (await ok(await page.request.post(base, { data: { description: 'Tweede selectie' } })))
    .selectionId;

  await page.goto(`/campaigns/${w.campaignId}/mailings/${w.mailingId}/selections`);
  const rows = page.getByRole('row');
  await expect(rows.nth(1)).toContainText(second);
  await expect(rows.nth(2)).toContainText(first);
  await expect(rows.nth(1)).toContainText(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}/);
  await expect(page.getByRole('link', { name: `Download CSV van ${first}` })).toHaveAttribute(
    'href',
    `${base}/${first}/csv`,
  );
  await page.getByRole('switch', { name: `Voorgedefinieerde query ${first}` }).click();
  await expect(page.getByRole('switch', { name: `Voorgedefinieerde query ${first}` })).toBeChecked();
  expect((await (await page.request.get(`${base}/${first}`)).json()).preDefined).toBe(true);

  // Edit opens the builder with the selection.
  await page.getByRole('link', { name: `Bewerk selectie ${first}` }).click();
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${w.campaignId}/${w.mailingId}/${first}$`));
  await expect(page.getByRole('textbox', { name: 'Omschrijving' })).toHaveValue('Eerste selectie');
  await page.goBack();

  await page.getByRole('button', { name: `Verwijder selectie ${second}` }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Selectie is verwijderd');
  await expect(page.getByRole('cell', { name: second, exact: true })).toHaveCount(0);

  // The first holds 2 addresses; a third stays empty.
  await ok(
    await page.request.post(`${base}/${first}/query`, { data: { table: [{ dataset: w.datasetA, new: 2 }] } }),
  );
  const third = (await ok(await page.request.post(base, { data: { description: 'Derde selectie' } })))
    .selectionId;

  // A Definitief mailing: no edit, and no delete of a selection that holds addresses; CSV and the
  // toggle stay. An empty selection can still be deleted.
  await finalizeMailing(page.request, w.campaignId, w.mailingId);
  await page.reload();
  await expect(page.getByRole('cell', { name: first, exact: true })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText(third);
  await expect(page.getByRole('row').nth(2)).toContainText(first);
  await expect(page.getByRole('link', { name: `Download CSV van ${first}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Verwijder selectie ${first}` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `Bewerk selectie ${first}` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `Bewerk selectie ${third}` })).toHaveCount(0);
  await page.getByRole('button', { name: `Verwijder selectie ${third}` }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Selectie is verwijderd');
  await expect(page.getByRole('cell', { name: third, exact: true })).toHaveCount(0);
  await expect(page.getByRole('cell', { name: first, exact: true })).toBeVisible();
});

test("a save refused by the server shows 'Opslaan mislukt'; a mailing out of Concept cannot be changed", async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const w = await seed(page.request);
  const base = `/api/campaigns/${w.campaignId}/mailings/${w.mailingId}`;
  const { selectionId } = await ok(
    await page.request.post(`${base}/selections`, {
      data: { description: 'Alles', query: { and: [{ dataset: { type: w.label } }] } },
    }),
  );
  // The campaign picker looks back 30 days unless another number is typed.
  const oldName = unique('Oud ');
  const start = new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10);
  const old = await ok(await page.request.post('/api/campaigns', { data: { name: oldName, start } }));
  // A campaign in the URL is chosen even when it started before the days looked back.
  await page.goto(`/selection-builder/${old._id}`);
  await expect(page.getByRole('combobox', { name: 'Campagne', exact: true })).toHaveValue(oldName);
  await page.goto('/selection-builder');
  await page.getByRole('combobox', { name: 'Campagne', exact: true }).fill(oldName);
  await expect(page.getByText('Geen campagnes gevonden')).toBeVisible();
  // '1,5' is refused with the rule (not read as 15), the last good number stays.
  const days = page.getByRole('textbox', { name: 'Campagnes van de afgelopen dagen' });
  await days.fill('1,5');
  await expect(page.getByText('Het aantal dagen moet een geheel getal van 0 of meer zijn')).toBeVisible();
  await days.fill('200');
  await expect(page.getByText('Het aantal dagen moet een geheel getal van 0 of meer zijn')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Campagne', exact: true }).fill(oldName);
  await expect(page.getByRole('option', { name: oldName })).toBeVisible();

  await page.goto(`/selection-builder/${w.campaignId}/${w.mailingId}/${selectionId}`);
  await expect(page.getByRole('textbox', { name: 'Omschrijving' })).toHaveValue('Alles');
  await expect(page.getByTestId('query-line')).toHaveText(`Label is ${w.label}`);

  await finalizeMailing(page.request, w.campaignId, w.mailingId);
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'danger', 'Opslaan mislukt');
  await expect(page.getByTestId('save-state')).toHaveText('Opslaan mislukt');

  await page.reload();
  await expect(page.getByText('Deze verzending is niet meer in Concept')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Opslaan' })).toBeDisabled();
  // Still counted: a count changes nothing.
  await expect(page.getByTestId('count-total')).toBeVisible();
});
