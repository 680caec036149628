/** @module The shipped spec, loaded once per test file. */
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.ts';

let shippedSpec: Promise<LoadedSpec> | undefined;

export function shippedSpecOnce(): Promise<LoadedSpec> {
  shippedSpec ??= loadSpec();
  return shippedSpec;
}
