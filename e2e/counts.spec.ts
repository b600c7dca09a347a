import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

test('counts: per dataset by category, the blacklist toggle, the partner filter and the totals row', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  // Two partners, one dataset each, imported through the API; one domain blacklisted.
  const domain = `${unique('tel')}.nl`;
  const partners = [unique('telp_'), unique('telq_')];
  const datasets: string[] = [];
  for (const [i, partner] of partners.entries()) {
    expect(
      (await page.request.post('/api/crud-partner', { data: { id: partner, name: partner } })).status(),
    ).toBe(200);
    const name = unique('telling');
    const ds = await page.request.post(`/api/datasets/${partner}`, {
      data: { name, emailColumnName: 'email' },
    });
    expect(ds.status(), await ds.text()).toBe(200);
    datasets.push(name);
    const rows = Array.from({ length: 3 + i }, (_, k) => `x${k}@${k === 0 ? domain : 'voorbeeld.nl'}`);
    const upload = await page.request.post(`/api/import/${partner}/${name}`, {
      multipart: {
        file: { name: 'a.csv', mimeType: 'text/csv', buffer: Buffer.from(`email\n${rows.join('\n')}\n`) },
      },
    });
    expect(upload.status(), await upload.text()).toBe(200);
    const taskId = (await upload.json()).task._id;
    await expect
      .poll(async () => (await (await page.request.get(`/api/tasks/${taskId}`)).json()).state, {
        timeout: 60_000,
      })
      .toBe('done');
  }
  expect((await page.request.post('/api/blacklist/domains', { data: { domains: [domain] } })).status()).toBe(
    200,
  );

  await page.goto('/counts');
  await expect(page.getByRole('heading', { name: 'Bestandsaantallen' })).toBeVisible();
  const rowOf = (name: string) => page.getByRole('row').filter({ hasText: name });
  // With the blacklist (the default) each file loses its address in the blacklisted domain.
  await expect(rowOf(datasets[0])).toContainText('2');
  await expect(rowOf(datasets[1]).getByRole('cell').last()).toHaveText('3');

  await page.getByRole('switch', { name: 'Gebruik blacklist?' }).click();
  await expect(rowOf(datasets[1]).getByRole('cell').last()).toHaveText('4');
  await expect(rowOf(datasets[0]).getByRole('cell').last()).toHaveText('3');

  // One partner: only its file, and the totals row sums what is shown.
  await page.getByRole('combobox', { name: 'Partner' }).click();
  await page.getByRole('option', { name: partners[1] }).click();
  await expect(rowOf(datasets[0])).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'Totaal' }).getByRole('cell').last()).toHaveText('4');
});
