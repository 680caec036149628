/**
 * @module The HTTP rules every client relies on: methods and HEAD (RFC 9110), the bearer
 * challenge and scheme (RFC 6750, RFC 9110 §11), content negotiation (RFC 9110 §12.5.1), and the
 * rules every single answer must keep (JSON bodies, RFC 9457 problems).
 */
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import { describeResponse, failureOf, statusOf } from '../describe-exchange.ts';
import { rawHead } from '../raw-head.ts';
import type { Decided } from '../stand-in.ts';
import type { Exchange, TargetRequest } from '../target-client.ts';

const RESOURCES = (context: CheckContext): string[] => {
  const id = String(context.learned.ids[0] ?? 1);
  return ['/v1/stock', `/v1/stock/${id}`, '/v1/products', `/v1/products/${id}`];
};

/** A JSON media type: `application/json` or a `+json` suffix, with any parameters. */
export const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** Whether a WWW-Authenticate value holds a Bearer challenge (the scheme in any case). */
export function hasBearerChallenge(value: string | undefined): boolean {
  return value !== undefined && /(^|,)\s*bearer(\s|,|$)/i.test(value);
}

/** Whether an Allow header lists GET. */
function allowsGet(allow: string | undefined): boolean {
  return /(^|,)\s*GET\s*(,|$)/.test(allow ?? '');
}

/** What an answer breaks of the rules that hold for every answer, whatever was asked. */
export function answerRuleFindings(exchange: Exchange): string[] {
  if (exchange.kind === 'no-response') return [];
  const { status, headers, body } = exchange.response;
  const findings: string[] = [];
  if (status >= 500)
    findings.push(`a server error (${String(status)}) where the interface has an answer`);
  if (status < 200 || (status >= 300 && status < 400))
    findings.push(`an unexpected status ${String(status)}`);
  const type = headers['content-type'];
  if (body !== undefined && exchange.method !== 'HEAD') {
    if (type === undefined || !JSON_TYPE.test(type)) {
      findings.push(`the body is ${type ?? 'untyped'}, not JSON (interface: responses are JSON)`);
    } else if (typeof body === 'string') {
      findings.push(`the body claims ${type} but is not valid JSON`);
    }
  }
  if (status === 401 && !hasBearerChallenge(headers['www-authenticate'])) {
    findings.push(
      'a 401 without a Bearer challenge in WWW-Authenticate (RFC 6750 §3, RFC 9110 §11.6.1)',
    );
  }
  if (status === 405 && !allowsGet(headers['allow'])) {
    findings.push(
      `a 405 whose Allow header does not list GET (RFC 9110 §15.5.6): ${JSON.stringify(headers['allow'] ?? null)}`,
    );
  }
  if (type !== undefined && /^application\/problem\+json/i.test(type) && typeof body === 'object') {
    findings.push(...problemFindings(body, status));
  }
  return findings;
}

/** RFC 9457 §3.1: each member, where present, of its type; `status` the answer's own. */
function problemFindings(body: unknown, status: number): string[] {
  if (body === null || Array.isArray(body))
    return ['a problem body that is not a JSON object (RFC 9457 §3)'];
  const problem = body as Record<string, unknown>;
  const findings: string[] = [];
  if ('type' in problem && !isUriReference(problem['type'])) {
    findings.push(
      `problem type ${JSON.stringify(problem['type'])} is not a URI reference (RFC 9457 §3.1.1)`,
    );
  }
  if ('status' in problem && problem['status'] !== status) {
    findings.push(
      `problem status ${JSON.stringify(problem['status'])} is not the answer's ${String(status)} (RFC 9457 §3.1.2)`,
    );
  }
  for (const member of ['title', 'detail'] as const) {
    if (member in problem && typeof problem[member] !== 'string') {
      findings.push(`problem ${member} is not a string (RFC 9457 §3.1)`);
    }
  }
  return findings;
}

function isUriReference(value: unknown): boolean {
  if (typeof value !== 'string' || /[\s"<>\\^`{|}]/.test(value)) return false;
  try {
    new URL(value, 'http://base.invalid/');
    return true;
  } catch {
    return false;
  }
}

async function probe(
  context: CheckContext,
  requests: readonly TargetRequest[],
  judge: (exchange: Exchange) => string | undefined,
): Promise<Failure[]> {
  const exchanges = await Promise.all(requests.map((request) => context.client.request(request)));
  return exchanges.flatMap((exchange) => {
    const wrong = judge(exchange);
    return wrong === undefined ? [] : [failureOf(exchange, wrong)];
  });
}

const otherMethods: Check = {
  id: 'http.other-methods',
  title: 'POST, PUT, PATCH and DELETE get 405 with an Allow header that lists GET',
  level: 'interface',
  source: 'RFC 9110 §15.5.6',
  needs: [],
  async run(context) {
    const requests = RESOURCES(context).flatMap((path) =>
      ['POST', 'PUT', 'PATCH', 'DELETE'].map((method) => ({ method, path, as: context.primary })),
    );
    return found(
      await probe(context, requests, (exchange) => {
        if (statusOf(exchange) !== 405) return 'Another method is not answered 405';
        const allow = exchange.kind === 'response' ? exchange.response.headers['allow'] : undefined;
        return allowsGet(allow) ? undefined : 'The 405 has no Allow header listing GET';
      }),
    );
  },
};

const head: Check = {
  id: 'http.head',
  title: 'HEAD answers as GET does (status, content type), with no body',
  level: 'interface',
  source: 'RFC 9110 §9.3.2',
  needs: [],
  async run(context) {
    const unknown = `/v1/stock/${String(Math.max(0, ...context.learned.ids) + 1)}`;
    const cases: TargetRequest[] = [
      ...RESOURCES(context).map((path) => ({ path, as: context.primary })),
      { path: unknown, as: context.primary },
      { path: '/v1/stock', as: 'none' },
    ];
    const failures: Failure[] = [];
    for (const request of cases) {
      const get = await context.client.request(request);
      const sent = context.client.prepare(request);
      const answer = await rawHead(sent.url, sent.headers, context.client.timeoutMs);
      const described = `HEAD ${sent.url}`;
      const getType = get.kind === 'response' ? get.response.headers['content-type'] : undefined;
      if ('error' in answer) {
        failures.push({ message: `HEAD got no answer: ${answer.error}`, request: described });
      } else if (answer.status !== statusOf(get)) {
        failures.push({
          message: 'HEAD answers another status than GET',
          request: described,
          expected: describeResponse(get),
          actual: String(answer.status),
        });
      } else if (answer.trailing > 0) {
        failures.push({
          message: `HEAD sent ${String(answer.trailing)} bytes of body`,
          request: described,
          expected: 'no body',
        });
      } else if ((answer.headers['content-type'] ?? '') !== (getType ?? '')) {
        failures.push({
          message: 'HEAD answers another content type than GET',
          request: described,
          expected: getType ?? '(none)',
          actual: answer.headers['content-type'] ?? '(none)',
        });
      }
    }
    return found(failures);
  },
};

const authScheme: Check = {
  id: 'http.auth-scheme',
  title: 'The bearer scheme is read in any case and after one or more spaces',
  level: 'interface',
  source: 'RFC 9110 §11.1, §11.4; RFC 6750 §2.1',
  needs: [],
  async run(context) {
    const requests = ['bearer ', 'BEARER ', 'Bearer  ', 'bEaReR '].map((scheme) => ({
      path: '/v1/stock?limit=1',
      as: context.primary,
      scheme,
    }));
    return found(
      await probe(context, requests, (exchange) =>
        statusOf(exchange) === 200
          ? undefined
          : 'A valid token in another spelling of the scheme is refused',
      ),
    );
  },
};

const missingToken: Check = {
  id: 'http.missing-token',
  title: 'No token, or an unknown one, gets 401 with a Bearer challenge',
  level: 'interface',
  source: 'RFC 6750 §3, §3.1; RFC 9110 §15.5.2',
  needs: [],
  async run(context) {
    const requests: TargetRequest[] = RESOURCES(context).flatMap((path) => [
      { path, as: 'none' as const },
      { path, as: 'wrong' as const },
    ]);
    return found(
      await probe(context, requests, (exchange) => {
        if (statusOf(exchange) !== 401)
          return 'A request without a valid token is not answered 401';
        const challenge =
          exchange.kind === 'response' ? exchange.response.headers['www-authenticate'] : undefined;
        return hasBearerChallenge(challenge)
          ? undefined
          : 'The 401 has no Bearer challenge in WWW-Authenticate';
      }),
    );
  },
};

const challengeAsStandIn: Check = {
  id: 'http.bearer-realm',
  title:
    'The 401 challenge is `Bearer realm="…"` with the stand-in\'s realm, and error="invalid_token" for a given token; another scheme counts as none',
  level: 'stand-in',
  source: 'PRODUCT.md: missing or invalid token',
  needs: [],
  async run(context) {
    const realm = `Bearer realm="${context.standIn.settings.realm}"`;
    const requests: TargetRequest[] = [
      { path: '/v1/stock', as: 'none' },
      { path: '/v1/stock', as: 'wrong' },
      { path: '/v1/stock', as: 'none', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    ];
    const realms = new Set<string>();
    const failures = await probe(context, requests, (exchange) => {
      const challenge =
        exchange.kind === 'response' ? exchange.response.headers['www-authenticate'] : undefined;
      const named = /^Bearer realm="([^"]*)"/.exec(challenge ?? '')?.[1];
      if (named !== undefined) realms.add(named);
      const want = exchange.as === 'wrong' ? `${realm}, error="invalid_token"` : realm;
      return statusOf(exchange) === 401 && challenge === want
        ? undefined
        : `The challenge differs from the stand-in's: it answers 401 with WWW-Authenticate: ${want}`;
    });
    // The realm a target names, where it names one throughout: the setting that matches it.
    const [named] = realms;
    const decided: Decided[] =
      realms.size === 1 && named !== undefined && named !== ''
        ? [{ setting: 'realm', value: named, seen: `the bearer realm is "${named}"` }]
        : [];
    return { failures, decided };
  },
};

/** Accept values that admit JSON: parameters such as charset never exclude it (§12.5.1). */
const ADMITS_JSON = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; v=1',
  '*/*; charset=utf-8',
  'application/*',
  '*/*',
  'text/html, application/json;q=0.9',
];

const acceptAdmitsJson: Check = {
  id: 'http.accept-admits-json',
  title: 'Any Accept that admits JSON, whatever its parameters, is served JSON',
  level: 'interface',
  source: 'RFC 9110 §12.5.1; interface: Authentication (Accept: application/json)',
  needs: [],
  async run(context) {
    const requests = ADMITS_JSON.map((accept) => ({
      path: '/v1/stock?limit=1',
      as: context.primary,
      headers: { accept },
    }));
    return found(
      await probe(context, requests, (exchange) => {
        const type =
          exchange.kind === 'response' ? exchange.response.headers['content-type'] : undefined;
        return statusOf(exchange) === 200 && JSON_TYPE.test(type ?? '')
          ? undefined
          : 'An Accept that admits JSON is not served JSON';
      }),
    );
  },
};

const acceptWithoutJson: Check = {
  id: 'http.accept-without-json',
  title: 'An Accept without JSON gets 406, or JSON regardless',
  level: 'interface',
  source: 'RFC 9110 §12.5.1, §15.5.7',
  needs: [],
  async run(context) {
    const requests = ['text/html', 'application/xml'].map((accept) => ({
      path: '/v1/stock?limit=1',
      as: context.primary,
      headers: { accept },
    }));
    return found(
      await probe(context, requests, (exchange) => {
        const status = statusOf(exchange);
        const type =
          exchange.kind === 'response' ? exchange.response.headers['content-type'] : undefined;
        return status === 406 || (status === 200 && JSON_TYPE.test(type ?? ''))
          ? undefined
          : 'An Accept without JSON gets neither 406 nor JSON';
      }),
    );
  },
};

const notAcceptableAsStandIn: Check = {
  id: 'http.accept-without-json-406',
  title: 'An Accept without JSON gets what the stand-in answers: 406, unless it ignores Accept',
  level: 'stand-in',
  source: 'PRODUCT.md: Accept',
  needs: [],
  async run(context) {
    const path = `/v1/products/${String(context.learned.ids[0] ?? 1)}`;
    const requests = ['text/html', 'application/xml'].map((accept) => ({
      path,
      as: context.primary,
      headers: { accept },
    }));
    const want = context.standIn.settings.accept;
    const outcomes = new Set<string>();
    const failures = await probe(context, requests, (exchange) => {
      const status = statusOf(exchange);
      const type =
        exchange.kind === 'response' ? exchange.response.headers['content-type'] : undefined;
      const answer =
        status === 406 ? 'negotiate' : status === 200 && JSON_TYPE.test(type ?? '') ? 'ignore' : '';
      outcomes.add(answer);
      if (answer === want) return undefined;
      return want === 'negotiate'
        ? 'An Accept without JSON is served anyway; the stand-in answers 406'
        : 'An Accept without JSON is refused; the stand-in serves JSON whatever the Accept';
    });
    const [answer] = outcomes;
    const decided: Decided[] =
      outcomes.size === 1 && answer !== undefined && answer !== ''
        ? [
            {
              setting: 'accept',
              value: answer,
              seen:
                answer === 'negotiate'
                  ? 'an Accept without JSON gets 406'
                  : 'an Accept without JSON is served JSON',
            },
          ]
        : [];
    return { failures, decided };
  },
};

export const httpRuleChecks: readonly Check[] = [
  otherMethods,
  head,
  authScheme,
  missingToken,
  challengeAsStandIn,
  acceptAdmitsJson,
  acceptWithoutJson,
  notAcceptableAsStandIn,
];
