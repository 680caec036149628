/**
 * @module Mutation runs only (vitest.mutate.config.ts): a failing property ends at its first
 * counterexample. Shrinking it is for a person reading the failure; for a mutant it is waiting,
 * and on long generated arrays it outlasted Stryker's time limit.
 */
import fc from 'fast-check';

fc.configureGlobal({ endOnFailure: true });
