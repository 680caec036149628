/** @module Bad parameters: refused with a 4xx, never a 2xx or a 5xx; the stand-in's exact 400s. */
import type { Check, CheckContext, Failure } from '../check.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import type { Decided, StandInSettings } from '../stand-in.ts';
import type { Exchange } from '../target-client.ts';

/** Values the interface makes invalid: not integers, below the minimum, not a status. */
const INVALID: readonly [string, string][] = [
  ['limit', '0'],
  ['limit', '-1'],
  ['limit', 'ten'],
  ['limit', '1.5'],
  ['page', '0'],
  ['page', '-1'],
  ['page', 'x'],
  ['status', 'sold'],
  ['id', 'abc'],
  ['id', '0'],
];

/** Values the interface leaves to the service: PRODUCT.md refuses them with 400. */
const REFUSED_BY_STAND_IN: readonly string[] = [
  // A status in another case is not one of the values (the stand-in matches them exactly).
  'status=AVAILABLE',
  'limit=101',
  'page=1051943401723672539',
  'status=available&status=incoming',
  'status=incoming&status=incoming',
  // Integers as lenient readers take them: a sign, an exponent, hex, a space.
  'limit=%2B5',
  'limit=5e0',
  'page=0x2',
  'page=%202',
  // An empty value is no integer and no status; services that read it as absent are common.
  'id=',
  'limit=',
  'page=',
  'status=',
];

/**
 * A typo, a filter the list does not have, and a declared name in another case. At the
 * interface level each is ignored or refused: conformance.interface fails a 5xx to any request.
 */
const UNKNOWN = [
  '/v1/stock?stauts=available',
  '/v1/products?status=available',
  '/v1/stock?LIMIT=5',
];

async function ask(context: CheckContext, paths: readonly string[]): Promise<Exchange[]> {
  return Promise.all(paths.map((path) => context.client.request({ path, as: context.primary })));
}

/** The parameter names a 400's `errors` member names. */
function namedParameters(exchange: Exchange): string[] {
  if (exchange.kind !== 'response') return [];
  const errors = (exchange.response.body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors)
    ? errors.map((error) => String((error as { parameter?: unknown } | null)?.parameter))
    : [];
}

/** Whether a 400 has an `errors` member at all. */
function listsErrors(exchange: Exchange): boolean {
  return exchange.kind === 'response' && hasErrors(exchange.response.body);
}

function hasErrors(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'errors' in body;
}

/**
 * A stand-in 400: the status, and `errors` naming the parameter, or no `errors` at all where
 * the stand-in omits it.
 */
function refusedAsStandIn(
  exchange: Exchange,
  parameter: string,
  what: string,
  errors: StandInSettings['parameterErrors'],
): Failure[] {
  if (statusOf(exchange) !== 400) {
    return [failureOf(exchange, `${what} is not a 400, as the stand-in answers`, '400 problem')];
  }
  if (errors === 'omitted') {
    return listsErrors(exchange)
      ? [failureOf(exchange, "The 400 has an `errors` member; the stand-in's has none")]
      : [];
  }
  if (!namedParameters(exchange).includes(parameter)) {
    return [
      failureOf(
        exchange,
        `The 400's \`errors\` does not name ${parameter}, as the stand-in's does`,
        `errors: [{parameter: "${parameter}", in, message}]`,
      ),
    ];
  }
  return [];
}

/**
 * Rule (PRODUCT.md): a bad value, a limit above 100 and a repeated parameter are a 400 naming
 * each in `errors`. Breaks it: clamping, the last value winning, a status in another case
 * accepted, only the first bad parameter named.
 */
const invalidAsStandIn: Check = {
  id: 'negative.invalid-parameters-400',
  title:
    'Invalid values, a limit above 100 and a repeated parameter get 400 naming each in `errors` (or without `errors`, where the stand-in omits it)',
  level: 'stand-in',
  source: 'PRODUCT.md: invalid parameter values; error body',
  needs: [],
  async run(context) {
    const queries = [
      ...INVALID.map(([name, value]) => `${name}=${encodeURIComponent(value)}`),
      ...REFUSED_BY_STAND_IN,
    ];
    const exchanges = await ask(
      context,
      queries.map((query) => `/v1/stock?${query}`),
    );
    const errors = context.standIn.settings.parameterErrors;
    // Two bad values at once: `errors` names each of them, not only the first.
    const [both] = await ask(context, ['/v1/stock?limit=0&page=0']);
    const named = both === undefined ? [] : namedParameters(both);
    const missing = ['limit', 'page'].filter((name) => !named.includes(name));
    const twice =
      errors === 'listed' && both !== undefined && statusOf(both) === 400 && missing.length > 0
        ? [
            failureOf(
              both,
              `The 400's \`errors\` does not name ${missing.join(' and ')}; the stand-in's names each bad parameter`,
            ),
          ]
        : [];
    const failures = exchanges
      .flatMap((exchange, index) => {
        const parameter = (queries[index] ?? '').split('=')[0] ?? '';
        return refusedAsStandIn(exchange, parameter, queries[index] ?? '', errors);
      })
      .concat(twice);
    // Whether its 400s list their parameters: the setting that matches, where all agree.
    const refused = [...exchanges, ...(both === undefined ? [] : [both])].filter(
      (exchange) => statusOf(exchange) === 400,
    );
    const listing = new Set(refused.map(listsErrors));
    const decided: Decided[] =
      listing.size === 1
        ? listing.has(true)
          ? [
              {
                setting: 'parameterErrors',
                value: 'listed',
                seen: 'a 400 lists its bad parameters in `errors`',
              },
            ]
          : [{ setting: 'parameterErrors', value: 'omitted', seen: 'a 400 has no `errors` member' }]
        : [];
    return { failures, decided };
  },
};

/**
 * Rule (PRODUCT.md): an unknown query parameter is a 400 naming it, unless the stand-in ignores
 * them. Breaks it: a typo such as `stauts` silently ignored.
 */
const unknownAsStandIn: Check = {
  id: 'negative.unknown-parameters-400',
  title:
    'An unknown query parameter gets 400 naming it (catches typos such as `stauts`), unless the stand-in ignores them',
  level: 'stand-in',
  source: 'PRODUCT.md: unknown query parameters',
  needs: [],
  async run(context) {
    const exchanges = await ask(context, UNKNOWN);
    const { unknownQueryParameters: want, parameterErrors } = context.standIn.settings;
    const statuses = new Set(exchanges.map(statusOf));
    const decided =
      statuses.size === 1 && statuses.has(400)
        ? 'reject'
        : statuses.size === 1 && statuses.has(200)
          ? 'ignore'
          : undefined;
    const seen =
      decided === 'reject'
        ? 'an unknown query parameter is refused with a 400'
        : decided === 'ignore'
          ? 'an unknown query parameter is ignored'
          : `an unknown query parameter gets ${[...statuses].join(', ')}`;
    const failures =
      want === 'ignore'
        ? exchanges
            .filter((exchange) => statusOf(exchange) !== 200)
            .map((exchange) =>
              failureOf(
                exchange,
                'An unknown parameter is refused; the stand-in ignores it',
                '200',
              ),
            )
        : exchanges.flatMap((exchange, index) => {
            const parameter = (UNKNOWN[index] ?? '').replace(/^.*\?|=.*$/g, '');
            return refusedAsStandIn(
              exchange,
              parameter,
              `The unknown parameter ${parameter}`,
              parameterErrors,
            );
          });
    return {
      failures,
      observed: seen,
      decided:
        decided === undefined
          ? [{ uncovered: seen }]
          : [{ setting: 'unknownQueryParameters', value: decided, seen }],
    };
  },
};

export const negativeChecks: readonly Check[] = [invalidAsStandIn, unknownAsStandIn];
