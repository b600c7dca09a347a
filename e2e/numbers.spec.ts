import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

// Whole-number fields read Dutch thousands separators and refuse decimals and
// negatives with a message; nothing is changed silently.

const SORT_RULE = 'De sortering moet een geheel getal van 0 of hoger zijn';
const ADDRESSES_RULE = 'Het aantal adressen moet een geheel getal van 0 of meer zijn';

test("dataset Sortering: '1,5' and '-3' are refused with the rule, '1.000' is saved as 1000", async ({
  page,
}) => {
  await loginAsAdmin(page, '/partners');
  const partnerId = unique('PN_');
  await page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Getallen BV' } });
  const name = unique('Getal');
  await page.goto(`/partners/${partnerId}/datasets/new`);
  await page.getByRole('textbox', { name: 'Naam', exact: true }).fill(name);
  const sort = page.getByLabel('Sortering');
  for (const typed of ['1,5', '-3']) {
    await sort.fill(typed);
    await page.getByRole('button', { name: 'Opslaan' }).click();
    await expect(page.locator('form')).toContainText(SORT_RULE);
    await expect(sort).toHaveValue(typed);
    await expect(page).toHaveURL(/\/datasets\/new$/);
  }
  await sort.fill('1.000');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page).toHaveURL(new RegExp(`/partners/${partnerId}/datasets$`));
  const list = (await (await page.request.get(`/api/datasets/${partnerId}`)).json()) as
    | { name: string; sort: number }[]
    | { items: { name: string; sort: number }[] };
  const rows = Array.isArray(list) ? list : list.items;
  expect(rows.find((d) => d.name === name)?.sort).toBe(1000);
});

test("campaign Aantal adressen: '12.500' as the list shows it is saved; '1,5' is refused", async ({
  page,
}) => {
  await loginAsAdmin(page, '/campaigns/new');
  const name = unique('Getallen ');
  await page.getByLabel('Naam').fill(name);
  await page.getByLabel('Aantal adressen').fill('1,5');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.locator('form')).toContainText(ADDRESSES_RULE);
  await expect(page).toHaveURL(/\/campaigns\/new$/);

  await page.getByLabel('Aantal adressen').fill('12.500');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}\/mailings$/);
  const id = /\/campaigns\/([0-9a-f]{24})\/mailings$/.exec(page.url())![1];
  expect((await (await page.request.get(`/api/campaigns/${id}`)).json()).addresses).toBe(12_500);
});
