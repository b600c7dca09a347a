import { expect, type Page, test } from '@playwright/test';
import { generatePath } from 'react-router';
import { appRoutes } from '../web/routes';
import { paramNames } from '../web/shell/crumbs';
import { importCsv, ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// Every route of the route table, with real ids created through the API, shows a
// breadcrumb trail of names (never a 24-character id), and every crumb opens a screen (not the
// 404 page).

const NOT_FOUND = 'Deze pagina kon niet worden gevonden';
const HEX_ID = /\b[0-9a-f]{24}\b/;

interface World {
  params: Record<string, string>;
  /** Per param, the name its crumb must show. */
  names: Record<string, string>;
}

/** A partner with a contact, a dataset (file imported, a column mapped), a test person, a commission; a campaign with a mailing and a selection; a user. */
async function seed(page: Page): Promise<World> {
  const api = page.request;
  const partnerId = unique('Kruimel_');
  const partnerName = unique('Kruimel BV ');
  await ok(api.post('/api/crud-partner', { data: { id: partnerId, name: partnerName } }));
  const contact = await ok<{ _id: string }>(
    api.post(`/api/crud-partner/${partnerId}/contacts`, {
      data: { firstName: 'Karel', lastName: 'Kruimel' },
    }),
  );
  const datasetName = unique('Kruimelbestand');
  const dataset = await ok<{ _id: string }>(
    api.post(`/api/datasets/${partnerId}`, { data: { name: datasetName } }),
  );
  await importCsv(api, partnerId, datasetName, 'email,geslacht\nk@voorbeeld.nl,M\n', 'k.csv');
  await ok(
    api.put(`/api/datasets/${partnerId}/${dataset._id}/mappings`, {
      data: [{ type: 'column', field: 'geslacht', mapped: 'gender' }],
    }),
  );
  const person = await ok<{ _id: string }>(
    api.post(`/api/datasets/${partnerId}/${dataset._id}/testpersons`, {
      data: { firstName: 'Tessa', lastName: 'Test', email: 'tessa@voorbeeld.nl', gender: 'F' },
    }),
  );
  const commission = await ok<{ _id: string }>(
    api.post(`/api/datasets/${partnerId}/${dataset._id}/commission`, {
      data: { start: '2030-01-01', end: '2030-12-31', amount: 1.5 },
    }),
  );
  const campaignName = unique('Kruimelcampagne ');
  const campaign = await ok<{ _id: string }>(
    api.post('/api/campaigns', { data: { name: campaignName, start: '2031-01-01' } }),
  );
  const mailingName = unique('Kruimelmailing ');
  const mailing = await ok<{ _id: string }>(
    api.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: mailingName, plannedSend: '2031-06-04T10:00:00Z', addresses: 100 },
    }),
  );
  const selection = await ok<{ selectionId: string }>(
    api.post(`/api/campaigns/${campaign._id}/mailings/${mailing._id}/selections`, {
      data: { description: 'Kruimelselectie', query: { and: [] } },
    }),
  );
  const username = unique('kruimel');
  const user = await ok<{ _id: string }>(
    api.post('/api/users', { data: { name: 'Kruimel Gebruiker', username, password: 'Geheim123!' } }),
  );
  return {
    params: {
      partnerId,
      contactId: contact._id,
      datasetId: dataset._id,
      personId: person._id,
      type: 'commission',
      extraId: commission._id,
      mapping: 'geslacht',
      field: 'gender',
      campaignId: campaign._id,
      mailingId: mailing._id,
      campaign: campaign._id,
      mailing: mailing._id,
      selection: selection.selectionId,
      userId: user._id,
    },
    names: {
      partnerId: partnerName,
      contactId: 'Karel Kruimel',
      datasetId: datasetName,
      personId: 'Tessa Test',
      campaignId: campaignName,
      campaign: campaignName,
      mailingId: mailingName,
      mailing: mailingName,
      selection: 'Kruimelselectie',
      userId: username,
    },
  };
}

test('every route of the route table shows named crumbs that each open a screen', async ({ page }) => {
  test.setTimeout(600_000);
  await loginAsAdmin(page, '/');
  const world = await seed(page);
  const crumbs = page.getByRole('navigation', { name: 'Kruimelpad' });
  const hrefs = new Set<string>();

  for (const route of appRoutes) {
    // The line editor's types: one of them stands for all.
    const params = { ...world.params, ...(route.path.includes('add-line') ? { type: 'attribute' } : {}) };
    const path = generatePath(route.path, params);
    await page.goto(path);
    await expect(page.getByText(NOT_FOUND), path).toHaveCount(0);
    await expect(crumbs, path).toBeVisible();
    // The line editor without a builder context goes to the builder: no names to see there.
    if (!route.path.includes('add-line'))
      for (const name of paramNames(route.path))
        if (world.names[name]) await expect(crumbs, `${path}: ${name}`).toContainText(world.names[name]);
    await expect(crumbs, path).not.toHaveText(HEX_ID);
    for (const href of await crumbs
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '')))
      hrefs.add(href);
  }

  // Every crumb link opens a screen.
  expect(hrefs.size).toBeGreaterThan(20);
  for (const href of hrefs) {
    await page.goto(href);
    await expect(page.getByRole('navigation', { name: 'Hoofdmenu' }), href).toBeVisible();
    await expect(page.getByText(NOT_FOUND), href).toHaveCount(0);
  }

  // The partner and dataset crumbs, which led to the 404 page, open the partner's datasets and
  // the dataset's own screen.
  const { partnerId, datasetId } = world.params;
  await page.goto(`/partners/${partnerId}/datasets/${datasetId}/headers`);
  await crumbs.getByRole('link', { name: world.names.partnerId }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets$`));
  await page.goto(`/partners/${partnerId}/datasets/${datasetId}/testpersons`);
  await crumbs.getByRole('link', { name: world.names.datasetId }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets/${datasetId}/edit$`));
});
