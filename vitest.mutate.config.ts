import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Mutation testing runs the suites that import the core directly; the others start built servers.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts', 'test/http/**/*.test.ts'],
    setupFiles: ['test/helpers/mutate-setup.ts'],
    // One module graph for all files of a run, not one per file: 38 s for both suites instead
    // of 54 s (bench/README.md, "Mutation testing"). The core keeps no module state that one
    // test file could carry to another.
    isolate: false,
  },
});
