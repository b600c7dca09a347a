import { expect, type Locator, type Page } from '@playwright/test';

// spec 001 §8: alerts are coloured notifications with a title; danger red, success green, info blue.
const ALERT_COLORS = { danger: 'red', success: 'green', info: 'blue' } as const;

/** The alert (role=alert) whose title is exactly `title`. */
export function alertTitled(page: Page, title: string): Locator {
  return page.getByRole('alert').filter({ has: page.getByText(title, { exact: true }) });
}

/** Waits for an alert with this title and kind (and message, when given); returns it. */
export async function expectAlert(
  page: Page,
  kind: keyof typeof ALERT_COLORS,
  title: string,
  message?: string | RegExp,
): Promise<Locator> {
  const alert = alertTitled(page, title).first();
  await expect(alert).toBeVisible();
  // Mantine puts the colour on the notification as a CSS variable.
  await expect(alert).toHaveAttribute(
    'style',
    new RegExp(`--notification-color: var\\(--mantine-color-${ALERT_COLORS[kind]}-`),
  );
  if (message !== undefined) await expect(alert).toContainText(message);
  return alert;
}
