/**
 * Loaded into the server by `npm run soak` (`--import`): every second, the longest delay of
 * the serving thread's event loop and the process's memory, as one line on standard error.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

// `--import` runs in every thread, the loading workers too; only the serving thread is measured.
if (isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    const memory = process.memoryUsage();
    const mb = (bytes: number): string => String(Math.round(bytes / 1048576));
    process.stderr.write(
      `stockmock-soak loop-delay-ms=${(delay.max / 1e6).toFixed(1)} rss=${mb(memory.rss)} heap=${mb(memory.heapTotal)} external=${mb(memory.external)} buffers=${mb(memory.arrayBuffers)}\n`,
    );
    delay.reset();
  }, 1000).unref();
}
