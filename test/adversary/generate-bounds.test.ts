/**
 * Finding 6: `fixtures generate` must refuse at once a record schema whose values could not be
 * held in memory (a pattern repeating a billion times, a minLength or minItems in the hundreds of
 * millions), naming the spec file and the field, rather than try to build them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { killRunningClis, runCli } from './support.ts';

function specWith(field: string, schema: Record<string, unknown>): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Things', version: '1.0.0' },
    security: [],
    'x-stockmock-collections': {
      things: {
        key: 'id',
        record: {
          type: 'object',
          required: ['id', 'label', field],
          properties: {
            id: { type: 'integer', minimum: 1 },
            label: { type: 'string', pattern: '^[a-z]{3}$' },
            [field]: schema,
          },
        },
      },
    },
    paths: {
      '/v1/things': {
        get: {
          'x-stockmock': { collection: 'things', view: { fields: { id: 'id', label: 'label' } } },
          parameters: [
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
            },
            { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      data: { type: 'array', items: { type: 'object' } },
                      links: { type: 'object' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adversary-generate-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => {
  killRunningClis();
});

async function generate(name: string, field: string, schema: Record<string, unknown>) {
  const file = join(dir, name);
  await writeFile(file, stringify(specWith(field, schema)));
  return runCli(['fixtures', 'generate', '--spec', file, '--count', '1'], { cwd: dir });
}

describe('fixtures generate refuses schemas it cannot bound', () => {
  it('control: the same spec with a small field generates', { timeout: 20_000 }, async () => {
    const result = await generate('control.yaml', 'code', {
      type: 'string',
      pattern: '^[a-z]{5}$',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/"code":"[a-z]{5}"/);
  });

  const cases: readonly [string, string, Record<string, unknown>][] = [
    ['pattern ^[a-z]{1000000000}$', 'code', { type: 'string', pattern: '^[a-z]{1000000000}$' }],
    ['minLength 400000000', 'blob', { type: 'string', minLength: 400_000_000 }],
    [
      'minItems 200000000',
      'tags',
      { type: 'array', minItems: 200_000_000, items: { type: 'string' } },
    ],
  ];
  for (const [title, field, schema] of cases) {
    it(
      `${title}: refused at once, naming the file and the field`,
      { timeout: 20_000 },
      async () => {
        const name = `huge-${field}.yaml`;
        const result = await generate(name, field, schema);
        const report = `exit ${String(result.code)} ${String(result.signal)}\nstderr:\n${result.stderr.slice(0, 2000)}`;
        expect(result.signal, report).toBeNull();
        expect(result.code, report).not.toBe(0);
        expect(result.stderr, report).toContain(name);
        expect(result.stderr, report).toContain(field);
        expect(result.stderr, report).not.toMatch(
          /heap out of memory|Invalid string length|RangeError/,
        );
      },
    );
  }
});
