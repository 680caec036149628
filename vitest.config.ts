import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    // End-to-end tests start servers and a browser: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
