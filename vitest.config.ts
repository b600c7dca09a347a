import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'common/**/*.test.ts',
      'web/**/*.test.ts',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    globalSetup: ['server/test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 90_000,
    env: { TZ: 'Europe/Amsterdam' },
  },
});
