import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Mutation testing runs the suites that import the core directly; the others start built servers.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts', 'test/http/**/*.test.ts'],
    setupFiles: ['test/helpers/mutate-setup.ts'],
  },
});
