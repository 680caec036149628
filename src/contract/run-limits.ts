/**
 * @module What one run may cost the checker, whatever the target does: a deadline, a number of
 * requests and of bytes received, and a patience for answers that never come. Once any is
 * spent the run stops: the requests still to come are not sent, and the report says why.
 */

export interface RunLimits {
  /** The whole run ends after this long (`--deadline`). */
  readonly deadlineMs: number;
  /** Requests sent in all (`--max-requests`). */
  readonly maxRequests: number;
  /** Bytes received in all, bodies as sent (`--max-bytes`). */
  readonly maxBytes: number;
  /** Requests in a row that got no answer in time, after which the target is given up. */
  readonly timeoutsInARow: number;
}

/**
 * Generous for a catalogue of a million items walked at several levels, small enough that a
 * target which drips or never ends its links cannot hold a CI job for hours or fill its memory.
 */
export const DEFAULT_RUN_LIMITS: RunLimits = {
  deadlineMs: 10 * 60_000,
  maxRequests: 100_000,
  maxBytes: 1024 * 1024 * 1024,
  timeoutsInARow: 3,
};

/** The one answer larger than this, raw or decoded, is no stock API's: the run stops. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The one JSON answer that nests deeper than this is no stock API's either: the run stops, as
 * for one too large, rather than judge it by code that recurses once per level.
 */
export const MAX_ANSWER_DEPTH = 1000;

/** What a run has spent, and the reason it stopped once it has. */
export interface RunBudget {
  /** Why requests are no longer sent; undefined while the run goes on. */
  readonly stopped: () => string | undefined;
  /** Takes one request from the budget; the reason to stop instead, when it is spent. */
  readonly take: (url: string) => string | undefined;
  /** Counts an answer's bytes, or an answer that never came. */
  readonly answered: (url: string, outcome: { bytes: number } | 'timed-out') => void;
  /** Stops the run now, for a reason found outside the budget (an answer too large). */
  readonly stop: (reason: string) => void;
}

export function createRunBudget(limits: RunLimits, now: () => number = Date.now): RunBudget {
  const deadline = now() + limits.deadlineMs;
  let requests = 0;
  let bytes = 0;
  let timeouts = 0;
  let reason: string | undefined;
  const stop = (why: string) => {
    reason ??= why;
  };
  return {
    stopped: () => reason,
    stop,
    take(url) {
      if (reason === undefined && now() >= deadline) {
        stop(`the run's deadline of ${String(limits.deadlineMs)} ms passed (--deadline)`);
      } else if (reason === undefined && requests >= limits.maxRequests) {
        stop(
          `${String(limits.maxRequests)} requests were made (--max-requests); the next was ${url}`,
        );
      }
      if (reason === undefined) requests += 1;
      return reason;
    },
    answered(url, outcome) {
      if (outcome === 'timed-out') {
        timeouts += 1;
        if (timeouts >= limits.timeoutsInARow) {
          stop(`${String(timeouts)} requests in a row got no answer in time, the last ${url}`);
        }
        return;
      }
      timeouts = 0;
      bytes += outcome.bytes;
      if (bytes > limits.maxBytes) {
        stop(
          `more than ${String(limits.maxBytes)} bytes were received (--max-bytes), the last from ${url}`,
        );
      }
    },
  };
}
