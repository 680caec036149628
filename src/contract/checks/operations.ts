/**
 * Checks of the read operations that declare no data (../operations.ts): the service's own
 * data answers them, so only what the spec says is judged: a declared status, headers and body
 * as the spec describes them, the rules of every answer, and required query parameters that
 * are required. Writes are never sent.
 */
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import type { ExampleOperation, WriteOperation } from '../operations.ts';
import type { Credentials, Exchange } from '../target-client.ts';
import type { ResponseValidator } from '../../spec/response-validator.ts';
import { answerRuleFindings } from './http-rules.ts';

/** Whether an operation declares a status: exactly, by its range (`4XX`), or by `default`. */
function declaresStatus(statuses: ReadonlySet<string>, status: number): boolean {
  return (
    statuses.has(String(status)) ||
    statuses.has(`${String(status).charAt(0)}XX`) ||
    statuses.has('default')
  );
}

/** Who asks: the first token given where one is needed (undefined if none was), else no one. */
function credentialsFor(context: CheckContext, needsToken: boolean): Credentials | undefined {
  return needsToken ? context.holders[0] : 'none';
}

/** The path with one query parameter left out. */
function without(path: string, name: string): string {
  const [bare = '', search = ''] = path.split('?', 2);
  const query = new URLSearchParams(search);
  query.delete(name);
  const rest = query.toString();
  return rest === '' ? bare : `${bare}?${rest}`;
}

/**
 * Rule: the spec's statuses, headers and bodies hold for every operation it declares, not only
 * for those a stand-in serves from data. Breaks it: a body outside its schema (an enum value, a
 * pattern, a minimum, a date as a date-time), an undeclared status, an open operation that
 * asks for a token, a required parameter that is not (200 without it), a problem whose status
 * is not the answer's. Each such GET, with its parameters' own examples, and once without each
 * required query parameter.
 */
export function operationChecks(
  operations: readonly ExampleOperation[],
  validator: () => ResponseValidator,
): Check[] {
  return operations.map((operation) => ({
    id: `operations.${operation.template}`,
    title: `${operation.template}: a status the spec declares, headers and body as it describes them; required query parameters are required`,
    level: 'interface',
    source: `the spec: GET ${operation.template}`,
    needs: [],
    async run(context) {
      const as = credentialsFor(context, operation.needsToken);
      if (as === undefined)
        return { failures: [], skipped: 'it needs a token, and none was given' };
      const judged = (exchange: Exchange): Failure[] => {
        const status = statusOf(exchange);
        if (exchange.kind === 'no-response' || status === undefined) {
          return [failureOf(exchange, 'No answer')];
        }
        const wrong = answerRuleFindings(exchange);
        if (!operation.needsToken && (status === 401 || status === 403)) {
          wrong.push(`Open by the spec (no security), but answered ${String(status)}`);
        }
        if (!declaresStatus(operation.statuses, status)) {
          wrong.push(
            `Status ${String(status)} is not declared (declared: ${[...operation.statuses].join(', ') || 'none'})`,
          );
        } else {
          const pathname = operation.path.split('?', 1)[0] ?? operation.path;
          for (const finding of validator().validate('GET', pathname, exchange.response)) {
            wrong.push(`${finding.path === '' ? '' : `${finding.path}: `}${finding.message}`);
          }
        }
        return wrong.map((message) => failureOf(exchange, message));
      };
      const failures = judged(await context.client.request({ path: operation.path, as }));
      for (const name of operation.required) {
        const exchange = await context.client.request({ path: without(operation.path, name), as });
        const status = statusOf(exchange) ?? 0;
        if (status < 400 || status >= 500) {
          failures.push(
            failureOf(exchange, `Without the required query parameter ${name}, not answered 4xx`),
          );
        } else {
          failures.push(...judged(exchange));
        }
      }
      return found(failures);
    },
  }));
}

/**
 * Rule: a write the spec declares answers as it says: its example body gets a declared status,
 * headers and body as described (a 201's required `Location`, a 204's empty body); a body its
 * schema refuses gets a 4xx the spec declares; without a token, a 401 with a challenge. Breaks
 * it: 200 for 201, a missing required header, a refused body accepted, an error as plain JSON,
 * an extra member where none is allowed. Only under `--writes`: these requests change data.
 */
export function writeChecks(
  writes: readonly WriteOperation[],
  validator: () => ResponseValidator,
): Check[] {
  return writes.map((write) => ({
    id: `writes.${write.template}.${write.method.toLowerCase()}`,
    title: `${write.method} ${write.template}: its example answered as the spec declares; a body its schema refuses is a declared 4xx`,
    level: 'interface',
    source: `the spec: ${write.method} ${write.template} (asked under --writes)`,
    needs: [],
    async run(context) {
      const as = credentialsFor(context, write.needsToken);
      if (as === undefined)
        return { failures: [], skipped: 'it needs a token, and none was given' };
      const pathname = write.path.split('?', 1)[0] ?? write.path;
      const send = (body: unknown, who: typeof as = as) =>
        context.client.request({
          method: write.method,
          path: write.path,
          as: who,
          ...(body === undefined
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        });
      const judged = (exchange: Exchange, expect: (status: number) => string | undefined) => {
        const status = statusOf(exchange);
        if (exchange.kind === 'no-response' || status === undefined) {
          return [failureOf(exchange, 'No answer')];
        }
        const wrong = answerRuleFindings(exchange);
        const expected = expect(status);
        if (expected !== undefined) wrong.push(expected);
        else if (!declaresStatus(write.statuses, status)) {
          wrong.push(
            `Status ${String(status)} is not declared (declared: ${[...write.statuses].join(', ') || 'none'})`,
          );
        } else {
          for (const finding of validator().validate(write.method, pathname, exchange.response)) {
            wrong.push(`${finding.path === '' ? '' : `${finding.path}: `}${finding.message}`);
          }
        }
        return wrong.map((message) => failureOf(exchange, message));
      };
      const failures = judged(await send(write.body), (status) =>
        status >= 200 && status < 300 ? undefined : `The spec's own example is not a 2xx`,
      );
      for (const invalid of write.invalidBodies) {
        failures.push(
          ...judged(await send(invalid.body), (status) =>
            status >= 400 && status < 500 ? undefined : `A body ${invalid.why} is not a 4xx`,
          ),
        );
      }
      if (write.needsToken) {
        failures.push(
          ...judged(await send(write.body, 'none'), (status) =>
            status === 401 ? undefined : 'Without a token, not a 401',
          ),
        );
      }
      return found(failures);
    },
  }));
}
