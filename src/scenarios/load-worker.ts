/**
 * @module A loading worker (see load-scenarios.ts): reads the scenarios of the job it is sent
 * at once, builds them by the plan the serving thread sends once it knows it (or reads them back
 * from the load cache, or keeps them there), answers with their columns, moving the buffers, and
 * ends. A refusal answers with the file's issues.
 */
import module from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadMessage } from './begin-load.ts';
import type { LoadJob, LoadPlan } from './load-scenarios.ts';
import { WORKER_READY } from './load-threads.ts';
import type { LoadWorkerData } from './load-threads.ts';

// Listened to before anything is awaited: a message that came with no listener would be lost.
const job = Promise.withResolvers<LoadJob>();
const plan = Promise.withResolvers<LoadPlan>();
const receive = (message: LoadMessage): void => {
  if (message.kind === 'job') {
    job.resolve(message.job);
    return;
  }
  plan.resolve(message.plan);
  // The last message: a port still listened to would keep this thread from ending.
  parentPort?.off('message', receive);
};
parentPort?.on('message', receive);

const { compileCache } = workerData as LoadWorkerData;
// The compile cache of the thread that started this one (bin/stockmock.js turns it on), before
// the loader's modules are compiled: a worker does not inherit it. Absent before Node 22.1.
const { enableCompileCache } = module as Partial<typeof module>;
if (compileCache !== undefined) enableCompileCache?.(compileCache);
const { runLoadJob } = await import('./load-scenarios.ts');
const given = await job.promise;
// Its modules are loaded: from now on it may be ended at any time (see startWorker's cancel).
// Told once the job came, so that the thread that took this worker listens already.
parentPort?.postMessage(WORKER_READY);

const { outcome, buffers } = await runLoadJob(given, plan.promise);
parentPort?.postMessage(outcome, buffers);
