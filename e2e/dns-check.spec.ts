import { expect, type Page, test } from '@playwright/test';
import { expectAlert } from './support/alerts';
import { loginAsAdmin, unique } from './support/session';

// The e2e server's DNS server (server/test/dns-server.ts) answers by a name's first label:
// mx-* has MX, a-* only an A record, nodata-* nothing, servfail-* SERVFAIL, anything else does not
// exist; POST /api/e2e/dns-mode turns it into a resolver that is down (e2e/support/dns-mode.ts).

/** Uploads `emails` into a new dataset of a new partner and waits until the import is done. */
async function uploadAddresses(page: Page, emails: string[]): Promise<void> {
  const partnerId = unique('Dns_');
  expect(
    (await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'DNS BV' } })).status(),
  ).toBe(200);
  expect(
    (await page.request.post(`/api/datasets/${partnerId}`, { data: { name: 'adressen' } })).status(),
  ).toBe(200);
  const upload = await page.request.post(`/api/import/${partnerId}/adressen`, {
    multipart: {
      file: {
        name: 'adressen.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(['email', ...emails].join('\n')),
      },
    },
  });
  expect(upload.status()).toBe(200);
  const taskId = (await upload.json()).task._id as string;
  await expect
    .poll(async () => (await (await page.request.get(`/api/tasks/${taskId}`)).json()).state)
    .toBe('done');
}

test('DNS check: start, see each result, keep it after a reload, add a selection to the blacklist after a confirmation', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/dns-check');
  const tag = unique('d');
  const domains = {
    ok: `mx-${tag}.test`,
    implicit: `a-${tag}.test`,
    noMx: `nodata-${tag}.test`,
    gone: `${tag}.test`,
    failing: `servfail-${tag}.test`,
  };

  // Addresses at those domains come in by an upload into a dataset.
  await uploadAddresses(page, [
    `a@${domains.ok}`,
    `b@${domains.ok}`,
    `c@${domains.implicit}`,
    `d@${domains.noMx}`,
    `f@${domains.noMx}`,
    `e@${domains.gone}`,
    `g@${domains.failing}`,
  ]);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'DNS Check' })).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
  const row = (domain: string) => page.getByTestId(`dns-row-${domain}`);
  await expect(row(domains.noMx)).toBeVisible();
  await expect(row(domains.ok)).toContainText('Gevonden');
  await expect(row(domains.ok)).toContainText('2');
  await expect(row(domains.implicit)).toContainText('Gevonden');
  await expect(row(domains.noMx)).toContainText('Geen MX');
  await expect(row(domains.gone)).toContainText('Niet gevonden');
  // A failed lookup says so, in Dutch, and is no reason to blacklist the domain.
  await expect(page.getByRole('columnheader', { name: 'Foutmelding' })).toBeVisible();
  await expect(row(domains.failing)).toContainText('Opzoeken mislukt');
  await expect(row(domains.failing)).toContainText('De DNS-server gaf een fout (SERVFAIL)');
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.failing}` })).not.toBeChecked();
  // One failure among working lookups: the resolver works, no warning.
  await expect(page.getByText('DNS-server werkt waarschijnlijk niet')).toHaveCount(0);

  // Geen MX and Niet gevonden are preselected; Gevonden is not.
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.gone}` })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.ok}` })).not.toBeChecked();

  // Select-all selects every row and clears it again; the button needs a selection.
  await page.getByRole('checkbox', { name: 'Alles selecteren' }).check();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.ok}` })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Alles selecteren' }).uncheck();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` })).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Voeg toe aan blacklist' })).toBeDisabled();

  // The result stays after a reload, preselection and all. Adding asks first, naming how many
  // domains and addresses it hits; 'Nee' adds nothing, 'Ja' blacklists the selected domains.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Alles selecteren' }).check();
  await page.getByRole('checkbox', { name: 'Alles selecteren' }).uncheck();
  await page.getByRole('checkbox', { name: `Selecteer ${domains.noMx}` }).check();
  await page.getByRole('button', { name: 'Voeg toe aan blacklist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Toevoegen aan blacklist?' });
  await expect(dialog).toContainText(
    'Weet je zeker dat je 1 domein met samen 2 adressen aan de blacklist wilt toevoegen?',
  );
  await dialog.getByRole('button', { name: 'Nee' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row(domains.noMx)).not.toContainText('Op blacklist');
  await page.getByRole('button', { name: 'Voeg toe aan blacklist' }).click();
  await dialog.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Toegevoegd aan blacklist');
  await expect(row(domains.noMx)).toContainText('Op blacklist');
  await expect(row(domains.gone)).not.toContainText('Op blacklist');

  await page.goto('/blacklist/domain');
  await page.getByRole('textbox', { name: 'Zoeken' }).fill(tag);
  await expect(page.getByRole('cell', { name: domains.noMx, exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: domains.gone, exact: true })).toHaveCount(0);
});

test('DNS check with a resolver that is down: every lookup failed, nothing preselected, a warning', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/dns-check');
  const tag = unique('dood');
  // With a working resolver mx-* is found and the other does not exist.
  const domains = { ok: `mx-${tag}.test`, gone: `${tag}.test` };
  await uploadAddresses(page, [`a@${domains.ok}`, `b@${domains.gone}`]);

  // A resolver cut off from the internet says NXDOMAIN to everything (gmail.com included).
  const setMode = async (mode: string) =>
    expect((await page.request.post('/api/e2e/dns-mode', { data: { mode } })).status()).toBe(200);
  await setMode('nxdomain');
  try {
    await page.reload();
    await page.getByRole('button', { name: 'Start' }).click();
    const row = (domain: string) => page.getByTestId(`dns-row-${domain}`);
    await expect(row(domains.gone)).toBeVisible();
    for (const domain of [domains.ok, domains.gone]) {
      await expect(row(domain)).toContainText('Opzoeken mislukt');
      await expect(row(domain)).toContainText('Niet opgezocht: de DNS-server werkt niet');
      await expect(page.getByRole('checkbox', { name: `Selecteer ${domain}` })).not.toBeChecked();
    }
    await expect(row(domains.gone)).not.toContainText('Niet gevonden');
    const warning = page.getByRole('alert').filter({ hasText: 'DNS-server werkt waarschijnlijk niet' });
    await expect(warning).toContainText('opzoekingen zijn mislukt');
    await expect(page.getByText('0 geselecteerd')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Voeg toe aan blacklist' })).toBeDisabled();
  } finally {
    await setMode('working');
  }

  // The resolver back: the same check finds the one and not the other, and the warning is gone.
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId(`dns-row-${domains.ok}`)).toContainText('Gevonden');
  await expect(page.getByTestId(`dns-row-${domains.gone}`)).toContainText('Niet gevonden');
  await expect(page.getByText('DNS-server werkt waarschijnlijk niet')).toHaveCount(0);
});
