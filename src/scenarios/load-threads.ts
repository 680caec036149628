/**
 * @module The loading workers' threads (see load-worker.ts): started when a load asks, or one
 * early, before a start's own modules load.
 *
 * Light on purpose: bin/stockmock.js imports it before the rest of the command, so that the
 * first worker loads its modules (about 300 ms at start) on the other core meanwhile.
 */
import module from 'node:module';
import { Worker } from 'node:worker_threads';

/** What a loading worker starts with; its job and plan come as messages. */
export interface LoadWorkerData {
  /** The starting thread's compile cache folder, if it has one (bin/stockmock.js). */
  readonly compileCache?: string;
}

/** The worker's module: its TypeScript source where this module runs as source (tests). */
const WORKER_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './load-worker.ts' : './load-worker.js',
  import.meta.url,
);

/**
 * A small young generation: a load keeps most of what it makes, so a large one only copies
 * more, and its pages stay with the process after the worker ends. Measured at 100 000
 * products, 20 reloads in a row: RSS after the first load 260 → 187 MB, after the reloads
 * 462 → 382 MB; the load takes as long (490–520 ms), and 1 000 000 generated products too.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/** What a loading worker posts once its modules are loaded, before its answer. */
export const WORKER_READY = 'stockmock-load-worker-ready';

/** A worker started early and not taken yet. */
let early: Worker | undefined;

/**
 * Starts a loading worker for the first load to take. Until taken it holds no process open: a
 * start refused before its load (a bad config) ends as it would without it.
 */
export function prestartLoadWorker(): void {
  if (early !== undefined) return;
  const worker = startThread();
  worker.unref();
  early = worker;
  worker.once('exit', () => {
    if (early === worker) early = undefined;
  });
}

/** A loading worker: the one started early if it is still there, else a new one. */
export function takeLoadWorker(): Worker {
  const worker = early ?? startThread();
  early = undefined;
  worker.ref();
  return worker;
}

function startThread(): Worker {
  const compileCache = (module as Partial<typeof module>).getCompileCacheDir?.();
  const workerData: LoadWorkerData = compileCache === undefined ? {} : { compileCache };
  return new Worker(WORKER_MODULE, { workerData, resourceLimits: WORKER_LIMITS });
}
