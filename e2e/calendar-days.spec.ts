import { expect, type Page, test } from '@playwright/test';
import { ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// DESIGN §7: a date picked in a browser outside Amsterdam's zone is the date picked: 02-12-2026
// stays 02-12-2026 after saving and reloading, for a planned send, a campaign start and a
// commission range (docs/decisions.md#dates).

/** Types a DD-MM-YYYY date into a date field and closes its calendar. */
async function typeDate(page: Page, label: string, value: string) {
  await page.getByRole('textbox', { name: label }).fill(value);
  await page.keyboard.press('Escape');
}

for (const timezoneId of ['UTC', 'America/New_York']) {
  test.describe(`a browser in ${timezoneId}`, () => {
    test.use({ timezoneId });

    test('keeps 02-12-2026 for a campaign start, a planned send and a commission range', async ({ page }) => {
      await loginAsAdmin(page, '/campaigns/new');
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timezoneId);

      // A campaign start.
      const campaignName = unique('Datum ');
      await page.getByLabel('Naam').fill(campaignName);
      await typeDate(page, 'Start', '02-12-2026');
      await page.getByRole('button', { name: 'Opslaan' }).click();
      await expect(page).toHaveURL(/\/campaigns\/[0-9a-f]{24}\/mailings$/);
      const campaignId = /\/campaigns\/([0-9a-f]{24})\/mailings$/.exec(page.url())![1];
      expect((await ok<{ start: string }>(page.request.get(`/api/campaigns/${campaignId}`))).start).toBe(
        '2026-12-02',
      );
      await page.goto(`/campaigns/${campaignId}/edit`);
      await expect(page.getByLabel('Start')).toHaveValue('02-12-2026');

      // A planned send: stored as midnight in Amsterdam, shown as the day picked.
      const mailingName = unique('Verzending ');
      await page.goto(`/campaigns/${campaignId}/mailings/new`);
      await page.getByLabel('Naam').fill(mailingName);
      await typeDate(page, 'Verzenddatum', '02-12-2026');
      await page.getByRole('button', { name: 'Opslaan' }).click();
      await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/mailings$`));
      const row = page.getByRole('row').filter({ hasText: mailingName });
      await expect(row).toContainText('02-12-2026');
      const [mailing] = await ok<{ _id: string; plannedSend: string }[]>(
        page.request.get(`/api/campaigns/${campaignId}/mailings`),
      );
      expect(mailing.plannedSend).toBe('2026-12-01T23:00:00.000Z');
      await page.goto(`/campaigns/${campaignId}/mailings/${mailing._id}/edit`);
      await expect(page.getByLabel('Verzenddatum')).toHaveValue('02-12-2026');
      await page.reload();
      await expect(page.getByLabel('Verzenddatum')).toHaveValue('02-12-2026');
      // Saved again without a change of day, it keeps its instant.
      await page.getByRole('button', { name: 'Opslaan' }).click();
      await expect(page).toHaveURL(new RegExp(`/campaigns/${campaignId}/mailings$`));
      await expect(page.getByRole('row').filter({ hasText: mailingName })).toContainText('02-12-2026');
      const [again] = await ok<{ plannedSend: string }[]>(
        page.request.get(`/api/campaigns/${campaignId}/mailings`),
      );
      expect(again.plannedSend).toBe('2026-12-01T23:00:00.000Z');

      // A commission range.
      const partnerId = unique('D_');
      await ok(page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Datum BV' } }));
      const dataset = await ok(
        page.request.post(`/api/datasets/${partnerId}`, { data: { name: unique('datum') } }),
      );
      const ratesUrl = `/partners/${partnerId}/datasets/${dataset._id}/commission`;
      await page.goto(ratesUrl);
      await page.getByRole('link', { name: 'Nieuwe commissie' }).click();
      await typeDate(page, 'Startdatum', '02-12-2026');
      await typeDate(page, 'Einddatum', '31-12-2026');
      await page.getByRole('textbox', { name: 'Bedrag' }).fill('0,05');
      await page.getByRole('button', { name: 'Opslaan' }).click();
      await expect(page).toHaveURL(new RegExp(`${ratesUrl}$`));
      await page.reload();
      const rate = page.getByRole('row').filter({ hasText: '0,05 commissie' });
      await expect(rate).toContainText('02-12-2026');
      await expect(rate).toContainText('31-12-2026');
      const stored = await ok<{ commission: { start: string; end: string }[] }>(
        page.request.get(`/api/datasets/${partnerId}/${dataset._id}`),
      );
      expect(stored.commission).toMatchObject([{ start: '2026-12-02', end: '2026-12-31' }]);
    });
  });
}
