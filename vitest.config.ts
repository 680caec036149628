import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    // End-to-end tests start servers and a browser: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests load the loading worker from its TypeScript source, so each worker thread runs
    // Node's type stripper, a WebAssembly module that V8 shares between threads. Freeing its
    // dead code as one thread ends has crashed the test process (SIGSEGV in
    // NativeModule::FreeCode, about 1 run in 20 of test/api/start-stockmock.test.ts on Node
    // 24.21). The installed command runs compiled JavaScript and never loads it in a worker.
    execArgv: ['--no-wasm-code-gc'],
  },
});
