import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18080);

// Journeys in Debian's Chromium against the built app on one server with a fresh database.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // One folder per port, so parallel runs (several engineers, CI) never clean each other's traces.
  outputDir: `test-results/e2e-${port}`,
  // Generous limits: journeys are long and a shared 2-core machine is sometimes twice as slow.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  // One browser at a time in CI: the server, PostgreSQL and Chromium already share two cores.
  workers: process.env.CI ? 1 : 2,
  // No retries: a journey that passes only on its second try is a bug to fix, not to hide.
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'nl-NL',
    timezoneId: 'Europe/Amsterdam',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
  webServer: {
    command: 'node --import tsx e2e/serve.ts',
    url: `http://127.0.0.1:${port}/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
