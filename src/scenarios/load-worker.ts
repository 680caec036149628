/**
 * @module A loading worker (see load-scenarios.ts): reads the scenarios of its job at once,
 * builds them by the plan the serving thread sends once it knows it, answers with their
 * columns, moving the buffers, and ends. A refusal answers with the file's issues.
 */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadPlan, LoadWorkerData } from './load-scenarios.ts';

const { job, compileCache } = workerData as LoadWorkerData;
// The compile cache of the thread that started this one (bin/stockmock.js turns it on), before
// the loader's modules are compiled: a worker does not inherit it. Absent before Node 22.1.
const { enableCompileCache } = module as Partial<typeof module>;
if (compileCache !== undefined) enableCompileCache?.(compileCache);
const { runLoadJob } = await import('./load-scenarios.ts');

const plan = new Promise<LoadPlan>((resolve) => {
  parentPort?.once('message', resolve);
});
const { outcome, buffers } = await runLoadJob(job, plan);
parentPort?.postMessage(outcome, buffers);
