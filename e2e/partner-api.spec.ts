import { expect, test } from '@playwright/test';

// spec 001 §2: /apidocs renders the partner API documentation and is open without login; §7 the
// five calls (partnerlist, its {email} calls, upsert, csv and the csv task); it runs
// under the Content-Security-Policy without a violation.

test('/apidocs shows the partner API to a visitor who is not logged in, without a CSP violation', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content[- ]Security[- ]Policy/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto('/apidocs');
  // The document's title and version (spec 001 §7: OpenAPI 3, version 1.0.1).
  await expect(page.getByRole('heading', { name: /Lijstwerk partner API/ })).toBeVisible();
  await expect(page.getByText('1.0.1', { exact: true }).first()).toBeVisible();
  // The five calls, each with its method.
  const operations: [string, string][] = [
    ['POST', '/partnerlist'],
    ['POST', '/partnerlist/upsert'],
    ['POST', '/partnerlist/csv'],
    ['GET', '/partnerlist/csv/{taskId}'],
    ['GET', '/partnerlist/{email}'],
    ['PUT', '/partnerlist/{email}'],
    ['DELETE', '/partnerlist/{email}'],
  ];
  for (const [method, path] of operations) {
    const block = page.locator('.opblock').filter({
      has: page.locator('.opblock-summary-path', {
        hasText: new RegExp(`^${path.replace(/[{}/]/g, '\\$&')}$`),
      }),
    });
    await expect(block.locator('.opblock-summary-method', { hasText: method })).toBeVisible();
  }
  // Nothing of the back office's own API is documented.
  await expect(page.locator('.opblock-summary-path', { hasText: '/api/' })).toHaveCount(0);
  // The servers (production and beta) and the key.
  await expect(page.locator('.servers select option')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /Authorize/ })).toBeVisible();
  // An operation opens on its example.
  await page.locator('.opblock-summary-path', { hasText: /^\/partnerlist\/upsert$/ }).click();
  await expect(page.getByText('piet@example.nl').first()).toBeVisible();
  expect(problems).toEqual([]);
});
