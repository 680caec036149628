/**
 * Regression set for schema patterns that make other validators report false positives (or miss
 * real errors). The contract checker and the tests judge responses through this one validator.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { createResponseValidator } from '../../src/spec/response-validator.ts';
import { shippedSpecOnce } from '../helpers/test-app.ts';

const specFile = (name: string) =>
  fileURLToPath(new URL(`../fixtures/specs/${name}`, import.meta.url));
const json = { 'content-type': 'application/json' };

async function findingsFor(
  spec: Awaited<ReturnType<typeof loadSpec>>,
  path: string,
  body: unknown,
) {
  return (await createResponseValidator(spec)).validate('GET', path, {
    status: 200,
    headers: json,
    body,
  });
}

describe.each([
  ['OpenAPI 3.1 type: [integer, "null"]', 'oas31-type-null.yaml'],
  ['OpenAPI 3.0 nullable: true', 'oas30-nullable.yaml'],
])('%s', (_title, file) => {
  it.each([[{ quantity: null }], [{ quantity: 0 }], [{ quantity: 12 }]])(
    'accepts %j',
    async (body) => {
      expect(await findingsFor(await loadSpec(specFile(file)), '/thing', body)).toEqual([]);
    },
  );
  it.each([[{ quantity: 'x' }], [{ quantity: 1.5 }], [{ quantity: -1 }], [{}]])(
    'rejects %j',
    async (body) => {
      expect(await findingsFor(await loadSpec(specFile(file)), '/thing', body)).not.toEqual([]);
    },
  );
});

describe('additionalProperties: false with optional members', () => {
  it.each([[{ id: 1 }], [{ id: 1, note: 'n' }], [{ id: 1, note: 'n', tags: [] }]])(
    'accepts %j',
    async (body) => {
      expect(
        await findingsFor(await loadSpec(specFile('optional-members-closed.yaml')), '/thing', body),
      ).toEqual([]);
    },
  );
  it.each([[{ id: 1, colour: 'red' }], [{ note: 'n' }]])('rejects %j', async (body) => {
    expect(
      await findingsFor(await loadSpec(specFile('optional-members-closed.yaml')), '/thing', body),
    ).not.toEqual([]);
  });
});

describe('oneOf of the two stock shapes (the shipped spec)', () => {
  const single = (data: unknown) => ({ data });
  it.each([
    [{ product_id: 1, status: 'available' }],
    [{ product_id: 1, quantity: 0, status: 'out_of_stock' }],
    [{ product_id: 1, quantity: null, status: 'on_request' }],
  ])('accepts %j (exactly one shape matches)', async (data) => {
    expect(await findingsFor(await shippedSpecOnce(), '/v1/stock/1', single(data))).toEqual([]);
  });
  it.each([
    [{ product_id: 1, status: 'available', quantity: 'many' }],
    [{ product_id: 1 }],
    [{ product_id: 1, status: 'available', stock: 3 }],
    [{ product_id: '1', status: 'available' }],
  ])('rejects %j (neither shape matches)', async (data) => {
    expect(await findingsFor(await shippedSpecOnce(), '/v1/stock/1', single(data))).not.toEqual([]);
  });
});

describe('multipleOf a decimal step', () => {
  // 0.15 / 0.05 is 2.9999999999999996 in binary: a service that sends 0.15 is right.
  it.each([[{ price: 0.15 }], [{ price: 0.7, lines: [0.3, 0.7, 1.1] }], [{ price: 19.95 }]])(
    'accepts %j',
    async (body) => {
      expect(
        await findingsFor(await loadSpec(specFile('decimal-multiple.yaml')), '/thing', body),
      ).toEqual([]);
    },
  );
  it.each([[{ price: 0.16 }], [{ price: 0.15, lines: [0.3, 0.35] }], [{ price: 0.1501 }]])(
    'rejects %j',
    async (body) => {
      expect(
        await findingsFor(await loadSpec(specFile('decimal-multiple.yaml')), '/thing', body),
      ).not.toEqual([]);
    },
  );
});

describe('a status the operation does not declare', () => {
  it('names what is declared, or none, never an empty list', async () => {
    const validator = await createResponseValidator(
      await loadSpec(specFile('oas31-type-null.yaml')),
    );
    // /thing declares a GET only, and no 405: another method's answer has no declared status.
    const [finding] = validator.validate('DELETE', '/thing', {
      status: 405,
      headers: { 'content-type': 'application/problem+json' },
      body: {},
    });
    expect(finding?.message).toBe('Status 405 is not declared for GET /thing (declared: none)');
  });
});

/**
 * OpenAPI 3.1 §4.8.16: a response code may be a range (`4XX`) or `default`. A 422 answered where
 * the operation declares only those was "not declared" before.
 */
describe('responses declared by range and by default', () => {
  const problem = { 'content-type': 'application/problem+json' };
  const judged = async (path: string, status: number, body: unknown) =>
    (await createResponseValidator(await loadSpec(specFile('error-ranges.yaml')))).validate(
      'GET',
      path,
      { status, headers: problem, body },
    );

  it.each([['/ranged'], ['/defaulted']])('%s takes a 422 whose body fits', async (path) => {
    expect(await judged(path, 422, { title: 'Unprocessable' })).toEqual([]);
  });
  it.each([['/ranged'], ['/defaulted']])('%s holds that 422 to its schema', async (path) => {
    expect(await judged(path, 422, { detail: 'no title' })).not.toEqual([]);
  });
  it('a status neither listed nor in a listed range is not declared', async () => {
    expect((await judged('/ranged', 500, {})).map((finding) => finding.code)).toEqual(['status']);
    expect((await judged('/exact', 422, {})).map((finding) => finding.code)).toEqual(['status']);
  });
});
