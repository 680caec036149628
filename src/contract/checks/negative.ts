/** @module Bad requests get the 4xx the spec declares: never 2xx, never 5xx. */
import type { Check, CheckContext, Failure } from '../check.ts';
import { failureOf } from '../describe-exchange.ts';
import type { TargetRequest } from '../target-client.ts';

interface Probe {
  readonly request: TargetRequest;
  /** The status the interface's rules give; `4xx` where any client error will do. */
  readonly expected: number | '4xx';
}

async function runProbes(context: CheckContext, probes: readonly Probe[]): Promise<Failure[]> {
  const results = await Promise.all(
    probes.map(async ({ request, expected }): Promise<Failure[]> => {
      const exchange = await context.client.request(request);
      const status = exchange.kind === 'response' ? exchange.response.status : undefined;
      const ok =
        status !== undefined &&
        (expected === '4xx' ? status >= 400 && status < 500 : status === expected);
      return ok
        ? []
        : [failureOf(exchange, 'A bad request was not refused as it should be', String(expected))];
    }),
  );
  return results.flat();
}

function probeCheck(id: string, title: string, probes: (context: CheckContext) => Probe[]): Check {
  return { id, title, needs: [], run: (context) => runProbes(context, probes(context)) };
}

const BAD_VALUES: readonly [string, string][] = [
  ['limit', '0'],
  ['limit', '101'],
  ['limit', '-1'],
  ['limit', 'ten'],
  ['limit', '1.5'],
  ['page', '0'],
  ['page', '-1'],
  ['page', 'x'],
  ['page', '1051943401723672539'],
  ['status', 'sold'],
  ['id', 'abc'],
  ['id', '0'],
];

export const negativeChecks: readonly Check[] = [
  probeCheck('negative.invalid-parameters', 'Invalid parameter values give 400', (context) => [
    ...BAD_VALUES.map(([name, value]) => ({
      request: { path: `/v1/stock?${name}=${encodeURIComponent(value)}`, as: context.primary },
      expected: 400,
    })),
    {
      request: { path: '/v1/stock?status=available&status=incoming', as: context.primary },
      expected: 400,
    },
    { request: { path: '/v1/products?limit=101', as: context.primary }, expected: 400 },
  ]),
  probeCheck('negative.unknown-parameters', 'Unknown query parameters give 400', (context) => [
    { request: { path: '/v1/stock?stauts=available', as: context.primary }, expected: 400 },
    { request: { path: '/v1/products?status=available', as: context.primary }, expected: 400 },
  ]),
  probeCheck('negative.bad-ids', 'A path id that is not a positive integer gives 400', (context) =>
    ['0', '-1', 'abc', '1.5'].flatMap((id) => [
      { request: { path: `/v1/stock/${id}`, as: context.primary }, expected: 400 },
      { request: { path: `/v1/products/${id}`, as: context.primary }, expected: 400 },
    ]),
  ),
  probeCheck('negative.missing-token', 'No token gives 401', () =>
    ['/v1/stock', '/v1/stock/1', '/v1/products', '/v1/products/1'].map((path) => ({
      request: { path, as: 'none' as const },
      expected: 401,
    })),
  ),
  probeCheck('negative.wrong-token', 'An unknown token gives 401', () =>
    ['/v1/stock', '/v1/products/1'].map((path) => ({
      request: { path, as: 'wrong' as const },
      expected: 401,
    })),
  ),
  probeCheck('negative.not-acceptable', 'An Accept that excludes JSON gives 406', (context) => [
    {
      request: { path: '/v1/stock', as: context.primary, headers: { accept: 'text/html' } },
      expected: 406,
    },
    {
      request: {
        path: '/v1/products/1',
        as: context.primary,
        headers: { accept: 'application/xml' },
      },
      expected: 406,
    },
  ]),
  probeCheck('negative.other-methods', 'Other methods give 405', (context) =>
    ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({
      request: { method, path: '/v1/stock', as: context.primary },
      expected: 405,
    })),
  ),
];
