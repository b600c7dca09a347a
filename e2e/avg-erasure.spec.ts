import { expect, test } from '@playwright/test';
import { AvgErasureMessages as M } from '../common/avg-erasure';
import { displayDay } from '../common/calendar-day';
import { expectAlert } from './support/alerts';
import { importCsv, ok, waitForTask } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// The AVG art. 17 erasure as staff do it on 'AVG-verzoeken': one address erased after a
// confirmation that lists what goes, the look-up that then says so, an upload that skips the
// address as 'AVG-verwijderd', and a file of addresses erased as a task with its counts.

test('AVG-verzoeken: an address is erased after its confirmation, kept out of the next upload, and a file of addresses is erased', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const tag = unique('wis');
  const email = `jan.${tag}@voorbeeld.nl`;
  const other = `piet.${tag}@voorbeeld.nl`;
  await loginAsAdmin(page, '/');
  const partner = `p_${tag}`;
  await ok(page.request.post('/api/crud-partner', { data: { id: partner, name: `Partner ${tag}` } }));
  const dataset = `bestand${tag}`;
  const { _id: datasetId } = await ok(
    page.request.post(`/api/datasets/${partner}`, { data: { name: dataset, emailColumnName: 'email' } }),
  );
  await importCsv(page.request, partner, dataset, `email\n${email}\n${other}\n`);
  // A draft mailing holds the address: its place there goes with it.
  const campaign = await ok(page.request.post('/api/campaigns', { data: { name: `Campagne ${tag}` } }));
  const mailing = await ok(
    page.request.post(`/api/campaigns/${campaign._id}/mailings`, {
      data: { name: `Verzending ${tag}`, plannedSend: '2030-03-01T09:00:00Z' },
    }),
  );
  await ok(page.request.post(`/api/e2e/mailings/${mailing._id}/allocate`, { data: { emails: [email] } }));
  // The address is a test person of the dataset too: staff entered it, it goes with the rest.
  await ok(
    page.request.post(`/api/datasets/${partner}/${datasetId}/testpersons`, {
      data: { firstName: 'Jan', preposition: '', lastName: 'Test', gender: 'M', email },
    }),
  );

  // Look up, 'Verwijderen': the confirmation lists what goes, from the look-up on screen.
  await page.getByRole('link', { name: 'AVG-verzoeken' }).click();
  await page.getByLabel('E-mailadres').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByRole('cell', { name: dataset, exact: true })).toBeVisible();
  await page.getByRole('button', { name: M.erase, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: M.confirmTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(M.confirmIntro(email))).toBeVisible();
  await expect(dialog.getByTestId('avg-erasure-items').getByRole('listitem')).toHaveText([
    M.confirmRecords(1, 1),
    M.confirmOpenMailings(1),
    M.confirmTestPersons([`Partner ${tag} / ${dataset}`]),
    M.confirmSuppression,
  ]);
  // 'Annuleren' erases nothing.
  await dialog.getByRole('button', { name: 'Annuleren' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: dataset, exact: true })).toBeVisible();

  await page.getByRole('button', { name: M.erase, exact: true }).click();
  await dialog.getByRole('button', { name: M.confirmButton }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('avg-erasure-done')).toHaveText(
    `${M.erased(email)} ${M.erasedTestPersons(1)}`,
  );
  const today = displayDay(new Date());
  await expect(page.getByTestId('avg-erased')).toHaveText(M.alreadyErased(today));
  await expect(page.getByRole('cell', { name: dataset, exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: M.erase, exact: true })).toHaveCount(0);

  // A new look-up says it was erased, and when.
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByText('verwijderd (AVG)')).toBeVisible();
  await expect(page.getByText(/Niets gevonden/)).toHaveCount(0);
  await expect(page.getByTestId('avg-erased')).toHaveText(M.alreadyErased(today));
  await expect(page.getByTestId('avg-erasure-done')).toHaveCount(0);

  // The next upload of the dataset (which replaces its records) skips the address under its own reason.
  await page.goto(`/upload/${partner}/${datasetId}`);
  await page.locator('input[type=file]').setInputFiles({
    name: 'terug.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`email\n${email}\n${other}\nnieuw.${tag}@voorbeeld.nl\n`),
  });
  await page.getByRole('button', { name: 'Uploaden' }).click();
  await expectAlert(
    page,
    'success',
    'Upload geslaagd',
    /Gevonden: 3, Opgeslagen: 1, Overgeslagen: 1, Verwijderd: 0, Onveranderd: 1/,
  );
  const skipped = page.getByTestId('upload-status').getByTestId('skipped-rows');
  await expect(skipped.getByRole('rowheader', { name: 'AVG-verwijderd' })).toBeVisible();
  await expect(skipped.getByTestId('skipped-erased')).toHaveText('1');

  // A file of addresses: one held, one unknown, one erased before, one invalid, one repeated.
  await page.goto('/avg');
  const bulk = page.getByTestId('avg-bulk-erasure');
  await expect(bulk.getByRole('heading', { name: M.bulkTitle })).toBeVisible();
  await expect(bulk.getByText(M.bulkHelp)).toBeVisible();
  await bulk.locator('input[type=file]').setInputFiles({
    name: 'verwijderen.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      ['email', other, `onbekend.${tag}@voorbeeld.nl`, email, 'geen-adres', other.toUpperCase(), ''].join(
        '\n',
      ),
    ),
  });
  await expect(bulk.getByTestId('chosen-file')).toContainText('verwijderen.csv');
  // Destructive: nothing is sent before the confirmation is ticked.
  const send = bulk.getByRole('button', { name: 'Adressen verwijderen' });
  await expect(send).toBeDisabled();
  await bulk.getByLabel('Ik begrijp dat deze adressen definitief worden verwijderd').check();
  await send.click();
  await expectAlert(page, 'success', M.bulkStarted);
  await expect(bulk.getByRole('alert').filter({ hasText: M.bulkDone })).toBeVisible();
  const result = bulk.getByTestId('avg-bulk-result');
  await expect(result.getByRole('row')).toHaveText([
    'Gelezen regels5',
    'Verwijderd1',
    'Alleen geweerd (niet gevonden)1',
    'Al eerder verwijderd1',
    'Ongeldig e-mailadres1',
    'Dubbel in het bestand1',
    'Verwijderde records1',
    'Verwijderde testpersonen0',
  ]);
  await expect(bulk.getByTestId('chosen-file')).toHaveCount(0);

  // The other address is gone too; the task list names the erasure in Dutch with its counts.
  await page.getByLabel('E-mailadres').fill(other);
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByTestId('avg-erased')).toHaveText(M.alreadyErased(today));
  await page.goto('/tasks');
  const card = page.getByTestId('task-card').filter({ hasText: 'verwijderen.csv' }).first();
  await expect(card.getByTestId('task-type')).toHaveText('AVG-verwijderen uit bestand');
  await expect(card.getByTestId('task-summary')).toContainText('Gelezen regels: 5, Verwijderd: 1');
});

// The journey's partner whose import it holds half-way: released after it, however it ends.
let heldPartner = '';

test.afterEach(async ({ page }) => {
  if (heldPartner) {
    await page.request.post('/api/e2e/hold/release', { data: { partnerId: heldPartner } }).catch(() => {});
  }
});

test('AVG-verzoeken: an erasure while an upload runs says to try again, an address held nowhere is still kept out, a file without addresses is refused', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const tag = unique('wacht');
  const email = `niemand.${tag}@voorbeeld.nl`;
  await loginAsAdmin(page, '/');
  heldPartner = `p_${tag}`;
  await ok(page.request.post('/api/crud-partner', { data: { id: heldPartner, name: `Partner ${tag}` } }));
  const dataset = `bestand${tag}`;
  await ok(page.request.post(`/api/datasets/${heldPartner}`, { data: { name: dataset } }));

  // An upload held half-way keeps every erasure out until it is done.
  await ok(page.request.post('/api/e2e/hold', { data: { type: 'import', partnerId: heldPartner } }));
  const lines = ['email'];
  for (let i = 0; i < 6000; i++) lines.push(`r${i}.${tag}@voorbeeld.nl`);
  const { task } = await ok<{ task: { _id: string } }>(
    page.request.post(`/api/import/${heldPartner}/${dataset}`, {
      multipart: { file: { name: 'groot.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) } },
    }),
  );
  await expect
    .poll(async () => (await (await page.request.get(`/api/tasks/${task._id}`)).json()).progress?.done ?? 0)
    .toBeGreaterThan(0);

  await page.goto('/avg');
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByRole('button', { name: 'Opzoeken' }).click();
  await expect(page.getByText(`Niets gevonden voor ${email}.`)).toBeVisible();
  await page.getByRole('button', { name: M.erase, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: M.confirmTitle });
  await expect(dialog.getByTestId('avg-erasure-items').getByRole('listitem')).toHaveText([
    M.confirmNothingHeld,
    M.confirmSuppression,
  ]);
  await dialog.getByRole('button', { name: M.confirmButton }).click();
  await expect(dialog.getByRole('alert')).toHaveText(M.busy);
  await expectAlert(page, 'danger', M.busy);
  await expect(dialog).toBeVisible();

  // Once the upload is done, the same confirmation erases: nothing was held, the address is kept out.
  await ok(page.request.post('/api/e2e/hold/release', { data: { partnerId: heldPartner } }));
  await waitForTask(page.request, task._id);
  await dialog.getByRole('button', { name: M.confirmButton }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('avg-erasure-done')).toHaveText(M.erased(email));
  await expect(page.getByTestId('avg-erased')).toHaveText(M.alreadyErased(displayDay(new Date())));

  // A file in which no line holds an e-mail address is refused, with the reason.
  const bulk = page.getByTestId('avg-bulk-erasure');
  await bulk.locator('input[type=file]').setInputFiles({
    name: 'namen.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('naam\nPiet\nKlaas\n'),
  });
  await bulk.getByLabel('Ik begrijp dat deze adressen definitief worden verwijderd').check();
  await bulk.getByRole('button', { name: 'Adressen verwijderen' }).click();
  await expectAlert(page, 'danger', M.failed, M.bulkNoColumn);
  await expect(bulk.getByRole('alert').filter({ hasText: M.bulkNoColumn })).toBeVisible();
});
