/** @module A contract run at the stand-in level, as the checker's own tests make one. */
import { judgeAt, runContract, type Report } from '../../src/contract/run-contract.ts';
import type { LoadedSpec } from '../../src/spec/load-spec.ts';

export function checkAtStandIn(
  url: string,
  tokens: Readonly<Record<string, string>>,
  spec: LoadedSpec,
  draws: { readonly seed: number; readonly runs: number },
): Promise<Report> {
  return runContract({
    baseUrl: url,
    tokens,
    spec,
    level: 'stand-in',
    ...draws,
    timeoutMs: 5000,
    concurrency: 4,
  });
}

/** The ids of the checks a report fails, judged at a level. */
export const failedAt = (report: Report, level: 'interface' | 'stand-in'): string[] =>
  judgeAt(report, level)
    .results.filter((result) => result.outcome.kind === 'failed')
    .map((result) => result.id);
