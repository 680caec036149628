/** @module What simulation does to one request: pure, so it can be tested without a server. */
import type { Faults, Latency } from '../config/simulation-schema.ts';

/** The status a simulated failure answers with when the config names none. */
export const DEFAULT_ERROR_STATUS = 503;

export interface FaultPlan {
  readonly delayMs: number;
  /** Set when this request is to fail. */
  readonly errorStatus?: number;
}

/** Draws the delay and whether the request fails, from `random` (uniform in [0, 1)). */
export function planFaults(faults: Faults, random: () => number): FaultPlan {
  const delayMs = faults.latency === undefined ? 0 : drawLatency(faults.latency, random);
  const errors = faults.errors;
  if (errors === undefined || errors.rate === 0 || random() >= errors.rate) return { delayMs };
  return { delayMs, errorStatus: errors.status ?? DEFAULT_ERROR_STATUS };
}

function drawLatency(latency: Latency, random: () => number): number {
  if (typeof latency === 'number') return latency;
  const low = Math.min(latency.min, latency.max);
  const high = Math.max(latency.min, latency.max);
  return Math.round(low + random() * (high - low));
}
