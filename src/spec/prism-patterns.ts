/**
 * @module Prism's validators match a spec's `pattern` in linear time too.
 *
 * @stoplight/prism-http validates requests (example-answers.ts) and responses
 * (response-validator.ts) with Ajv instances of its own, made when its module loads and never
 * exposed, with Ajv's default engine: RegExp, which backtracks. Ajv reads the engine from the
 * instance's `opts.code.regExp` each time it compiles a schema, and Prism compiles every schema
 * through `compile({...schema, __bundled__})`. So Ajv's `compile` is wrapped, once: a schema
 * that carries Prism's `__bundled__` member is compiled by an instance switched to the linear
 * engine (source/linear-pattern.ts). Other users of Ajv in the process, a host test suite's
 * included, are left as they are. test/e2e/hostile-patterns.test.ts fails if a Prism upgrade
 * ever compiles otherwise.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { linearRegExpEngine } from '../source/linear-pattern.ts';

interface CompilingAjv {
  opts: { code: { regExp: unknown } };
  compile: (this: CompilingAjv, schema: unknown, meta?: boolean) => unknown;
}

const WRAPPED = Symbol.for('stockmock.linearPatterns');

/** Every Ajv class extends the same core, whose prototype holds `compile`. */
const core = Object.getPrototypeOf(Ajv2020.prototype) as CompilingAjv & Record<symbol, boolean>;

/** Switches Prism's validators to the linear engine; idempotent. */
export function matchPrismPatternsInLinearTime(): void {
  if (core[WRAPPED] === true) return;
  const compile = core.compile;
  core.compile = function (this: CompilingAjv, schema, meta) {
    if (typeof schema === 'object' && schema !== null && '__bundled__' in schema) {
      this.opts.code.regExp = linearRegExpEngine;
    }
    return compile.call(this, schema, meta);
  };
  core[WRAPPED] = true;
}
