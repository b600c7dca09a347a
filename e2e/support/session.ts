import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from './admin';

/** Logs in through the API (the browser context keeps the cookie) and opens `path`. */
export async function loginAsAdmin(page: Page, path = '/'): Promise<void> {
  const res = await page.request.post('/api/auth/login', {
    data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password },
  });
  expect(res.status()).toBe(200);
  await page.goto(path);
  await expect(page.getByText(`Log uit (${E2E_ADMIN.name})`)).toBeVisible();
}

/** Logs in through the API as any user; returns nothing, throws unless 200. */
export async function loginAs(page: Page, username: string, password: string, path = '/'): Promise<void> {
  const res = await page.request.post('/api/auth/login', { data: { username, password } });
  expect(res.status()).toBe(200);
  await page.goto(path);
}

/** A short random suffix for names that must be unique across journeys. */
export function unique(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 8)}`;
}
