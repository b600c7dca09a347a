import { expect, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

test('counts: per dataset by category, the blacklist toggle, the partner filter, the totals row and the unique row', async ({
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

  const answered = page.waitForResponse((r) => r.url().includes('/api/count?useBlacklist=false'));
  await page.getByRole('switch', { name: 'Gebruik blacklist?' }).click();
  await expect(rowOf(datasets[1]).getByRole('cell').last()).toHaveText('4');
  await expect(rowOf(datasets[0]).getByRole('cell').last()).toHaveText('3');

  // Beside the totals row, which adds the files up, the unique addresses over all files: the three
  // addresses both files hold count once there (other journeys' files share the database, so the
  // figures are the ones the screen was given, and at least those three fewer than the totals).
  const shown = (await (await answered).json()).unique;
  const uniqueRow = page.getByRole('row', { name: 'Unieke adressen' });
  await expect(uniqueRow.getByRole('cell')).toHaveText([
    'Unieke adressen',
    ...[shown.new, shown.notOpenedOrClicked, shown.opens, shown.clicks, shown.total].map((n: number) =>
      n.toLocaleString('nl-NL'),
    ),
  ]);
  const figure = async (row: string) =>
    Number(
      ((await page.getByRole('row', { name: row }).getByRole('cell').last().textContent()) ?? '').replace(
        /\./g,
        '',
      ),
    );
  expect(await figure('Unieke adressen')).toBeLessThanOrEqual((await figure('Totaal')) - 3);

  // One partner: only its file, and the totals row sums what is shown.
  await page.getByRole('combobox', { name: 'Partner' }).click();
  await page.getByRole('option', { name: partners[1] }).click();
  await expect(rowOf(datasets[0])).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'Totaal' }).getByRole('cell').last()).toHaveText('4');
  // The unique row counts over every file, so it shows only while all partners do.
  await expect(uniqueRow).toHaveCount(0);
});
