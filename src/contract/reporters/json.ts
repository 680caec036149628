/** @module The machine-readable report: the Report itself, stable field names. */
import type { Report } from '../run-contract.ts';

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
