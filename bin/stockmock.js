#!/usr/bin/env node
// The installed command. The TypeScript sources are compiled to dist/ before packing (prepack),
// and in a clone before `npm start` and `npm test` (or by `npm run build`).
import module from 'node:module';

// Before any module that needs a newer Node (Promise.withResolvers, the ref parser): one line
// that names the version needed, not a TypeError from a worker thread.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `stockmock needs Node.js 22.19 or later; this is Node.js ${process.versions.node}.\n`,
  );
  process.exit(2);
}

// First of all, before any full collection can free it: see src/util/held-tick-shape.ts.
const { holdTickObjectShape } = await import('../dist/util/held-tick-shape.js');
holdTickObjectShape();
// Node 22.1 and later keep the code they compiled between runs (in Node's own cache folder;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off): a start compiles about 430 modules, and kept,
// that is 60–80 ms less to wait. Before the imports below, which it applies to.
module.enableCompileCache?.();
// `serve` loads its data in a worker thread: started first, it loads its own modules on the
// other core while this thread loads the command's (about 300 ms each at start).
if (process.argv[2] === 'serve') {
  const { prestartLoadWorker } = await import('../dist/scenarios/load-threads.js');
  prestartLoadWorker();
}
const { runMain } = await import('../dist/cli/main.js');
const { processIo } = await import('../dist/cli/io.js');
const { isWatched, runWatched } = await import('../dist/cli/watchdog.js');

// `contract` runs in a child whose deadline is kept from here (src/cli/watchdog.ts).
const argv = process.argv.slice(2);
process.exitCode = isWatched(argv, process.env)
  ? await runWatched(process.argv[1], argv, processIo())
  : await runMain(argv, processIo());
