import { expect, type Page, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

const alert = (page: Page, title: string) => page.getByRole('alert').filter({ hasText: title });

/** Types a search term and waits for the server's answer (it is asked 500 ms after typing stops). */
async function search(page: Page, term: string): Promise<void> {
  const answered = page.waitForResponse((r) =>
    r.url().includes(`/api/pagcampaignsearch/1/20/${encodeURIComponent(term)}`),
  );
  await page.getByLabel('Zoeken').fill(term);
  await answered;
}

test('campaigns: validation on screen, create with webpower ids, find, edit, delete with confirmation', async ({
  page,
}) => {
  const label = unique('Camplabel');
  const name = unique('Lentecampagne ');
  await loginAsAdmin(page, '/campaigns');
  expect((await page.request.post('/api/types', { data: { type: label } })).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Campagnes' })).toBeVisible();
  await page.getByRole('link', { name: 'Nieuwe campagne' }).click();
  await expect(page).toHaveURL(/\/campaigns\/new$/);

  // The name is required: shown under the field and in a red alert.
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(alert(page, 'Foute invoer')).toContainText('Het naam veld is verplicht');
  await expect(page.locator('form')).toContainText('Het naam veld is verplicht');

  await page.getByLabel('Naam').fill(`  ${name} `);
  await page.getByLabel('Klant').fill('Bloemist de Roos');
  await page.getByLabel('Start').fill('15-03-2031');
  await page.getByRole('combobox', { name: 'Label', exact: true }).click();
  await page.getByRole('option', { name: label }).click();
  await page.getByLabel('Aantal adressen').fill('12000');
  await page.getByLabel('Budget').fill('99,95');
  await page.getByRole('combobox', { name: 'Verzendpartij' }).click();
  await page.getByRole('option', { name: 'Webpower' }).click();

  // A webpower id must be campaign id:mailing id; every filled entry gets a next empty one.
  await page.getByLabel('Extern id 1', { exact: true }).fill('12345');
  await expect(page.getByLabel('Extern id 2', { exact: true })).toHaveValue('');
  await page.getByLabel('Extern id 2', { exact: true }).fill('7:8');
  await expect(page.getByLabel('Extern id 3', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Opslaan' }).click();
  const webpowerRule =
    'Een webpower id bestaat uit het campagne-id en het mailing-id gescheiden door een dubbele punt';
  await expect(alert(page, 'Foute invoer').filter({ hasText: webpowerRule })).toBeVisible();
  await expect(page.locator('form')).toContainText(webpowerRule);
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  await page.getByLabel('Extern id 1', { exact: true }).fill('12345:678');

  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(alert(page, 'Campagne met success aangemaakt')).toBeVisible();
  // After creating, the campaign's mailings (a later screen).
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}\/mailings$/);
  const id = /\/campaigns\/([0-9a-f]{24})\/mailings$/.exec(page.url())![1];
  const stored = await (await page.request.get(`/api/campaigns/${id}`)).json();
  expect(stored).toMatchObject({
    name,
    customer: 'Bloemist de Roos',
    start: '2031-03-15',
    type: label,
    addresses: 12000,
    budget: '99.95',
    externalParty: 'webpower',
    externalIds: ['12345:678', '7:8'],
  });

  // Found with the search box (case-insensitive, on the customer too) and shown with DD-MM-YYYY.
  await page.goto('/campaigns');
  await search(page, name.toUpperCase());
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('15-03-2031');
  await expect(row).toContainText(label);
  await expect(row.getByRole('link', { name: `Verzendingen van ${name}` })).toHaveAttribute(
    'href',
    `/campaigns/${id}/mailings`,
  );

  // Edit: the stored values are in the form; switching to tripolis refuses the old ids.
  await row.getByRole('link', { name: `Bewerk ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/campaigns/${id}/edit$`));
  await expect(page.getByLabel('Naam')).toHaveValue(name);
  await expect(page.getByLabel('Start')).toHaveValue('15-03-2031');
  await expect(page.getByLabel('Budget')).toHaveValue('99,95');
  await expect(page.getByLabel('Extern id 1', { exact: true })).toHaveValue('12345:678');
  await expect(page.getByLabel('Extern id 3', { exact: true })).toHaveValue('');
  await page.getByLabel('Naam').fill(`${name} bewerkt`);
  await page.getByRole('combobox', { name: 'Verzendpartij' }).click();
  await page.getByRole('option', { name: 'Tripolis' }).click();
  await page.getByRole('button', { name: 'Verwijder extern id 2' }).click();
  await page.getByLabel('Extern id 1', { exact: true }).fill('MAIL 1');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(
    alert(page, 'Foute invoer').filter({ hasText: 'Een tripolis id is één mailing-id' }),
  ).toBeVisible();
  await page.getByLabel('Extern id 1', { exact: true }).fill('MAIL-1');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(alert(page, 'Campagne met success opgeslagen')).toBeVisible();
  await expect(page).toHaveURL(/\/campaigns$/);
  expect(await (await page.request.get(`/api/campaigns/${id}?noCount`)).json()).toMatchObject({
    name: `${name} bewerkt`,
    externalParty: 'tripolis',
    externalIds: ['MAIL-1'],
  });

  // Delete: 'Nee' keeps it, 'Ja' deletes it.
  await search(page, `${name} bewerkt`);
  const edited = page.getByRole('row').filter({ hasText: `${name} bewerkt` });
  await expect(edited).toHaveCount(1);
  await edited.getByRole('button', { name: `Verwijder ${name} bewerkt` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Weet je zeker dat je de campagne ${name} bewerkt wilt verwijderen?`);
  await dialog.getByRole('button', { name: 'Nee' }).click();
  await expect(dialog).toBeHidden();
  await expect(edited).toHaveCount(1);
  await edited.getByRole('button', { name: `Verwijder ${name} bewerkt` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ja' }).click();
  await expect(alert(page, 'Campagne wordt verwijderd')).toBeVisible();
  await expect(edited).toHaveCount(0);
  await expect(page.getByText('Geen campagnes gevonden.')).toBeVisible();
  expect((await page.request.get(`/api/campaigns/${id}`)).status()).toBe(404);
});

test('campaigns: 20 a page from the server, search over the pages, newest start first', async ({ page }) => {
  const customer = unique('Paginaklant');
  await loginAsAdmin(page, '/tasks');
  // 23 campaigns with starts 01..23 January 2032 (the 23rd is the newest).
  for (let i = 1; i <= 23; i++) {
    const day = String(i).padStart(2, '0');
    const res = await page.request.post('/api/campaigns', {
      data: { name: `Reeks ${day}`, customer, start: `2032-01-${day}` },
    });
    expect(res.status()).toBe(200);
  }
  await page.goto('/campaigns');
  const rows = page.getByRole('row').filter({ hasText: customer });

  // Without a search the first page holds 20 campaigns and there is a second page.
  await expect(page.getByRole('row')).toHaveCount(21);
  await expect(page.getByRole('button', { name: '2', exact: true })).toBeVisible();

  await search(page, customer.toLowerCase());
  await expect(rows).toHaveCount(20);
  await expect(page.getByText('23 campagnes')).toBeVisible();
  await expect(rows.first()).toContainText('Reeks 23');
  await expect(rows.first()).toContainText('23-01-2032');
  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Reeks 03');
  await expect(rows.last()).toContainText('Reeks 01');
  await page.getByRole('button', { name: 'Vorige' }).click();
  await expect(rows).toHaveCount(20);

  // A new term starts at page 1; no hits says so.
  await search(page, `${customer} niets`);
  await expect(page.getByText('Geen campagnes gevonden.')).toBeVisible();
  await expect(page.getByRole('button', { name: '2', exact: true })).toHaveCount(0);
});

test('campaigns: a failed list fetch shows the danger alert; an unknown campaign goes back to the list', async ({
  page,
}) => {
  await loginAsAdmin(page, '/tasks');
  await page.route('**/api/pagcampaigns/**', (route) =>
    route.fulfill({ status: 500, json: { message: 'Er ging iets mis op de server' } }),
  );
  await page.goto('/campaigns');
  await expect(alert(page, 'Campagnes konden niet worden opgehaald')).toContainText(
    'Er ging iets mis op de server',
  );
  await page.unroute('**/api/pagcampaigns/**');

  await page.goto('/campaigns/bestaatniet/edit');
  await expect(alert(page, 'Campagne kon niet worden opgehaald')).toContainText(
    'Deze campagne kon niet worden gevonden',
  );
  await expect(page).toHaveURL(/\/campaigns$/);
});

test('campaigns: Enter in the date field submits nothing; Opslaan does', async ({ page }) => {
  const name = unique('Entercampagne ');
  await loginAsAdmin(page, '/campaigns/new');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/campaigns') posts.push(r.url());
  });
  await page.getByLabel('Naam').fill(name);
  const start = page.getByRole('textbox', { name: 'Start' });
  await start.fill('15-03-2031');
  // A round trip through the page after each Enter: a request it had started is sent by then.
  const settle = () => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await start.press('Enter');
  await settle();
  expect(posts).toEqual([]);
  // A second Enter, the calendar the typing opened closed or not, submits nothing either.
  await start.press('Enter');
  await settle();
  expect(posts).toEqual([]);
  await expect(page).toHaveURL(/\/campaigns\/new$/);
  await expect(alert(page, 'Campagne met success aangemaakt')).toHaveCount(0);
  const found = await page.request.get(`/api/pagcampaignsearch/1/20/${encodeURIComponent(name)}`);
  expect((await found.json()).total).toBe(0);

  // The form goes on with what was typed: the date stays, the rest is filled, Opslaan creates it.
  await expect(start).toHaveValue('15-03-2031');
  await page.getByLabel('Aantal adressen').fill('500');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(alert(page, 'Campagne met success aangemaakt')).toBeVisible();
  await page.waitForURL(/\/campaigns\/[0-9a-f]{24}\/mailings$/);
  const id = /\/campaigns\/([0-9a-f]{24})\/mailings$/.exec(page.url())![1];
  expect(await (await page.request.get(`/api/campaigns/${id}`)).json()).toMatchObject({
    name,
    start: '2031-03-15',
    addresses: 500,
  });
  expect(posts).toHaveLength(1);
});
