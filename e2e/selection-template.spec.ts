import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { importCsv, ok, waitForTask } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// A predefined selection whose tree has a Bestandsmatch line counts the same when it
// is the template of a selection in another mailing; a template line without a file is named in
// the message with what to do.

/** Makes a predefined selection in a new mailing with one Bestandsmatch line (on the e-mail address), its file holding `emails` (none: no file). */
async function makeTemplate(
  request: APIRequestContext,
  campaignId: string,
  description: string,
  file: { name: string; emails?: string[] },
) {
  const mailing = await ok<{ _id: string; name: string }>(
    request.post(`/api/campaigns/${campaignId}/mailings`, {
      data: { name: unique('Bron '), plannedSend: '2031-03-05T10:00:00Z' },
    }),
  );
  const base = `/api/campaigns/${campaignId}/mailings/${mailing._id}/selections`;
  const query = { and: [{ intersect: { id: 'l1', name: file.name, fields: ['gen_id'] } }] };
  const { selectionId } = await ok<{ selectionId: string }>(
    request.post(base, { data: { description, query, useCampaignLabel: false } }),
  );
  if (file.emails) {
    const upload = await ok<{ task: { _id: string } }>(
      request.post(`${base}/${selectionId}/l1/csv`, {
        multipart: {
          mappings: JSON.stringify([{ type: 'base', field: 'mail', base: 'id', generated: 'gen_id' }]),
          file: {
            name: file.name,
            mimeType: 'text/csv',
            buffer: Buffer.from(['mail', ...file.emails].join('\n')),
          },
        },
      }),
    );
    await waitForTask(request, upload.task._id);
  }
  await ok(request.put(`${base}/${selectionId}`, { data: { preDefined: true } }));
  return { mailing, base, selectionId };
}

/**
 * Waits until the builder has counted the draft on screen (live, without a button) and stored
 * nothing: no selection exists before the first 'Maak aan'.
 */
async function countedLive(page: Page, campaignId: string, mailingId: string) {
  await expect(page.getByTestId('count-running')).toHaveCount(0, { timeout: 60_000 });
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${campaignId}/${mailingId}$`));
}

const NO_FILE =
  'Regel 1 (Bestandsmatch leeg.csv op E-mailadres) heeft geen bestand. Bewerk die regel, kies het .csv-bestand en sla de selectie opnieuw op.';

test('a template with a Bestandsmatch line counts the same in another mailing; one without its file is named', async ({
  page,
}) => {
  await loginAsAdmin(page, '/');
  const request = page.request;
  const domain = `${unique('tpl')}.nl`;
  const partnerId = unique('Tpl_');
  await ok(request.post('/api/crud-partner', { data: { id: partnerId, name: 'Sjabloon BV' } }));
  const datasetName = unique('sjabloon');
  await ok(request.post(`/api/datasets/${partnerId}`, { data: { name: datasetName } }));
  await importCsv(
    request,
    partnerId,
    datasetName,
    ['email', ...Array.from({ length: 8 }, (_, i) => `t${i}@${domain}`)].join('\n'),
  );
  const campaignName = unique('Campagne ');
  const campaign = await ok(request.post('/api/campaigns', { data: { name: campaignName } }));
  const target = await ok(
    request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: unique('Doel '), plannedSend: '2031-03-05T10:00:00Z', addresses: 100 },
    }),
  );

  // The template counts 3 of the file's 4 addresses (one is in no dataset).
  const description = unique('Klanten ');
  const template = await makeTemplate(request, campaign._id, description, {
    name: 'klanten.csv',
    emails: [`t1@${domain}`, `T2@${domain.toUpperCase()}`, `t5@${domain}`, `onbekend@${domain}`],
  });
  const run = await ok<{ task: { _id: string } }>(
    request.get(`${template.base}/${template.selectionId}/query`),
  );
  await waitForTask(request, run.task._id);
  const counted = await (await request.get(`/api/tasks/${run.task._id}`)).json();
  expect(counted.result.map((r: { total: number }) => r.total)).toEqual([3]);

  // Used as the template of a selection in another mailing: the same 3.
  await page.goto(`/selection-builder/${campaign._id}/${target._id}`);
  await page.getByRole('combobox', { name: 'Sjabloon' }).click();
  await page
    .getByRole('option', { name: `${campaignName} / ${template.mailing.name}: ${description}` })
    .click();
  await expect(page.getByTestId('query-line')).toHaveText('In bestand klanten.csv, op E-mailadres');
  await page.getByRole('switch', { name: 'Gebruik label van de campagne' }).click();
  // Counted live with the template's file before anything is stored; 'Maak aan' stores the
  // selection with that file and counts it.
  await countedLive(page, campaign._id, target._id);
  await expect(page.getByTestId('count-error')).toHaveCount(0);
  await expect(page.getByTestId('count-total')).toHaveText('3 adressen gevonden');
  await page.getByRole('button', { name: 'Maak aan' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Klaar');
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${campaign._id}/${target._id}/[^/?]+$`));
  await expect(page.getByTestId('count-error')).toHaveCount(0);
  await expect(page.getByTestId('count-total')).toHaveText('3 adressen gevonden');
  await expect(page.getByTestId('selected-total')).toHaveText('3');

  // A template whose line has no file: the count names the line and says what to do.
  const empty = unique('Leeg ');
  const withoutFile = await makeTemplate(request, campaign._id, empty, { name: 'leeg.csv' });
  await page.getByRole('button', { name: 'Nieuwe query' }).click();
  await page.getByRole('button', { name: 'Ja' }).click();
  await page.reload();
  await page.getByRole('combobox', { name: 'Sjabloon' }).click();
  await page.getByRole('option', { name: `${campaignName} / ${withoutFile.mailing.name}: ${empty}` }).click();
  await page.getByRole('switch', { name: 'Gebruik label van de campagne' }).click();
  // The live count names the line and says what to do.
  await countedLive(page, campaign._id, target._id);
  await expect(page.getByTestId('count-error')).toHaveText(NO_FILE);
  // Stored with 'Maak aan', it still cannot be counted: the save says it failed, and why.
  await page.getByRole('button', { name: 'Maak aan' }).click();
  await expect(page).toHaveURL(new RegExp(`/selection-builder/${campaign._id}/${target._id}/[^/?]+$`));
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'NOT_SAVED');
  await expect(page.getByTestId('count-error')).toHaveText(NO_FILE);
});
