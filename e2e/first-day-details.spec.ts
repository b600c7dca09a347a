import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// The smaller things a new user meets on a first day, each checked on the screen where it shows.

const ONE_FILE = 'Er kan maar één bestand tegelijk worden geüpload';

/** A partner with one dataset (labelled `label` when given); returns their ids and names. */
async function seedDataset(request: APIRequestContext, label?: string) {
  const partnerId = unique('Dag_');
  await ok(
    await request.post('/api/crud-partner', { data: { id: partnerId, name: `Eerste Dag ${partnerId}` } }),
  );
  const name = unique('Leden');
  const dataset = await ok(
    await request.post(`/api/datasets/${partnerId}`, {
      data: { name, ...(label ? { types: [label] } : {}) },
    }),
  );
  return { partnerId, datasetId: dataset._id, name };
}

type DropFile = { name: string; content: string; type: string };
const csv = (name: string, content = 'email\nx@voorbeeld.nl'): DropFile => ({
  name,
  content,
  type: 'text/csv',
});

/** Drops files on a drop zone the way a browser does: one drop event carrying them all. */
async function dropFiles(zone: Locator, files: DropFile[]) {
  const dataTransfer = await zone.page().evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.content], f.name, { type: f.type }));
    return dt;
  }, files);
  await zone.dispatchEvent('drop', { dataTransfer }, { timeout: 20_000 });
}

/** Checks that a drop zone refuses two files at once (two .csv, and a .csv with another file) and takes none. */
async function expectOneFileAtATime(page: Page, zone: Locator) {
  for (const files of [
    [csv('een.csv'), csv('twee.csv')],
    [csv('een.csv'), { name: 'notities.txt', content: 'x', type: 'text/plain' }],
  ]) {
    await dropFiles(zone, files);
    const alert = await expectAlert(page, 'danger', 'Ongeldig bestand', ONE_FILE);
    await expect(page.getByTestId('chosen-file')).toHaveCount(0);
    await alert.getByRole('button').click();
    await expect(alert).toHaveCount(0);
  }
}

const dropZone = (within: Page | Locator) => within.locator('[aria-label="CSV-bestand"]');

test('a contact that gets a username on edit must get a password, as on create', async ({ page }) => {
  await loginAsAdmin(page, '/');
  const { partnerId } = await seedDataset(page.request);
  const contact = await ok(
    await page.request.post(`/api/crud-partner/${partnerId}/contacts`, { data: { firstName: 'Kees' } }),
  );
  await page.goto(`/partners/${partnerId}/contacts/${contact._id}/edit`);
  await expect(page.getByLabel('Voornaam')).toHaveValue('Kees');
  await page.getByLabel('Gebruikersnaam').fill(unique('kees'));
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByText('Het wachtwoord is een verplicht veld').first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/contacts/${contact._id}/edit$`));
  await page.getByLabel('Wachtwoord').fill('Geheim123');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expectAlert(page, 'success', 'Contactpersoon opgeslagen');
  const saved = await page.request.get(`/api/crud-partner/${partnerId}/contacts/${contact._id}`);
  expect(await saved.json()).toMatchObject({ hasPassword: true });
});

test('every drop zone refuses two files at once with one message', async ({ page }) => {
  await loginAsAdmin(page, '/');
  const { partnerId, datasetId } = await seedDataset(page.request);

  await page.goto(`/upload/${partnerId}/${datasetId}`);
  await expectOneFileAtATime(page, dropZone(page));
  await page.goto(`/deleteall/${partnerId}/${datasetId}`);
  await expectOneFileAtATime(page, dropZone(page));
  await page.goto('/blacklist/upload');
  for (const kind of ['email', 'domain', 'partner']) {
    const form = page.getByTestId(`blacklist-upload-${kind}`);
    await expectOneFileAtATime(page, dropZone(form));
  }
  // A mailing's results upload: a dialog with the same drop zone, which refuses anything but one .csv.
  const campaign = await ok(
    await page.request.post('/api/campaigns', { data: { name: unique('Resultaat ') } }),
  );
  await ok(await page.request.post(`/api/campaigns/${campaign._id}/mailings`, { data: { name: 'Eerste' } }));
  await page.goto(`/campaigns/${campaign._id}/mailings`);
  await page.getByRole('button', { name: 'Resultaten uploaden voor Eerste' }).click();
  const results = page.getByRole('dialog', { name: 'Resultaten uploaden: Eerste' });
  await expectOneFileAtATime(page, dropZone(results));
  await results.locator('input[type=file]').setInputFiles({
    name: 'resultaten.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('email,event,date'),
  });
  await expectAlert(page, 'danger', 'Ongeldig bestand', 'Alleen .csv-bestanden kunnen worden geüpload');
  await expect(results.getByTestId('chosen-file')).toHaveCount(0);
  await results.getByRole('button', { name: 'Sluiten' }).click();
  // The selection builder's file line (Bestandsmatch).
  await page.goto('/selection-builder');
  await page.getByRole('button', { name: 'Regel toevoegen' }).first().click();
  await page.getByRole('dialog').getByRole('link', { name: 'Bestandsmatch', exact: true }).click();
  await expectOneFileAtATime(page, dropZone(page.getByRole('dialog')));
  // One .csv is taken, its size under 1 kB in bytes and its columns as typed.
  const file = csv('adressen.csv', 'email,Naam\nx@voorbeeld.nl,X');
  await dropFiles(dropZone(page), [file]);
  const chosen = page.getByTestId('chosen-file');
  await expect(chosen).toContainText('adressen.csv');
  await expect(chosen).toContainText(`${Buffer.byteLength(file.content)} bytes`);
  const badge = chosen.getByText('Naam', { exact: true });
  await expect(badge).toBeVisible();
  expect(await badge.evaluate((el) => getComputedStyle(el).textTransform)).toBe('none');
  // biome-ignore lint/performance/useDomNodeTextContent: innerText is the text as shown, after text-transform.
  expect(await badge.evaluate((el) => (el as HTMLElement).innerText)).toBe('Naam');
});

test('uploading stays off while the chosen file has no e-mail column', async ({ page }) => {
  await loginAsAdmin(page, '/');
  const { partnerId, datasetId } = await seedDataset(page.request);
  const input = page.locator('input[type=file]');
  const noEmail = {
    name: 'zonder.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('naam,postcode\nAnna,1234AB'),
  };
  const withEmail = {
    name: 'met.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email,naam\na@voorbeeld.nl,Anna'),
  };

  await page.goto(`/upload/${partnerId}/${datasetId}`);
  await input.setInputFiles(noEmail);
  await expect(page.getByText('Het bestand bevat geen kolom genaamd email')).toBeVisible();
  await expect(page.getByTestId('chosen-file')).toContainText('25 bytes');
  await expect(page.getByRole('button', { name: 'Uploaden' })).toBeDisabled();
  await page.getByRole('button', { name: 'Ander bestand' }).click();
  await input.setInputFiles(withEmail);
  await expect(page.getByTestId('chosen-file')).toContainText('met.csv');
  await expect(page.getByRole('button', { name: 'Uploaden' })).toBeEnabled();

  await page.goto(`/deleteall/${partnerId}/${datasetId}`);
  await input.setInputFiles(noEmail);
  await expect(page.getByText('Het bestand bevat geen kolom genaamd email')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Verwijderen' })).toBeDisabled();
  // Another e-mail column name that the file does have turns it on.
  await page.getByLabel('E-mailkolom').fill('naam');
  await expect(page.getByRole('button', { name: 'Verwijderen' })).toBeEnabled();
});

test('/tasks shows types and states in Dutch, and a failed task’s bar stands still', async ({ page }) => {
  await loginAsAdmin(page, '/');
  const { partnerId, name } = await seedDataset(page.request);
  const upload = await ok<{ task: { _id: string } }>(
    await page.request.post(`/api/import/${partnerId}/${encodeURIComponent(name)}`, {
      multipart: { file: { name: 'leden.csv', mimeType: 'text/csv', buffer: Buffer.from('email\na@b.nl') } },
    }),
  );
  const username = unique('taak');
  const running = await ok<{ task: { _id: string } }>(
    await page.request.post('/api/e2e/tasks', { data: { type: 'e2e.demo', username } }),
  );
  const failing = await ok<{ task: { _id: string } }>(
    await page.request.post('/api/e2e/tasks', { data: { type: 'e2e.fail', username } }),
  );
  try {
    await page.goto('/tasks');
    const card = (id: string) => page.getByTestId('task-card').filter({ hasText: `Id: ${id}` });
    await expect(card(upload.task._id).getByTestId('task-type')).toHaveText('Upload');
    await expect(card(upload.task._id).getByTestId('task-state')).toHaveText('Klaar');
    await expect(card(running.task._id).getByTestId('task-state')).toHaveText('Opslaan');
    const failed = card(failing.task._id);
    await expect(failed.getByTestId('task-state')).toHaveText('Mislukt');
    await expect(failed).toContainText('Mislukt (Bestand is kapot)');
    // The running bar moves; the failed one stays where it stopped, without stripes.
    await expect(card(running.task._id).locator('[data-animated]')).toHaveCount(1);
    await expect(failed.getByRole('progressbar')).toBeVisible();
    await expect(failed.locator('[data-animated], [data-striped]')).toHaveCount(0);
    // The search finds the Dutch words too.
    await page.getByLabel('Zoeken').fill('mislukt');
    await expect(failed).toBeVisible();
    await expect(card(running.task._id)).toHaveCount(0);
  } finally {
    await page.request.post('/api/e2e/tasks/release-all');
  }
});

test('campaign names look like the app’s links, labels are not upper-cased, toasts leave the buttons free', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const label = unique('Nieuwsbrief');
  await ok(await page.request.post('/api/types', { data: { type: label } }));
  const { partnerId } = await seedDataset(page.request, label);
  const name = unique('Lente ');
  await ok(await page.request.post('/api/campaigns', { data: { name, start: '2031-04-01' } }));

  await page.goto('/campaigns');
  await page.getByLabel('Zoeken').fill(name);
  const link = page.getByRole('link', { name, exact: true });
  const appLink = page.getByRole('link', { name: 'Mijn account' });
  const style = (l: Locator) =>
    l.evaluate((el) => {
      const s = getComputedStyle(el);
      return { color: s.color, decoration: s.textDecorationLine };
    });
  await expect(link).toBeVisible();
  expect(await style(link)).toEqual(await style(appLink));

  // A toast (here: deleting the campaign) covers neither 'Log uit' nor the page's own button.
  await page.getByRole('button', { name: `Verwijder ${name}` }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  const toast = await expectAlert(page, 'success', 'Campagne wordt verwijderd');
  const toastBox = (await toast.boundingBox())!;
  for (const target of [
    page.getByRole('button', { name: /^Log uit/ }),
    page.getByRole('link', { name: 'Nieuwe campagne' }),
  ]) {
    const box = (await target.boundingBox())!;
    const overlaps =
      box.x < toastBox.x + toastBox.width &&
      toastBox.x < box.x + box.width &&
      box.y < toastBox.y + toastBox.height &&
      toastBox.y < box.y + box.height;
    expect(overlaps, `toast over ${await target.textContent()}`).toBe(false);
  }

  // The dataset's label reads as it was typed.
  await page.goto(`/partners/${partnerId}/datasets`);
  const badge = page.getByRole('main').getByText(label, { exact: true });
  await expect(badge).toBeVisible();
  // biome-ignore lint/performance/useDomNodeTextContent: innerText is the text as shown, after text-transform.
  expect(await badge.evaluate((el) => (el as HTMLElement).innerText)).toBe(label);
});

test('the login page logs no console error for the expected 401 of /api/auth/me', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByLabel('Gebruikersnaam')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});

test('the footer shows no red "unknown" connector while the status loads', async ({ page }) => {
  await loginAsAdmin(page, '/');
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/connector/status', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const status = page.getByTestId('connector-status');
  await expect(status).toBeVisible();
  await expect(status).not.toHaveAttribute('data-color', 'red');
  await expect(status).not.toContainText('unknown');
  await expect(status).toContainText('laden');
  release();
  await expect(status).toHaveAttribute('data-status', 'idle');
  await expect(status).toHaveAttribute('data-color', 'green');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test.describe('on a 390 px wide phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every list screen keeps the page width; its table scrolls inside and the row actions stay reachable', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await loginAsAdmin(page, '/');
    const label = unique('Label');
    await ok(await page.request.post('/api/types', { data: { type: label } }));
    const { partnerId, datasetId } = await seedDataset(page.request, label);
    const longName = 'Een heel lange naam die niet op een smal scherm past';
    await ok(
      await page.request.post(`/api/crud-partner/${partnerId}/contacts`, {
        data: { firstName: longName, lastName: 'Jansen-van-der-Berg', email: 'contactpersoon@voorbeeld.nl' },
      }),
    );
    await ok(
      await page.request.post(`/api/datasets/${partnerId}/${datasetId}/testpersons`, {
        data: { firstName: longName, email: 'testpersoon@voorbeeld.nl', gender: 'F' },
      }),
    );
    const campaign = await ok(
      await page.request.post('/api/campaigns', {
        // The newest start, so it is on the list's first page whatever other journeys made.
        data: { name: longName, customer: 'Klant met een lange naam BV', start: '2099-12-31', type: label },
      }),
    );
    const mailing = await ok(
      await page.request.post(`/api/campaigns/${campaign._id}/mailings`, {
        data: { name: longName, plannedSend: '2031-05-05', addresses: '12.500' },
      }),
    );
    await ok(await page.request.post('/api/click-interest-types', { data: { name: unique('Interesse') } }));
    await ok(
      await page.request.post('/api/export/columns', { data: { column: unique('kolom'), type: 'string' } }),
    );
    await ok(
      await page.request.post('/api/blacklist/domains', {
        data: { domains: [`${unique('lang-domein')}.nl`] },
      }),
    );

    const screens: [string, string][] = [
      ['/partners', 'Partners'],
      [`/partners/${partnerId}/contacts`, longName],
      [`/partners/${partnerId}/datasets`, label],
      [`/partners/${partnerId}/datasets/${datasetId}/testpersons`, longName],
      ['/types', label],
      ['/campaigns', longName],
      [`/campaigns/${campaign._id}/mailings`, longName],
      [`/campaigns/${campaign._id}/mailings/${mailing._id}/selections`, 'Selecties'],
      ['/interest-types', 'Interesse'],
      ['/csv-columns', 'kolom'],
      ['/users', 'Gebruikers'],
      ['/blacklist/domain', 'lang-domein'],
      ['/counts', 'Tellingen'],
      ['/pressure', 'Maildruk'],
      ['/tasks', 'Taken'],
      ['/valuemapped', 'Waardemappings'],
    ];
    const overflowing: string[] = [];
    for (const [path, text] of screens) {
      await page.goto(path);
      await expect(page.getByRole('main').getByText(text).first()).toBeVisible();
      await expect(page.getByTestId('list-loading')).toHaveCount(0);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) overflowing.push(`${path}: ${width}px`);
      // The last action of the first row can be reached (scrolled to inside the table) and clicked.
      const row = page.getByRole('main').locator('tbody tr').first();
      if ((await row.count()) > 0) {
        const action = row.locator('a, button').last();
        if ((await action.count()) > 0) {
          await action.scrollIntoViewIfNeeded();
          const box = (await action.boundingBox())!;
          expect(box.x + box.width, `${path}: row action off-screen`).toBeLessThanOrEqual(390);
          expect(box.x, `${path}: row action off-screen`).toBeGreaterThanOrEqual(0);
        }
      }
    }
    expect(overflowing).toEqual([]);
  });
});
