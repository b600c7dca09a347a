import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { generatePath } from 'react-router';
import { englishWordsIn } from '../common/ui-language.test-helpers';
import { appRoutes } from '../web/routes';
import { paramNames } from '../web/shell/crumbs';
import { importCsv, ok, waitForTask } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// Staff read Dutch on every screen. The journey seeds enough data to fill the
// screens, walks every route of the route table (web/routes.tsx, so a new screen is walked too),
// opens the lists' confirm dialogs and the select boxes, sees the upload, mapping and builder
// messages, and fails on any English UI word (common/ui-language.test-helpers.ts) outside the
// spec's own English texts.

const NOT_FOUND = 'Deze pagina kon niet worden gevonden';
const OTHER_CATEGORY_NAME = /niet geopende? of geklikte?/i;

interface World {
  params: Record<string, string>;
  partnerId: string;
  datasetName: string;
  campaignName: string;
  resultsMailingName: string;
  /** The seeded commission and participation entries, for the edit screens of their own type. */
  extraIds: Record<'commission' | 'participation', string>;
}

/** Sends a multipart upload that answers a task and waits until the task is done. */
async function uploadTask(
  api: APIRequestContext,
  url: string,
  csv: string,
  fields: Record<string, string> = {},
): Promise<void> {
  const started = await ok<{ task: { _id: string } }>(
    api.post(url, {
      multipart: { ...fields, file: { name: 'bestand.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } },
    }),
  );
  await waitForTask(api, started.task._id);
}

/**
 * A partner with a contact and a blacklist; a labelled dataset with an imported file (a row
 * skipped), a mapped column with value mappings, a test person, commission and participation; a
 * campaign with a draft mailing (addresses, results, a selection) and a Definitief one; a user,
 * an interest type, an export column, a blacklisted domain and an enrichment file.
 */
async function seed(page: Page): Promise<World> {
  const api = page.request;
  const label = unique('Taallabel');
  await ok(api.post('/api/types', { data: { type: label } }));
  const partnerId = unique('Taal_');
  await ok(api.post('/api/crud-partner', { data: { id: partnerId, name: unique('Taal BV ') } }));
  const contact = await ok(
    api.post(`/api/crud-partner/${partnerId}/contacts`, { data: { firstName: 'Tineke', lastName: 'Taal' } }),
  );
  const datasetName = unique('Taalbestand');
  const dataset = await ok(
    api.post(`/api/datasets/${partnerId}`, { data: { name: datasetName, types: [label] } }),
  );
  const domain = `${unique('taal')}.nl`;
  const emails = ['a', 'b', 'c', 'd'].map((x) => `${x}@${domain}`);
  await importCsv(
    api,
    partnerId,
    datasetName,
    [
      'email,geslacht,klant',
      ...emails.map((e, i) => `${e},${i % 2 ? 'M' : 'V'},k${i}`),
      'geen-adres,M,x',
    ].join('\n'),
  );
  await ok(
    api.put(`/api/datasets/${partnerId}/${dataset._id}/mappings`, {
      data: [
        {
          type: 'column',
          field: 'geslacht',
          // An attribute of its own: another journey counts the value mappings of 'gender'.
          mapped: 'aanhef',
          values: [{ original: 'V', mapped: 'F', insensitive: true }],
        },
      ],
    }),
  );
  const person = await ok(
    api.post(`/api/datasets/${partnerId}/${dataset._id}/testpersons`, {
      data: { firstName: 'Tessa', lastName: 'Test', email: `tessa@${domain}`, gender: 'F' },
    }),
  );
  const commission = await ok(
    api.post(`/api/datasets/${partnerId}/${dataset._id}/commission`, {
      data: { start: '2030-01-01', end: '2030-12-31', amount: 1.5 },
    }),
  );
  const participation = await ok(
    api.post(`/api/datasets/${partnerId}/${dataset._id}/participation`, {
      data: { start: '2030-01-01', end: '2030-12-31', factor: 1.2 },
    }),
  );
  await uploadTask(
    api,
    '/api/partnerblacklist/import',
    `email,partner,bestand\nzz@${domain},${partnerId},${datasetName}\n`,
  );
  await ok(api.post('/api/blacklist/domains', { data: { domains: [`spam-${domain}`] } }));

  const campaignName = unique('Taalcampagne ');
  const campaign = await ok(
    api.post('/api/campaigns', { data: { name: campaignName, start: '2031-01-01', type: label } }),
  );
  const resultsMailingName = unique('Taalverzending ');
  const mailing = await ok(
    api.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: resultsMailingName, plannedSend: '2031-06-04T10:00:00Z', addresses: 100 },
    }),
  );
  await ok(api.post(`/api/e2e/mailings/${mailing._id}/allocate`, { data: { emails: emails.slice(0, 2) } }));
  await uploadTask(
    api,
    `/api/campaigns/${campaign._id}/mailings/${mailing._id}/results`,
    `email,event,date\n${emails[0]},open,2031-06-04 11:00:00\n${emails[1]},click,2031-06-04 12:00:00\n`,
  );
  const final = await ok(
    api.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: unique('Definitief '), plannedSend: '2031-07-01T10:00:00Z' },
    }),
  );
  await ok(api.post(`/api/e2e/mailings/${final._id}/allocate`, { data: { emails: emails.slice(2) } }));
  await ok(
    api.put(`/api/campaigns/${campaign._id}/mailings/${final._id}`, {
      data: { name: 'Definitief', state: 'final' },
    }),
  );
  const selection = await ok<{ selectionId: string }>(
    api.post(`/api/campaigns/${campaign._id}/mailings/${mailing._id}/selections`, {
      data: { description: 'Taalselectie', query: { and: [{ dataset: { type: label } }] } },
    }),
  );

  const user = await ok(
    api.post('/api/users', {
      data: { name: 'Taal Gebruiker', username: unique('taal'), password: 'Geheim123!' },
    }),
  );
  await ok(api.post('/api/click-interest-types', { data: { name: unique('Taalinteresse') } }));
  await ok(api.post('/api/export/columns', { data: { column: unique('taalkolom'), type: 'date' } }));
  await uploadTask(api, '/api/enrichment/files', `email,klant\n${emails[0]},goud\n`, {
    name: unique('Taalverrijking '),
    mappings: JSON.stringify([
      { field: 'email', mapped: 'email', match: true },
      { field: 'klant', mapped: unique('klantgroep'), match: false },
    ]),
  });

  return {
    partnerId,
    datasetName,
    campaignName,
    resultsMailingName,
    extraIds: { commission: commission._id, participation: participation._id },
    params: {
      partnerId,
      contactId: contact._id,
      datasetId: dataset._id,
      personId: person._id,
      extraId: commission._id,
      mapping: 'geslacht',
      field: 'aanhef',
      campaignId: campaign._id,
      mailingId: mailing._id,
      campaign: campaign._id,
      mailing: mailing._id,
      selection: selection.selectionId,
      userId: user._id,
    },
  };
}

/**
 * Every text a person sees or hears in `scope`: its shown text, the title, placeholder and
 * aria-label attributes, and the chosen option of each select box (shown as a read-only input's value).
 */
function shownText(scope: Locator): Promise<string> {
  return scope.evaluate((root) => {
    // biome-ignore lint/performance/useDomNodeTextContent: innerText is the text as shown (no hidden nodes).
    const parts = [document.title, (root as HTMLElement).innerText];
    for (const el of root.querySelectorAll('[title], [placeholder], [aria-label]'))
      for (const a of ['title', 'placeholder', 'aria-label']) parts.push(el.getAttribute(a) ?? '');
    for (const el of root.querySelectorAll('input')) if (el.readOnly) parts.push(el.value);
    return parts.join('\n');
  });
}

/**
 * Opens `path` inside the running app, as its links do (the router follows the history), so the
 * walk does not load the whole app again for every screen.
 */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => url.pathname === path);
  await settle(page);
}

/** Waits until the screen has its data: requests settled (briefly) and no spinner. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => {});
  await expect(page.locator('.mantine-Loader:visible')).toHaveCount(0);
}

/** The checks of one journey: each adds what it finds to `hits`, which the journey expects empty at its end. */
function checker(page: Page) {
  const hits: string[] = [];

  /** Reads `scope` (the whole page by default) for English words and the other name of Inactief. */
  const check = async (where: string, scope: Locator = page.locator('body')) => {
    const text = await shownText(scope);
    if (text.includes(NOT_FOUND)) hits.push(`${where}: the 404 page`);
    // One name for one engagement category: the spec's 'inactive' (Inactief), everywhere.
    if (OTHER_CATEGORY_NAME.test(text)) hits.push(`${where}: 'Niet geopend of geklikt' instead of Inactief`);
    for (const h of englishWordsIn(text)) hits.push(`${where}: '${h.word}' in "${h.context}"`);
  };

  /** Opens each enabled select box of `scope` (the whole page by default) and reads its options. */
  const checkSelects = async (where: string, scope: Page | Locator = page) => {
    const boxes = scope.locator('input[aria-haspopup="listbox"][readonly]:visible:enabled');
    const n = await boxes.count();
    for (let i = 0; i < n; i++) {
      await boxes.nth(i).click();
      const listbox = page.getByRole('listbox');
      if (await listbox.isVisible()) await check(`${where} (keuzelijst)`, listbox);
      await page.keyboard.press('Escape');
    }
  };

  /** Opens the first delete confirmation of a list and reads it; answers 'Nee'. */
  const checkDeleteDialog = async (where: string) => {
    const del = page
      .getByRole('row')
      .getByRole('button', { name: /^Verwijder/ })
      .first();
    if (!(await del.isVisible()) || !(await del.isEnabled())) return;
    await del.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await check(`${where} (bevestiging)`, dialog);
    await dialog.getByRole('button', { name: 'Nee' }).click();
    await expect(dialog).toHaveCount(0);
  };

  return { hits, check, checkSelects, checkDeleteDialog };
}

// The three journeys each seed their own data, so they run side by side.
test.describe.configure({ mode: 'parallel' });

// The screens of the route table; the line editor's paths open the builder's line drawer (walked
// with the dialogs).
const SCREENS = appRoutes.filter((r) => r.element && !r.path.startsWith('/selection-builder/add-line'));
// Two halves, so two workers walk them side by side.
const HALVES = [
  SCREENS.slice(0, Math.ceil(SCREENS.length / 2)),
  SCREENS.slice(Math.ceil(SCREENS.length / 2)),
];

test('the halves of the walk are every screen of the route table', () => {
  expect(HALVES.flat().map((r) => r.path)).toEqual(SCREENS.map((r) => r.path));
  expect(SCREENS.length).toBeGreaterThan(50);
});

for (const [i, routes] of HALVES.entries()) {
  test(`screens ${i + 1} of 2 of the route table are in Dutch`, async ({ page }) => {
    test.setTimeout(900_000);
    await loginAsAdmin(page, '/');
    const w = await seed(page);
    const { hits, check, checkSelects, checkDeleteDialog } = checker(page);

    if (i === 0) {
      // The login screen and the 404 page.
      const guest = await page.context().browser()!.newPage();
      await guest.goto(new URL('/', page.url()).href);
      await expect(guest.getByRole('button', { name: 'Inloggen' })).toBeVisible();
      await check('/ (niet ingelogd)', guest.locator('body'));
      await guest.close();
      await page.goto('/bestaat-niet');
      await expect(page.getByText(NOT_FOUND)).toBeVisible();
      hits.push(...englishWordsIn(await shownText(page.locator('body'))).map((h) => `404: '${h.word}'`));
    }

    for (const route of routes) {
      const types = route.path.includes('/:type') ? ['commission', 'participation'] : [undefined];
      for (const type of types) {
        for (const name of paramNames(route.path))
          expect(w.params[name] ?? type, `${route.path}: the seed has no ${name}`).toBeDefined();
        // An entry's edit screen opens the entry of its own type (another id goes back to the list).
        const extraId = type ? w.extraIds[type as 'commission' | 'participation'] : undefined;
        const path = generatePath(route.path, { ...w.params, type, ...(extraId ? { extraId } : {}) });
        await visit(page, path);
        await check(path);
        await checkSelects(path);
        if (!/\/(new|edit|headers|mappings|testperson)$/.test(route.path) && !route.path.includes('/edit/'))
          await checkDeleteDialog(path);
      }
    }
    expect(hits, hits.join('\n')).toEqual([]);
  });
}

test('dialogs, messages and task cards are in Dutch', async ({ page }) => {
  test.setTimeout(600_000);
  await loginAsAdmin(page, '/');
  const w = await seed(page);
  const { hits, check, checkSelects } = checker(page);

  // A partner's blacklist is headed in Dutch, without an English possessive.
  await visit(page, `/partners/${w.partnerId}/blacklist`);
  await expect
    .soft(page.getByRole('heading', { level: 2 }).first())
    .toHaveText(`Blacklist van ${w.partnerId}`);

  // The line drawer: its menu and every line type's form, opened from the builder.
  const { campaign, mailing, selection } = w.params;
  const builder = `/selection-builder/${campaign}/${mailing}/${selection}`;
  await visit(page, builder);
  const lineDrawer = page.getByRole('dialog');
  const openLineMenu = async () => {
    await page.getByRole('button', { name: 'Regel toevoegen' }).first().click();
    await expect(page).toHaveURL(/[?&]line=menu$/);
  };
  await openLineMenu();
  await check('Regel toevoegen');
  const lineLinks = lineDrawer.locator('a[aria-label]').filter({ has: page.locator('p') });
  await expect.poll(() => lineLinks.count(), { timeout: 30_000 }).toBeGreaterThan(3);
  await settle(page);
  const lineTypes = await lineLinks.evaluateAll((as) => as.map((a) => a.getAttribute('aria-label') ?? ''));
  for (const [n, lineType] of lineTypes.entries()) {
    if (n > 0) await openLineMenu();
    await lineDrawer.getByRole('link', { name: lineType, exact: true }).click();
    await settle(page);
    await check(`Regel toevoegen (${lineType})`);
    await checkSelects(`Regel toevoegen (${lineType})`, lineDrawer);
    await lineDrawer.getByRole('button', { name: 'Annuleren' }).click();
    await expect(lineDrawer).toHaveCount(0);
  }

  // The builder's failed save ('Failed to save' became Dutch) and its 'Nieuwe query' question.
  await visit(page, builder);
  await page.route('**/api/campaigns/*/mailings/*/selections/*', (r) =>
    r.request().method() === 'PUT'
      ? r.fulfill({ status: 500, json: { message: 'Er ging iets mis op de server' } })
      : r.fallback(),
  );
  await page.getByRole('button', { name: 'Opslaan', exact: true }).click();
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'NOT_SAVED');
  await check('selectiebouwer (mislukt)');
  await page.unroute('**/api/campaigns/*/mailings/*/selections/*');
  await page.getByRole('button', { name: 'Nieuwe query' }).click();
  await check('selectiebouwer (nieuwe query)', page.getByRole('dialog'));
  await page.getByRole('dialog').getByRole('button', { name: 'Nee' }).click();

  // The mailing list's pressure and limit dialogs.
  await visit(page, `/campaigns/${campaign}/mailings`);
  for (const action of [/^Controleer maildruk/, /^Aantal adressen maximeren/]) {
    await page.getByRole('button', { name: action }).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await settle(page);
    await check(`verzendingen (${action.source})`, dialog);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }

  // The mapping editor's save and 'Mapping doorvoeren' messages (before the upload, which brings
  // a file without the column klant).
  // The notifications only: the editor's own alert (a preview not yet applied) comes and goes.
  const alerts = page.locator('.mantine-Notifications-notification');
  await visit(page, `/partners/${w.partnerId}/datasets/${w.params.datasetId}/headers`);
  const klant = page.getByRole('combobox', { name: 'Kenmerk voor klant' });
  await expect(klant).toBeVisible();
  await klant.fill('klantnummer');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  // Found by its text: an earlier notification may still be closing beside it.
  const saved = alerts.filter({ hasText: 'Opgeslagen' }).first();
  await expect(saved).toBeVisible();
  await check('mapping (opgeslagen)', saved);
  await page.reload();
  await settle(page);
  await page.getByRole('button', { name: 'Mapping doorvoeren' }).click();
  const remapped = alerts.filter({ hasText: 'Mapping doorgevoerd' }).first();
  await expect(remapped).toBeVisible();
  await check('mapping (doorgevoerd)', remapped);

  // An upload: the success alert and its counters.
  await visit(page, `/upload/${w.partnerId}/${w.params.datasetId}`);
  await page.locator('input[type=file]').setInputFiles({
    name: 'tweede.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email\nnieuw@taal.nl\nfout\n'),
  });
  await page.getByRole('button', { name: 'Uploaden' }).click();
  const uploaded = alerts.filter({ hasText: /\(\d+ ms\)/ });
  await expect(uploaded).toBeVisible();
  await check('upload (klaar)', uploaded);

  // The results task card names the campaign and the mailing, not a 'Partner'.
  await visit(page, '/tasks');
  const card = page.getByTestId('task-card').filter({ hasText: 'Resultaten van een verzending' }).first();
  await expect.soft(card).toContainText(`Campagne: ${w.campaignName}`);
  await expect.soft(card).toContainText(`Verzending: ${w.resultsMailingName}`);
  await expect.soft(card).not.toContainText('Partner:');
  await check('/tasks (na upload)');

  expect(hits, hits.join('\n')).toEqual([]);
});
