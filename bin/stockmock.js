#!/usr/bin/env node
// The installed command. The TypeScript sources are compiled to dist/ by `npm install` (prepare).
import { runMain } from '../dist/cli/main.js';
import { processIo } from '../dist/cli/io.js';

process.exitCode = await runMain(process.argv.slice(2), processIo());
