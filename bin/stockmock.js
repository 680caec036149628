#!/usr/bin/env node
// The installed command. The TypeScript sources are compiled to dist/ before packing (prepack),
// and in a clone before `npm start` and `npm test` (or by `npm run build`).
import { runMain } from '../dist/cli/main.js';
import { processIo } from '../dist/cli/io.js';

process.exitCode = await runMain(process.argv.slice(2), processIo());
