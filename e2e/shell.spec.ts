import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

// spec 001 §2 Shell: the 404 page, the sidebar, breadcrumbs, versions, connector status, logo.

test('an unknown path shows the 404 page', async ({ page }) => {
  await loginAsAdmin(page, `/bestaat/${unique('niet')}`);
  await expect(page.getByText('Deze pagina kon niet worden gevonden')).toBeVisible();
  await expect(page.getByText(/neem contact op met de ontwikkelaars/)).toBeVisible();
});

// spec 001 §2 Shell: the sidebar's sections and links, in order (the sidebar is made from the route
// table, web/routes.tsx; this is the spec's list, written out apart from it).
const NAV_SECTIONS: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: 'Partners',
    links: [
      { to: '/partners', label: 'Partners' },
      { to: '/partners/new', label: 'Nieuwe partner' },
      { to: '/types', label: 'Labels' },
      { to: '/valuemapped', label: 'Waardemappings' },
      { to: '/statements', label: 'Afrekeningen' },
    ],
  },
  {
    title: 'Campagnes',
    links: [
      { to: '/campaigns', label: 'Campagnes' },
      { to: '/selection-builder', label: 'Doelgroep selecteren' },
      { to: '/counts', label: 'Tellingen' },
      { to: '/interest-types', label: 'Interesse types' },
      { to: '/tasks', label: 'Taken' },
      { to: '/csv-columns', label: 'Export kolommen' },
      { to: '/pressure', label: 'Maildruk' },
      { to: '/reports', label: 'Rapportages' },
      { to: '/settings', label: 'Instellingen' },
    ],
  },
  {
    title: 'Gebruikers',
    links: [
      { to: '/users', label: 'Gebruikers' },
      { to: '/audit-log', label: 'Auditlog' },
    ],
  },
  {
    title: 'Upload CSV',
    links: [
      { to: '/upload', label: 'Upload CSV' },
      { to: '/deleteall', label: 'Verwijder uit bestand' },
      { to: '/blacklist/upload', label: 'Blacklist uploaden' },
      { to: '/blacklist', label: 'Blacklist' },
      { to: '/blacklist/domain', label: 'Domein blacklist' },
      { to: '/dns-check', label: 'DNS Check' },
      { to: '/avg', label: 'AVG-verzoeken' },
    ],
  },
  {
    title: 'Verrijking',
    links: [
      { to: '/enrichment/upload', label: 'Verrijkingsbestand uploaden' },
      { to: '/enrichment', label: 'Verrijkingsbestanden' },
    ],
  },
];

test('the sidebar has every section and link of the menu', async ({ page }) => {
  await loginAsAdmin(page, '/users');
  const menu = page.getByRole('navigation', { name: 'Hoofdmenu' });
  const sections = menu.locator(':scope > div');
  await expect(sections).toHaveCount(NAV_SECTIONS.length);
  for (const [i, section] of NAV_SECTIONS.entries()) {
    const block = sections.nth(i);
    // The section title is the block's first line; a link may carry the same word.
    await expect(block.getByText(section.title, { exact: true }).first()).toBeVisible();
    await expect(block.getByRole('link')).toHaveCount(section.links.length);
    for (const link of section.links) {
      const anchor = block.getByRole('link', { name: link.label, exact: true });
      await expect(anchor).toBeVisible();
      await expect(anchor).toHaveAttribute('href', link.to);
    }
  }
  // A link navigates.
  await menu.getByRole('link', { name: 'Taken', exact: true }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  await expect(page.getByRole('heading', { name: 'Taken' })).toBeVisible();
});

test('breadcrumbs show the trail and link back', async ({ page }) => {
  await loginAsAdmin(page, '/users/new');
  const crumbs = page.getByRole('navigation', { name: 'Kruimelpad' });
  await expect(crumbs).toHaveText(/^Gebruikers\s*\/\s*Nieuwe gebruiker$/);
  await crumbs.getByRole('link', { name: 'Gebruikers' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(crumbs).toHaveText('Gebruikers');
});

test('the sidebar shows the versions and an idle connector', async ({ page }) => {
  await loginAsAdmin(page, '/users');
  const versions = page.getByTestId('version-info');
  await expect(versions).toContainText('Website: 1.5.0');
  await expect(versions).toContainText('API: 1.5.0');
  // The task journeys may keep the connector busy for a moment; it returns to idle by itself.
  await expect(page.getByTestId('connector-status')).toHaveAttribute('data-status', 'idle', {
    timeout: 30_000,
  });
});

test('the logo links to the start page, which is /partners', async ({ page }) => {
  await loginAsAdmin(page, '/users');
  await page.getByRole('link', { name: 'Lijstwerk home' }).click();
  await expect(page).toHaveURL(/\/partners$/);
});

test('the shell injects the custom stylesheet and removes it on logout', async ({ page }) => {
  await loginAsAdmin(page, '/users');
  const link = page.locator('link[data-custom-stylesheet]');
  await expect(link).toHaveCount(1);
  await expect(link).toHaveAttribute('href', 'http://127.0.0.1:9/lijstwerk-e2e.css');
  await page.getByRole('button', { name: /^Log uit/ }).click();
  await expect(page.getByRole('heading', { name: 'Inloggen' })).toBeVisible();
  await expect(link).toHaveCount(0);
});

test('a screen shows a spinner while its chunk loads, and a reload button when it fails', async ({
  page,
}) => {
  await loginAsAdmin(page, '/tasks');
  // Hold the partner list's chunk until the spinner has been seen, then let it through.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/partner-list-*.js', async (route) => {
    await released;
    await route.continue();
  });
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Partners', exact: true })
    .click();
  await expect(page.getByTestId('screen-loader')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Partners' })).toBeVisible();
  await expect(page.getByTestId('screen-loader')).toHaveCount(0);
  await page.unrouteAll();

  // A chunk that is gone (a new deploy) shows the Dutch message instead of a blank page.
  await page.route('**/assets/label-list-*.js', (route) => route.abort());
  await page.goto('/types');
  await expect(page.getByText('Dit scherm kon niet worden geladen')).toBeVisible();
  // Another screen still opens, and the reload button loads the screen once the chunk is back.
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Taken', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Taken' })).toBeVisible();
  await page.goBack();
  await expect(page.getByText('Dit scherm kon niet worden geladen')).toBeVisible();
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Pagina opnieuw laden' }).click();
  await expect(page.getByRole('heading', { name: 'Labels' })).toBeVisible();
});
