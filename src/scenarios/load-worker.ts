/**
 * @module The loading worker (see load-scenarios.ts): loads the scenarios of its job, answers
 * with their columns, moving the buffers, and ends. A refusal answers with the file's issues.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SourceError } from '../problems/source-error.ts';
import { loadIndexedScenario, type LoadJob, type LoadOutcome } from './load-scenarios.ts';

const job = workerData as LoadJob;
const answer = (outcome: LoadOutcome, buffers: ArrayBuffer[] = []): void => {
  parentPort?.postMessage(outcome, buffers);
};
try {
  const loaded = await Promise.all(
    job.sources.map(
      async ([name, source]) =>
        [name, await loadIndexedScenario(source, job.options, job.plan)] as const,
    ),
  );
  answer(
    {
      ok: true,
      scenarios: loaded.map(([name, { loaded: scenario }]) => [name, scenario] as const),
    },
    loaded.flatMap(([, { buffers }]) => buffers),
  );
} catch (error) {
  const issues =
    error instanceof SourceError
      ? error.issues
      : [
          {
            file: 'load',
            field: '',
            message: error instanceof Error ? error.message : String(error),
          },
        ];
  answer({ ok: false, issues });
}
