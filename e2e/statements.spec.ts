import fs from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { formatMonth } from '../common/statements';
import { pdfPages } from '../server/features/statements/statement.test-helpers';
import { currentMonth, defaultMonth } from '../web/features/statements/months';
import { expectAlert } from './support/alerts';
import { importCsv, ok, waitForTask } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// Afrekeningen (DESIGN §7 Commission): a partner's statement of a month, from its Aangeboden
// mailings' addresses at the commission valid on the planned send date; issued with the next
// number, then downloaded as PDF and CSV.

interface World {
  partnerId: string;
  paidId: string;
  /** The commission's range, start/end as its PUT route names it. */
  commissionRange: string;
  partnerName: string;
  campaignName: string;
  mailingName: string;
  paidName: string;
  unpaidName: string;
  sendDay: string;
}

/**
 * A partner at 21 % VAT with two datasets (one with a commission of € 312,50 per address over the
 * month, one without) and an Aangeboden mailing in `month` holding 4 addresses of the first and 1
 * of the second.
 */
async function seed(api: APIRequestContext, month: string): Promise<World> {
  const partnerId = unique('Afr_');
  const partnerName = unique('Afrekenpartner BV ');
  await ok(
    api.post('/api/crud-partner', {
      data: { id: partnerId, name: partnerName, vatPercentage: 21, vatCode: 'VH21' },
    }),
  );
  const [year, mon] = month.split('-').map(Number);
  const lastDay = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  const domain = `${unique('afr')}.nl`;
  const datasets: { id: string; name: string }[] = [];
  for (const [i, size] of [4, 1].entries()) {
    const name = unique(`afrbestand${i}`);
    const ds = await ok(api.post(`/api/datasets/${partnerId}`, { data: { name } }));
    datasets.push({ id: ds._id, name });
    const rows = Array.from({ length: size }, (_, k) => `d${i}n${k}@${domain}`);
    await importCsv(api, partnerId, name, ['email', ...rows].join('\n'));
  }
  await ok(
    api.post(`/api/datasets/${partnerId}/${datasets[0].id}/commission`, {
      data: { start: `${month}-01`, end: `${month}-${lastDay}`, amount: 312.5 },
    }),
  );
  const campaignName = unique('Afrekencampagne ');
  const campaign = await ok(
    api.post('/api/campaigns', { data: { name: campaignName, start: `${month}-01` } }),
  );
  const mailingName = unique('Afrekenmailing ');
  const mailingUrl = `/api/campaigns/${campaign._id}/mailings`;
  const plannedSend = `${month}-15T09:00:00Z`;
  const mailing = await ok(api.post(mailingUrl, { data: { name: mailingName, plannedSend, addresses: 5 } }));
  const selections = `${mailingUrl}/${mailing._id}/selections`;
  const { selectionId } = await ok<{ selectionId: string }>(
    api.post(selections, { data: { description: 'Afrekening', query: { and: [] } } }),
  );
  const run = await ok<{ task: { _id: string } }>(
    api.post(`${selections}/${selectionId}/query`, {
      data: {
        table: [
          { dataset: datasets[0].id, new: 4 },
          { dataset: datasets[1].id, new: 1 },
        ],
      },
    }),
  );
  await waitForTask(api, run.task._id);
  const stored = await ok<Record<string, unknown>>(api.get(`${mailingUrl}/${mailing._id}`));
  expect(stored.recordCount).toBe(5);
  await ok(
    api.put(`${mailingUrl}/${mailing._id}`, {
      data: { name: mailingName, state: 'offered', plannedSend, addresses: 5 },
    }),
  );
  return {
    partnerId,
    paidId: datasets[0].id,
    commissionRange: `${month}-01/${month}-${lastDay}`,
    partnerName,
    campaignName,
    mailingName,
    paidName: datasets[0].name,
    unpaidName: datasets[1].name,
    sendDay: `15-${month.slice(5, 7)}-${month.slice(0, 4)}`,
  };
}

/** The list's row of the partner's statement. */
const rowOf = (page: Page, w: World) =>
  page.getByRole('table', { name: 'Afrekeningen' }).getByRole('row').filter({ hasText: w.partnerName });

/** Saves a download started by clicking `link` and returns its bytes and file name. */
async function download(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), bytes: await fs.readFile((await file.path())!) };
}

test('Afrekeningen: the month of a partner, its lines and totals; issued with a number after a confirmation; PDF and CSV downloaded', async ({
  page,
}) => {
  const month = defaultMonth();
  await loginAsAdmin(page, '/');
  const w = await seed(page.request, month);

  // The sidebar opens the screen on the previous month; another month does not hold the statement.
  await page
    .getByRole('navigation', { name: 'Hoofdmenu' })
    .getByRole('link', { name: 'Afrekeningen' })
    .click();
  await expect(page).toHaveURL(/\/statements$/);
  const picker = page.getByRole('combobox', { name: 'Maand' });
  await expect(picker).toHaveValue(formatMonth(month));
  await expect(rowOf(page, w)).toBeVisible();
  await picker.click();
  await page.getByRole('option', { name: formatMonth(currentMonth()), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`month=${currentMonth()}`));
  // The picker shows the month (other journeys may have statements in it: the list need not be empty).
  await expect(picker).toHaveValue(formatMonth(currentMonth()));
  await expect(rowOf(page, w)).toHaveCount(0);
  await picker.click();
  await page.getByRole('option', { name: formatMonth(month), exact: true }).click();

  // The figure: 5 addresses, 4 paid at € 312,50, VAT 21 %.
  const row = rowOf(page, w);
  await expect(row).toContainText('Voorstel');
  const cells = row.getByRole('cell');
  await expect(cells.nth(2)).toHaveText('1');
  await expect(cells.nth(3)).toHaveText('5');
  await expect(cells.nth(4)).toHaveText('€ 1.250,00');
  await expect(cells.nth(5)).toHaveText('€ 262,50');
  await expect(cells.nth(6)).toHaveText('€ 1.512,50');
  await expect(row.getByLabel('Geen commissie geldig op de verzenddatum: 1')).toBeVisible();
  await expect(page.getByTestId('statement-totals')).toContainText('Totaal');

  // The statement: its lines per dataset, the one without a commission warned.
  await row.getByRole('button', { name: `Open ${w.partnerName}` }).click();
  const drawer = page.getByRole('dialog', { name: `Afrekening ${w.partnerName}, ${formatMonth(month)}` });
  await expect(drawer.getByTestId('statement-state')).toHaveText('Voorstel');
  await expect(drawer.getByRole('alert')).toContainText('1 regel heeft geen geldige commissie');
  const lines = drawer.getByRole('table', { name: 'Regels van de afrekening' });
  const paid = lines.getByRole('row').filter({ hasText: w.paidName });
  await expect(paid).toContainText(w.campaignName);
  await expect(paid).toContainText(w.mailingName);
  await expect(paid).toContainText(w.sendDay);
  await expect(paid.getByRole('cell').nth(4)).toHaveText('4');
  await expect(paid.getByRole('cell').nth(5)).toHaveText('€ 312,50');
  await expect(paid.getByRole('cell').nth(6)).toHaveText('€ 1.250,00');
  const unpaid = lines.getByRole('row').filter({ hasText: w.unpaidName });
  await expect(unpaid).toContainText('Geen commissie');
  await expect(unpaid.getByRole('cell').nth(6)).toHaveText('€ 0,00');
  await expect(drawer.getByTestId('statement-vat')).toHaveText('€ 262,50');
  await expect(drawer.getByTestId('statement-total')).toHaveText('€ 1.512,50');
  // The statement shows the partner's VAT code.
  await expect(drawer.getByText('VH21', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'PDF' })).toHaveCount(0);

  // Issuing asks first with partner, period and total; 'Nee' leaves it a proposal.
  await drawer.getByRole('button', { name: 'Uitreiken' }).click();
  const confirm = page.getByRole('dialog', { name: 'Afrekening uitreiken?' });
  await expect(confirm).toContainText(w.partnerName);
  await expect(confirm).toContainText(formatMonth(month));
  await expect(confirm).toContainText('€ 1.512,50');
  await expect(confirm).toContainText('het volgende nummer');
  await expect(confirm).toContainText('niet meer worden gewijzigd');
  await confirm.getByRole('button', { name: 'Nee' }).click();
  await expect(drawer.getByTestId('statement-state')).toHaveText('Voorstel');
  await drawer.getByRole('button', { name: 'Uitreiken' }).click();
  await page
    .getByRole('dialog', { name: 'Afrekening uitreiken?' })
    .getByRole('button', { name: 'Ja' })
    .click();
  const alert = page.getByRole('alert').filter({ hasText: /Afrekening AF-\d{6} uitgereikt/ });
  await expect(alert).toBeVisible();
  const number = /AF-\d{6}/.exec((await alert.textContent()) ?? '')?.[0] ?? '';
  await expectAlert(page, 'success', `Afrekening ${number} uitgereikt`);
  await expect(drawer.getByTestId('statement-state')).toHaveText(`Uitgereikt ${number}`);
  await expect(page).toHaveURL(/[?&]statement=\d+/);
  await expect(drawer.getByRole('button', { name: 'Uitreiken' })).toHaveCount(0);

  // The PDF and the CSV for bookkeeping arrive; the CSV holds the lines, the VAT and the total.
  const pdf = await download(page, () => drawer.getByRole('link', { name: 'PDF' }).click());
  expect(pdf.name).toBe(`afrekening-${number}.pdf`);
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const csv = await download(page, () => drawer.getByRole('link', { name: `CSV van ${number}` }).click());
  expect(csv.name).toBe(`afrekening-${number}.csv`);
  const rows = csv.bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter(Boolean);
  expect(rows[0]).toContain('Nummer,Datum,Periode');
  const body = rows.slice(1);
  expect(body).toHaveLength(4);
  for (const r of body) expect(r.startsWith(`${number},`)).toBe(true);
  expect(body.find((r) => r.includes(w.paidName))).toMatch(/,4,312\.5(000)?,1250\.00$/);
  expect(body.find((r) => r.includes(w.unpaidName))).toMatch(/,1,,0\.00$/);
  expect(body.at(-2)).toMatch(/,Btw,.*,262\.50$/);
  expect(body.at(-1)).toMatch(/,Totaal,.*,1512\.50$/);

  // Back on the list the statement is issued, with its number.
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(rowOf(page, w)).toContainText(`Uitgereikt ${number}`);
  await page.reload();
  await expect(rowOf(page, w)).toContainText(`Uitgereikt ${number}`);

  // A later change of the commission leaves the issued statement as it was, and shows the
  // difference as a correction on the next month's statement.
  const [, end] = w.commissionRange.split('/');
  await ok(
    page.request.put(`/api/datasets/${w.partnerId}/${w.paidId}/commission/${w.commissionRange}`, {
      data: { end, amount: 300 },
    }),
  );
  await page.reload();
  await expect(rowOf(page, w).getByRole('cell').nth(6)).toHaveText('€ 1.512,50');
  await picker.click();
  await page.getByRole('option', { name: formatMonth(currentMonth()), exact: true }).click();
  const next = rowOf(page, w);
  await expect(next).toContainText('Voorstel');
  await expect(next).toContainText('Correctie');
  await expect(next.getByRole('cell').nth(4)).toHaveText('€ -50,00');
  await next.getByRole('button', { name: `Open ${w.partnerName}` }).click();
  const nextDrawer = page.getByRole('dialog', {
    name: `Afrekening ${w.partnerName}, ${formatMonth(currentMonth())}`,
  });
  const correction = nextDrawer.locator('tr[data-kind="correction"]');
  await expect(correction).toHaveCount(1);
  await expect(correction).toContainText(`Correctie op ${formatMonth(month)}`);
  await expect(correction).toContainText(w.mailingName);
  await expect(correction.getByRole('cell').nth(6)).toHaveText('€ -50,00');
  await expect(nextDrawer.getByTestId('statement-total')).toHaveText('€ -60,50');
});

test("issuing a statement issued meanwhile on another screen shows the server's message, and the list then shows it issued", async ({
  page,
}) => {
  const month = defaultMonth();
  await loginAsAdmin(page, '/');
  const w = await seed(page.request, month);
  await page.goto(`/statements?month=${month}`);
  await rowOf(page, w)
    .getByRole('button', { name: `Open ${w.partnerName}` })
    .click();
  const drawer = page.getByRole('dialog', { name: `Afrekening ${w.partnerName}, ${formatMonth(month)}` });
  await expect(drawer.getByTestId('statement-total')).toHaveText('€ 1.512,50');
  const issued = await ok<{ number: string }>(
    page.request.post('/api/statements', { data: { month, partner: w.partnerId } }),
  );
  await drawer.getByRole('button', { name: 'Uitreiken' }).click();
  await page
    .getByRole('dialog', { name: 'Afrekening uitreiken?' })
    .getByRole('button', { name: 'Ja' })
    .click();
  await expectAlert(
    page,
    'danger',
    'Afrekening kon niet worden uitgereikt',
    `Deze afrekening is al uitgereikt als ${issued.number}`,
  );
  await page.keyboard.press('Escape');
  await expect(rowOf(page, w)).toContainText(`Uitgereikt ${issued.number}`);
});

test('a statement the server cannot find shows its Dutch message; a month without statements says so', async ({
  page,
}) => {
  await loginAsAdmin(page, '/statements?month=1990-01');
  await expect(page.getByText('Geen afrekeningen over januari 1990')).toBeVisible();
  await page.goto(`/statements?month=1990-01&partner=${unique('Onbekend_')}`);
  await expectAlert(
    page,
    'danger',
    'Afrekeningen konden niet worden opgehaald',
    'Deze afrekening kon niet worden gevonden',
  );
  await expect(page.getByRole('dialog', { name: 'Afrekening' })).toContainText(
    'Deze afrekening kon niet worden gevonden',
  );
});

test("the issuer's details: a warning until an administrator sets them; an issued statement keeps them in its PDF", async ({
  page,
}) => {
  const month = defaultMonth();
  await loginAsAdmin(page, '/');
  await ok(page.request.put('/api/settings/issuer', { data: {} }));
  const w = await seed(page.request, month);
  await page.goto(`/statements?month=${month}`);
  const warning = page.getByTestId('issuer-missing');
  await expect(warning).toContainText('Vul de gegevens van de afnemer in bij Instellingen');
  await warning.getByRole('link', { name: 'Naar Instellingen' }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const card = page.getByRole('region', { name: 'Gegevens afnemer (afrekeningen)' });
  await card.getByLabel('Naam', { exact: true }).fill('E2E Makelaar BV');
  await card.getByLabel('Adres', { exact: true }).fill('Keizersgracht 1');
  await card.getByLabel('Postcode', { exact: true }).fill('1015 CJ');
  await card.getByLabel('Plaats', { exact: true }).fill('Amsterdam');
  await card.getByRole('combobox', { name: 'Land' }).fill('Nederl');
  await page.getByRole('option', { name: 'Nederland', exact: true }).click();
  await card.getByLabel('Btw-nummer', { exact: true }).fill('nl 1234.56.789.b01');
  await card.getByLabel('KvK-nummer', { exact: true }).fill('1234567');
  const save = card.getByRole('button', { name: 'Sla gegevens afnemer op' });
  await save.click();
  await expectAlert(page, 'danger', 'Opslaan mislukt', 'Het KvK-nummer bestaat uit 8 cijfers');
  await card.getByLabel('KvK-nummer', { exact: true }).fill('12345678');
  await save.click();
  await expectAlert(page, 'success', 'Opgeslagen', 'De gegevens van de afnemer zijn opgeslagen.');
  await expect(card.getByLabel('Btw-nummer', { exact: true })).toHaveValue('NL123456789B01');

  // The statements screen no longer warns; the statement shows its issuer, issued and in its PDF.
  await page.goto(`/statements?month=${month}`);
  await rowOf(page, w)
    .getByRole('button', { name: `Open ${w.partnerName}` })
    .click();
  await expect(page.getByTestId('issuer-missing')).toHaveCount(0);
  const drawer = page.getByRole('dialog', { name: `Afrekening ${w.partnerName}, ${formatMonth(month)}` });
  const issuer = drawer.getByTestId('statement-issuer');
  await expect(issuer).toContainText('E2E Makelaar BV, Keizersgracht 1, 1015 CJ Amsterdam, Nederland');
  await expect(issuer).toContainText('Btw-nummer: NL123456789B01, KvK-nummer: 12345678');
  await drawer.getByRole('button', { name: 'Uitreiken' }).click();
  await page
    .getByRole('dialog', { name: 'Afrekening uitreiken?' })
    .getByRole('button', { name: 'Ja' })
    .click();
  await expect(drawer.getByTestId('statement-state')).toHaveText(/^Uitgereikt AF-\d{6}$/);
  const pdfText = async () =>
    (
      await pdfPages((await download(page, () => drawer.getByRole('link', { name: 'PDF' }).click())).bytes)
    ).join('\n');
  const issued = await pdfText();
  for (const words of [
    'E2E Makelaar BV',
    'Keizersgracht 1',
    'Btw-nummer: NL123456789B01',
    'KvK-nummer: 12345678',
  ])
    expect(issued).toContain(words);

  // A later change of the settings leaves the issued statement and its PDF as they were.
  await ok(
    page.request.put('/api/settings/issuer', {
      data: { name: 'Later BV', address: 'Laan 2', cocNumber: '87654321' },
    }),
  );
  await page.reload();
  await expect(drawer.getByTestId('statement-issuer')).toContainText('E2E Makelaar BV');
  expect(await pdfText()).toBe(issued);
});
