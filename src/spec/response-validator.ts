/**
 * @module Judges a recorded HTTP response against the spec.
 *
 * With example-answers.ts, the only importer of @stoplight/prism-http and fp-ts: the rest of
 * stockmock sees `Finding[]`.
 * Prism's `validateOutput` is not re-exported from the package index, so it is imported from its
 * module path (the package has no `exports` map, so the path resolves); the choice stays here.
 */
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { LoadedSpec } from './load-spec.ts';
import { prismDocument } from './prism-document.ts';
import { pathPattern } from './path-pattern.ts';
import { decimalsOf } from '../util/decimals.ts';
import { matchPrismPatternsInLinearTime } from './prism-patterns.ts';

matchPrismPatternsInLinearTime();

/** One thing wrong with a response, shaped like Prism's diagnostics. */
export interface Finding {
  readonly code: string;
  readonly message: string;
  /** Where in the response: `body.data.0.status`, `header.allow`, `status`. */
  readonly path: string;
}

export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON for JSON media types, else the text; undefined when there was none (HEAD). */
  readonly body: unknown;
}

export interface ResponseValidator {
  /** Everything the spec says is wrong with this response to `method path`; empty if none. */
  validate(method: string, path: string, response: RecordedResponse): Finding[];
}

type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/**
 * Builds a validator for a spec. A method the spec does not give for a known path is judged as
 * the spec's 405 response; a path the spec does not have, as its 404 response (where it declares
 * none, not at all).
 */
export async function createResponseValidator(spec: LoadedSpec): Promise<ResponseValidator> {
  const operations = await getHttpOperationsFromSpec(structuredClone(prismDocument(spec)));
  const routes = operations.map((operation) => ({
    operation,
    pattern: pathPattern(operation.path),
  }));
  const withResponse = (code: string) =>
    operations.find((operation) => operation.responses.some((response) => response.code === code));

  return {
    validate(method, path, response) {
      const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
      const onPath = routes.filter((route) => route.pattern.test(path));
      const exact = onPath.find((route) => route.operation.method === verb)?.operation;
      let operation: Operation | undefined;
      if (exact !== undefined) operation = exact;
      else if (onPath.length > 0) operation = restrictTo(onPath[0]?.operation, '405');
      else {
        const notFound = withResponse('404');
        // A path the spec does not have, in a spec that declares no 404 anywhere: the spec says
        // nothing of that answer, so nothing in it can disagree with the spec.
        if (notFound === undefined) return [];
        operation = restrictTo(notFound, '404');
      }
      if (operation === undefined) {
        return [
          {
            code: 'no-operation',
            message: `The spec has no response for ${method} ${path}`,
            path: 'status',
          },
        ];
      }
      if (method.toLowerCase() === 'head') operation = withoutBodies(operation);
      return judge(operation, response);
    },
  };
}

/**
 * The response an operation declares for a status: its own code, else its range (`4XX`), else
 * `default` (OpenAPI 3.1 §4.8.16), as Prism's validator picks it.
 */
function declaredResponse(
  operation: Operation,
  status: number,
): Operation['responses'][number] | undefined {
  const code = String(status);
  const range = `${code[0] ?? ''}XX`;
  return (
    operation.responses.find((declared) => declared.code === code) ??
    operation.responses.find((declared) => declared.code.toUpperCase() === range) ??
    operation.responses.find((declared) => declared.code === 'default')
  );
}

function judge(operation: Operation, response: RecordedResponse): Finding[] {
  const findings: Finding[] = [];
  if (declaredResponse(operation, response.status) === undefined) {
    const declared = operation.responses.map((r) => r.code).join(', ') || 'none';
    findings.push({
      code: 'status',
      message: `Status ${String(response.status)} is not declared for ${operation.method.toUpperCase()} ${operation.path} (declared: ${declared})`,
      path: 'status',
    });
    return findings;
  }
  const mediaType = mediaTypeFinding(operation, response);
  if (mediaType !== undefined) findings.push(mediaType);
  const result = validateOutput({
    resource: operation,
    element: { statusCode: response.status, headers: { ...response.headers }, body: response.body },
  });
  if (isLeft(result)) {
    for (const diagnostic of result.left) {
      // Told once, by the exact comparison below.
      if (mediaType !== undefined && diagnostic.message.startsWith('The received media type')) {
        continue;
      }
      if (diagnostic.code === 'multipleOf' && isDecimalMultiple(diagnostic, response.body))
        continue;
      findings.push({
        code: String(diagnostic.code ?? 'invalid'),
        message: diagnostic.message,
        path: (diagnostic.path ?? []).join('.'),
      });
    }
  }
  return findings;
}

/**
 * Whether a value Prism's validator calls no multiple of its step is one as written: its Ajv
 * divides in binary, where 0.15 / 0.05 is 2.9999999999999996, and failed a service that sent
 * 0.15. Both are read as the decimals JSON wrote them, and compared in whole units.
 */
function isDecimalMultiple(
  diagnostic: { readonly message: string; readonly path?: readonly (string | number)[] },
  body: unknown,
): boolean {
  const step = Number(/must be multiple of (\S+)$/.exec(diagnostic.message)?.[1]);
  const [where, ...path] = diagnostic.path ?? [];
  let value: unknown = body;
  for (const segment of path) {
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)[segment]
        : undefined;
  }
  if (where !== 'body' || typeof value !== 'number' || !(step > 0)) return false;
  const decimals = Math.max(decimalsOf(value), decimalsOf(step));
  if (decimals > 15) return false;
  const [units, stepUnits] = [value, step].map((n) => Math.round(n * 10 ** decimals)) as [
    number,
    number,
  ];
  return Number.isSafeInteger(units) && Number.isSafeInteger(stepUnits) && units % stepUnits === 0;
}

/**
 * A body whose media type is not one the spec declares for its status. Prism reads
 * `application/json` as matching `application/problem+json`, so an error sent as plain JSON
 * passed; here the type (less its parameters, in any case) must be one declared, or match a
 * declared range (`application/*`, `*\/*`).
 */
function mediaTypeFinding(operation: Operation, response: RecordedResponse): Finding | undefined {
  const declared = declaredResponse(operation, response.status)?.contents?.map((content) =>
    content.mediaType.toLowerCase(),
  );
  if (declared === undefined || declared.length === 0 || response.body === undefined) {
    return undefined;
  }
  const received = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const matches = declared.some(
    (type) =>
      type === received ||
      type === '*/*' ||
      (type.endsWith('/*') && received?.startsWith(type.slice(0, -1)) === true),
  );
  if (matches) return undefined;
  return {
    code: 'invalid',
    message: `The received media type "${received ?? ''}" is not one the spec declares for ${String(response.status)}: ${declared.join(', ')}`,
    path: 'header.content-type',
  };
}

/** The operation as if it declared only the one response, for methods and paths it lacks. */
function restrictTo(operation: Operation | undefined, code: string): Operation | undefined {
  if (operation === undefined) return undefined;
  return {
    ...operation,
    responses: operation.responses.filter((response) => response.code === code),
  };
}

/** HEAD answers carry GET's headers and no body. */
function withoutBodies(operation: Operation): Operation {
  return {
    ...operation,
    responses: operation.responses.map((response) => ({ ...response, contents: [] })),
  };
}
