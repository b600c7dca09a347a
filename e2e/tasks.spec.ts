import { expect, type Page, test } from '@playwright/test';
import { loginAsAdmin, unique } from './support/session';

// spec 001 §2 tasks, §4 task states: the task list with running, finished and failed cards, the
// search box and the busy connector. The tasks come from the e2e server's /api/e2e routes
// (e2e/support/demo-tasks.ts): 'e2e.demo' waits in state 'saving' at 40% until released.

interface StartedTask {
  _id: string;
}

async function startTask(page: Page, type: 'e2e.demo' | 'e2e.fail', data: Record<string, string>) {
  const res = await page.request.post('/api/e2e/tasks', { data: { type, ...data } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { task: StartedTask }).task;
}

const cardOf = (page: Page, taskId: string) =>
  page.getByTestId('task-card').filter({ hasText: `Id: ${taskId}` });

test.afterEach(async ({ page }) => {
  // A failed journey must not leave tasks waiting: they would keep the connector busy.
  await page.request.post('/api/e2e/tasks/release-all').catch(() => {});
});

test('shows a running task turn done, a failed task, and searches the list', async ({ page }) => {
  const username = unique('taakgebruiker');
  await loginAsAdmin(page, '/tasks');
  await expect(page.getByRole('heading', { name: 'Taken' })).toBeVisible();

  const demo = await startTask(page, 'e2e.demo', {
    username,
    file: 'leden.csv',
    partnerId: 'partner-1',
    datasetId: 'dataset-1',
  });
  const failing = await startTask(page, 'e2e.fail', { username, file: 'kapot.csv' });

  // Running: blue, state 'saving', a progress bar at 40%; the connector is busy meanwhile.
  const running = cardOf(page, demo._id);
  await expect(running).toHaveAttribute('data-state', 'saving');
  await expect(running).toHaveAttribute('data-color', 'blue');
  await expect(running).toContainText('e2e.demo');
  await expect(running).toContainText(`Gebruiker: ${username}`);
  await expect(running).toContainText('Partner: partner-1');
  await expect(running).toContainText('Bestand: dataset-1');
  await expect(running).toContainText('Bestandsnaam: leden.csv');
  await expect(running).toContainText(/\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}/);
  await expect(running.getByRole('progressbar')).toBeVisible();
  await expect(running.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
  await expect(running.getByTestId('task-summary')).toHaveCount(0);
  await expect(page.getByTestId('connector-status')).toHaveAttribute('data-status', 'busy');

  // Failed: red, with the error in brackets and no result line.
  const failed = cardOf(page, failing._id);
  await expect(failed).toHaveAttribute('data-color', 'red');
  await expect(failed).toContainText('Mislukt (Bestand is kapot)');
  await expect(failed.getByTestId('task-summary')).toHaveCount(0);

  // Released, the demo task finishes: green, the result line, no progress bar.
  const released = await page.request.post(`/api/e2e/tasks/${demo._id}/release`);
  expect(released.status()).toBe(200);
  await expect(running).toHaveAttribute('data-state', 'done');
  await expect(running).toHaveAttribute('data-color', 'green');
  await expect(running.getByTestId('task-summary')).toHaveText(
    'Gevonden: 10, Opgeslagen: 7, Overgeslagen: 1, Verwijderd: 2, Onveranderd: 0',
  );
  await expect(running.getByRole('progressbar')).toHaveCount(0);

  // The search box (max 50) filters on type, username, state and error, case-insensitively.
  const search = page.getByLabel('Zoeken');
  await expect(search).toHaveAttribute('maxlength', '50');
  await search.fill(username.toUpperCase());
  await expect(running).toBeVisible();
  await expect(failed).toBeVisible();
  await search.fill('E2E.FAIL');
  await expect(failed).toBeVisible();
  await expect(running).toHaveCount(0);
  await search.fill('done');
  await expect(running).toBeVisible();
  await expect(failed).toHaveCount(0);
  await search.fill('kapot');
  await expect(failed).toBeVisible();
  await expect(running).toHaveCount(0);

  const nothing = unique('geentaak');
  await search.fill(nothing);
  await expect(page.getByText(`Geen taken gevonden voor zoekopdracht ${nothing}.`)).toBeVisible();
  await expect(page.getByTestId('task-card')).toHaveCount(0);

  await search.fill('');
  await expect(running).toBeVisible();
  await expect(failed).toBeVisible();
});

test('the search box takes at most 50 characters', async ({ page }) => {
  await loginAsAdmin(page, '/tasks');
  const search = page.getByLabel('Zoeken');
  await search.pressSequentially('x'.repeat(60));
  await expect(search).toHaveValue('x'.repeat(50));
});

test('the e2e task routes need a session like every other /api route', async ({ request }) => {
  const res = await request.post('/api/e2e/tasks', { data: { type: 'e2e.demo' } });
  expect(res.status()).toBe(401);
});
