import { expect, type Locator, type Page, test } from '@playwright/test';
import { partnerBlacklistTitle } from '../common/blacklists';
import { expectAlert } from './support/alerts';
import { loginAsAdmin, unique } from './support/session';

/** Drops a file on one upload form's drop zone. */
async function dropFile(form: Locator, name: string, content: string) {
  await form
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

async function blacklistLength(page: Page): Promise<number> {
  await page.goto('/blacklist');
  const text = await page.getByTestId('blacklist-length').filter({ hasNotText: '…' }).textContent();
  return Number((text ?? '').replace(/\./g, ''));
}

test('blacklists: upload e-mail addresses, domains and partner datasets, see the count change, delete a domain, open a partner blacklist', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAsAdmin(page, '/blacklist');
  await expect(page.getByRole('heading', { name: 'Blacklist' })).toBeVisible();
  const before = await blacklistLength(page);
  const tag = unique('e2e');

  // E-mail addresses: the link leads to the upload forms; a file without 'email' is refused at once.
  await page.getByRole('main').getByRole('link', { name: 'Blacklist uploaden' }).click();
  await expect(page.getByRole('heading', { name: 'Blacklist uploaden' })).toBeVisible();
  const emails = page.getByTestId('blacklist-upload-email');
  await dropFile(emails, 'fout.csv', 'adres\nx@y.nl\n');
  await expectAlert(
    page,
    'danger',
    'Ongeldig bestand',
    'Het bestand is fout of bevat geen kolom genaamd email',
  );
  await expect(emails.getByRole('button', { name: 'Uploaden' })).toBeDisabled();

  await dropFile(
    emails,
    'emails.csv',
    `naam;email\nAnna;Anna@${tag}.nl\nBob;bob@${tag}.nl\nNee;geen-adres\n`,
  );
  await expect(emails.getByTestId('chosen-file')).toContainText('emails.csv');
  await emails.getByRole('button', { name: 'Uploaden' }).click();
  await expectAlert(page, 'success', 'Upload begonnen');
  await expectAlert(page, 'success', 'Upload geslaagd');
  await expect(emails.getByTestId('result-read')).toHaveText('3');
  await expect(emails.getByTestId('result-saved')).toHaveText('2');
  await expect(emails.getByTestId('result-skipped')).toHaveText('1');
  expect(await blacklistLength(page)).toBe(before + 2);

  // Domains: a file without 'domein' is refused; a good one is listed, normalized.
  await page.goto('/blacklist/upload');
  const domains = page.getByTestId('blacklist-upload-domain');
  await dropFile(domains, 'fout.csv', 'domain\nx.nl\n');
  await expectAlert(
    page,
    'danger',
    'Ongeldig bestand',
    'Het bestand is fout of bevat geen kolom genaamd domein',
  );
  await dropFile(domains, 'domeinen.csv', `domein\n@Spam-${tag}.nl\nwww.rommel-${tag}.nl\na b\n`);
  await domains.getByRole('button', { name: 'Uploaden' }).click();
  await expectAlert(page, 'success', 'Upload geslaagd');
  await expect(domains.getByTestId('result-saved')).toHaveText('2');

  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Domein blacklist' })
    .click();
  await page.getByRole('textbox', { name: 'Zoeken' }).fill(tag);
  await expect(page.getByRole('cell', { name: `spam-${tag}.nl`, exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: `rommel-${tag}.nl`, exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Verwijder spam-${tag}.nl` }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await expectAlert(page, 'success', 'Domein verwijderd');
  await expect(page.getByRole('cell', { name: `spam-${tag}.nl`, exact: true })).toHaveCount(0);
  await expect(page.getByRole('cell', { name: `rommel-${tag}.nl`, exact: true })).toBeVisible();

  // Partner datasets: 'email' and 'bestand' are required; entries show on the partner's blacklist page.
  const partnerId = unique('Bl_');
  expect(
    (
      await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Blacklist BV' } })
    ).status(),
  ).toBe(200);
  expect(
    (await page.request.post(`/api/datasets/${partnerId}`, { data: { name: 'nieuwsbrief' } })).status(),
  ).toBe(200);
  await page.goto('/blacklist/upload');
  const partner = page.getByTestId('blacklist-upload-partner');
  await dropFile(partner, 'fout.csv', 'email,partner\nx@y.nl,p\n');
  await expectAlert(
    page,
    'danger',
    'Ongeldig bestand',
    'Het bestand is fout of bevat niet alle verplichte kolommen',
  );
  await dropFile(
    partner,
    'partner.csv',
    `email,partner,bestand\na@${tag}.nl,${partnerId},nieuwsbrief\nb@${tag}.nl,${partnerId},nieuwsbrief\nc@${tag}.nl,${partnerId},bestaat-niet\n`,
  );
  await partner.getByRole('button', { name: 'Uploaden' }).click();
  await expectAlert(page, 'success', 'Upload geslaagd');
  await expect(partner.getByTestId('result-saved')).toHaveText('2');
  await expect(partner.getByTestId('result-skipped')).toHaveText('1');

  await page.goto('/partners');
  await page.getByRole('textbox', { name: 'Zoeken' }).fill(partnerId);
  await page.getByRole('link', { name: `Blacklist van ${partnerId}` }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/blacklist$`));
  await expect(page.getByRole('heading', { name: partnerBlacklistTitle(partnerId) })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'nieuwsbrief' });
  await expect(row.getByRole('cell').nth(1)).toHaveText('2');
});
