import { expect, type Page, test } from '@playwright/test';
import { columnMapping } from '../common/mappings';
import { expectAlert } from './support/alerts';
import { ok } from './support/api';
import { loginAsAdmin, unique } from './support/session';

// Work you can see: an upload and a remap show their rows done of total where they
// were started and on /tasks, and the sidebar's connector is busy while they run, idle after. The
// e2e server holds the partner's next import or remap half-way when asked (POST /api/e2e/hold).

const ROWS = 6000;
const csvOf = (prefix: string) => {
  const lines = ['email,naam,stad'];
  for (let i = 0; i < ROWS; i++) lines.push(`${prefix}${i}@voorbeeld${i % 30}.nl,Naam ${i},Stad ${i % 7}`);
  return `${lines.join('\n')}\n`;
};
// '1.234 van 6.000 rijen': some rows done, not all (the task is held half-way).
const HALF_WAY = /^[1-9][\d.]* van 6\.000 rijen$/;

/** The id of the partner's running task of this type (there is one: the held one). */
async function runningTask(page: Page, type: string, partnerId: string): Promise<string> {
  let id = '';
  await expect
    .poll(async () => {
      const tasks = (await (await page.request.get('/api/tasks')).json()) as {
        _id: string;
        type: string;
        partner: string | null;
        state: string;
      }[];
      id = tasks.find((t) => t.type === type && t.partner === partnerId && t.state !== 'done')?._id ?? '';
      return id;
    })
    .not.toBe('');
  return id;
}

// The journey's partner: its held tasks are released after it, however it ends.
let partnerId = '';

test.afterEach(async ({ page }) => {
  // A journey that fails half-way must not leave its task held: it would keep the connector busy.
  if (partnerId) await page.request.post('/api/e2e/hold/release', { data: { partnerId } }).catch(() => {});
});

test('an upload and a remap show their rows done of total and the connector busy, then idle', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await loginAsAdmin(page, '/');
  partnerId = unique('Voortgang_');
  const name = unique('Voortgang');
  await ok(page.request.post('/api/crud-partner', { data: { id: partnerId, name: 'Voortgang BV' } }));
  const { _id: datasetId } = await ok(page.request.post(`/api/datasets/${partnerId}`, { data: { name } }));
  await ok(
    page.request.put(`/api/datasets/${partnerId}/${datasetId}/mappings`, {
      data: [columnMapping('naam', 'firstName')],
    }),
  );
  const connector = page.getByTestId('connector-status');

  // The upload: held half-way, its rows done of total show under the upload and on /tasks.
  await ok(page.request.post('/api/e2e/hold', { data: { type: 'import', partnerId } }));
  await page.goto(`/upload/${partnerId}/${datasetId}`);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'voortgang.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf('u')) });
  await page.getByRole('button', { name: 'Uploaden' }).click();
  const upload = page.getByTestId('upload-status').getByTestId('task-progress');
  await expect(upload.getByTestId('task-progress-count')).toHaveText(HALF_WAY);
  await expect(upload.getByRole('progressbar')).toHaveAttribute(
    'aria-label',
    /^Voortgang: .* van 6\.000 rijen$/,
  );
  await expect(connector).toHaveAttribute('data-status', 'busy');

  const importId = await runningTask(page, 'import', partnerId);
  const tasksPage = await page.context().newPage();
  await tasksPage.goto('/tasks');
  const card = tasksPage.getByTestId('task-card').filter({ hasText: `Id: ${importId}` });
  await expect(card.getByTestId('task-progress-count')).toContainText(/van 6\.000 rijen \(\d+%\)$/);
  await expect(tasksPage.getByTestId('connector-status')).toHaveAttribute('data-status', 'busy');
  // A page in the background polls nothing: the upload's page comes to the front again.
  await tasksPage.close();

  await ok(page.request.post(`/api/e2e/tasks/${importId}/release`));
  await expectAlert(page, 'success', 'Upload geslaagd');
  await expect(page.getByTestId('upload-status').getByTestId('result-read')).toHaveText('6.000');
  await expect(upload).toHaveCount(0);
  // The connector is idle again (another journey may keep it busy a moment).
  await expect(connector).toHaveAttribute('data-status', 'idle', { timeout: 30_000 });

  // The remap: 'Mapping doorvoeren' shows the rows done of the dataset's records under the buttons.
  await ok(
    page.request.put(`/api/datasets/${partnerId}/${datasetId}/mappings`, {
      data: [columnMapping('naam', 'firstName', { lower: true })],
    }),
  );
  await ok(page.request.post('/api/e2e/hold', { data: { type: 'remap', partnerId } }));
  await page.goto(`/partners/${partnerId}/datasets/${datasetId}/headers`);
  await page.getByRole('button', { name: 'Mapping doorvoeren' }).click();
  const remap = page.getByTestId('task-progress');
  await expect(remap.getByTestId('task-progress-count')).toHaveText(HALF_WAY);
  await expect(remap.getByTestId('task-progress-state')).toHaveText('Bijwerken');
  await expect(page.getByRole('button', { name: 'Mapping doorvoeren' })).toBeDisabled();
  await expect(connector).toHaveAttribute('data-status', 'busy');
  const remapId = await runningTask(page, 'remap', partnerId);
  const remapTasks = await page.context().newPage();
  await remapTasks.goto('/tasks');
  const remapCard = remapTasks.getByTestId('task-card').filter({ hasText: `Id: ${remapId}` });
  await expect(remapCard.getByTestId('task-progress-count')).toContainText(/van 6\.000 rijen/);
  await remapTasks.close();

  await ok(page.request.post(`/api/e2e/tasks/${remapId}/release`));
  await expectAlert(page, 'success', 'Mapping doorgevoerd');
  await expect(remap).toHaveCount(0);
  await expect(page.getByTestId('result-saved')).toHaveText('6.000');
  await expect(connector).toHaveAttribute('data-status', 'idle', { timeout: 30_000 });
});
