/**
 * The one validator setup that fixtures, parameters and generated data are judged by: a
 * multiple of a decimal step is one as its writer meant it, whatever binary rounding says.
 */
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/source/create-ajv.ts';

describe('createAjv', () => {
  it.each([
    [0.05, 0.15, true],
    [0.05, 0.7, true],
    [0.1, 0.3, true],
    [0.01, 19.99, true],
    [0.05, 0.16, false],
    [0.1, 0.35, false],
    [3, 10, false],
  ])('multipleOf %s: %s is %s', (step, value, valid) => {
    const validate = createAjv().compile({ type: 'number', multipleOf: step });
    expect(validate(value)).toBe(valid);
  });
});
