import { describe, expect, it } from 'vitest';
import { withSteadyYoungGeneration } from '../../src/util/steady-young-generation.ts';

describe('withSteadyYoungGeneration', () => {
  it('passes the load’s value and its failure through', async () => {
    await expect(withSteadyYoungGeneration(() => Promise.resolve(42))).resolves.toBe(42);
    await expect(
      withSteadyYoungGeneration(() => Promise.reject(new Error('bad file'))),
    ).rejects.toThrow('bad file');
  });
});
