/**
 * @module The HTTP rules every client relies on: methods and HEAD (RFC 9110), the bearer
 * challenge and scheme (RFC 6750, RFC 9110 §11), content negotiation (RFC 9110 §12.5.1), and the
 * rules every single answer must keep (JSON bodies, RFC 9457 problems).
 */
import { SAFE_METHODS } from '../spec-methods.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { found } from '../check.ts';
import { describeResponse, failureOf, statusOf } from '../describe-exchange.ts';
import { rawHead, rawRequest } from '../raw-head.ts';
import type { Decided } from '../stand-in.ts';
import { pageOfSize, type Resource } from '../resources.ts';
import {
  levelName,
  type Exchange,
  type Holder,
  type TargetRequest,
  type TokenChange,
} from '../target-client.ts';

/** The first list served, and who reads it: where one request stands for all. */
function firstList(context: CheckContext): Resource | undefined {
  return context.resources.find((resource) => resource.kind === 'list');
}

/** The first list that takes a token: where the token checks ask. */
function guardedList(context: CheckContext): Resource | undefined {
  return context.resources.find((resource) => resource.kind === 'list' && resource.needsToken);
}

/** A list that takes a bearer token alone: the checks of how a bearer token is read. */
function bearerList(context: CheckContext): Resource | undefined {
  return context.resources.find((resource) => {
    if (resource.kind !== 'list' || !resource.needsToken) return false;
    const { places } = context.client.prepare({ path: resource.path, as: resource.as });
    return (
      places.length === 1 && places[0]?.kind === 'authorization' && places[0].scheme === 'bearer'
    );
  });
}

/** A check that needs a list, skipped with the reason where none can be read. */
function onList(
  pick: (context: CheckContext) => Resource | undefined,
  run: (context: CheckContext, list: Resource) => Promise<Findings>,
): (context: CheckContext) => Promise<Findings> {
  return async (context) => {
    const list = pick(context);
    return list === undefined
      ? { failures: [], skipped: 'no list the spec serves could be read with the tokens given' }
      : run(context, list);
  };
}

/** A JSON media type: `application/json` or a `+json` suffix, with any parameters. */
export const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** Whether a WWW-Authenticate value holds a challenge of the scheme (in any case). */
export function hasChallenge(value: string | undefined, scheme: string): boolean {
  if (value === undefined) return false;
  const name = scheme.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|,)\\s*${name}(\\s|,|$)`, 'i').test(value);
}

/**
 * What a 401 to this request lacks of its challenge: one of the scheme the spec secures the
 * operation with (RFC 9110 §11.6.1); none is asked of an API key, which no HTTP scheme names.
 */
export function challengeFinding(exchange: Exchange): string | undefined {
  if (exchange.kind !== 'response' || exchange.challenge === undefined) return undefined;
  const scheme = exchange.challenge;
  if (hasChallenge(exchange.response.headers['www-authenticate'], scheme)) return undefined;
  const named = `${scheme.charAt(0).toUpperCase()}${scheme.slice(1)}`;
  return scheme === 'bearer'
    ? 'a 401 without a Bearer challenge in WWW-Authenticate (RFC 6750 §3, RFC 9110 §11.6.1)'
    : `a 401 without a ${named} challenge in WWW-Authenticate, the scheme the spec secures it with (RFC 9110 §11.6.1)`;
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
  const challenge = status === 401 ? challengeFinding(exchange) : undefined;
  if (challenge !== undefined) findings.push(challenge);
  if (status === 405 && !allowsGet(headers['allow'])) {
    findings.push(
      `a 405 whose Allow header does not list GET (RFC 9110 §15.5.6): ${JSON.stringify(headers['allow'] ?? null)}`,
    );
  }
  if (type !== undefined && /^application\/problem\+json/i.test(type) && typeof body === 'object') {
    findings.push(...problemFindings(body, status));
  }
  if (exchange.as !== 'none' && sharedCacheReuses(headers)) {
    findings.push(
      `an answer to a request with a token that a shared cache may store and give to other tokens (Cache-Control: ${headers['cache-control'] ?? ''}; Vary: ${headers['vary'] ?? '(none)'}): mark it private, or vary it by Authorization (RFC 9111 §3.5, §4.1)`,
    );
  }
  return findings;
}

/**
 * Whether a shared cache may store an answer to a request with credentials and give it to a
 * request with other credentials: a directive lets it store the answer (RFC 9111 §3.5: public,
 * s-maxage, must-revalidate), none forbids it (private, no-store), and Vary does not name
 * Authorization (nor `*`), so the stored answer matches any token.
 */
function sharedCacheReuses(headers: Readonly<Record<string, string>>): boolean {
  const directives = (headers['cache-control'] ?? '')
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim().split('=')[0] ?? '');
  const stores = directives.some((name) =>
    ['public', 's-maxage', 'must-revalidate'].includes(name),
  );
  const forbids = directives.some((name) => name === 'private' || name === 'no-store');
  const varies = (headers['vary'] ?? '')
    .toLowerCase()
    .split(',')
    .some((name) => ['authorization', '*'].includes(name.trim()));
  return stores && !forbids && !varies;
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

/**
 * Rule: a method a resource does not support is a 405 naming what it does in Allow, and each
 * method Allow names is supported. Breaks it: POST answered like GET, a 404 or 401 instead, Allow
 * missing or naming a method that is itself a 405. Every list and item served.
 */
const otherMethods: Check = {
  id: 'http.other-methods',
  title:
    'POST, PUT, PATCH and DELETE, where the spec declares none, get 405 with an Allow header that lists GET; no method Allow names is itself answered 405; a plain OPTIONS is answered',
  level: 'interface',
  source: 'RFC 9110 §15.5.6',
  needs: [],
  async run(context) {
    // A method the spec declares is the service's to answer, and a write is never sent.
    const requests = context.resources.flatMap(({ path, as }) =>
      ['POST', 'PUT', 'PATCH', 'DELETE']
        .filter((method) => !context.declaredAt(path).has(method))
        .map((method) => ({ method, path, as })),
    );
    const allowed = new Map<string, string>();
    const refused = new Map<string, Exchange>();
    const failures = await probe(context, requests, (exchange) => {
      if (statusOf(exchange) !== 405) return 'Another method is not answered 405';
      const pathname = new URL(exchange.url).pathname;
      refused.set(`${exchange.method} ${pathname}`, exchange);
      const allow = exchange.kind === 'response' ? exchange.response.headers['allow'] : undefined;
      for (const method of (allow ?? '').split(',').map((m) => m.trim().toUpperCase())) {
        if (method !== '') allowed.set(`${method} ${pathname}`, method);
      }
      return allowsGet(allow) ? undefined : 'The 405 has no Allow header listing GET';
    });
    // Each method an Allow header names is one the resource supports (RFC 9110 §10.2.1): it
    // must not itself be answered 405. A method refused above is known to be; a safe one is
    // tried; a write is never sent, as it could change the service's data.
    for (const [key, method] of allowed) {
      const answered = refused.get(key);
      if (answered !== undefined) {
        failures.push(
          failureOf(answered, `${method} is named in Allow but answered 405 (RFC 9110 §10.2.1)`),
        );
      }
    }
    const named = [...allowed]
      .filter(([key, method]) => SAFE_METHODS.has(method) && !refused.has(key))
      .map(([key, method]) => {
        const path = key.slice(method.length + 1);
        const as = context.resources.find((resource) => path.endsWith(resource.path))?.as;
        return { method, path, as: as ?? ('none' as const) };
      });
    failures.push(
      ...(await probe(context, named, (exchange) =>
        statusOf(exchange) === 405
          ? `${exchange.method} is named in Allow but answered 405 (RFC 9110 §10.2.1)`
          : undefined,
      )),
    );
    // A plain OPTIONS, with a token and without: any answer but a 5xx (conformance.interface).
    const [first] = context.resources;
    if (first !== undefined) {
      const options = [first.as, 'none' as const].map((as) => ({
        method: 'OPTIONS',
        path: first.path,
        as,
      }));
      await probe(context, options, () => undefined);
    }
    return found(failures);
  },
};

/**
 * Rule: HEAD is GET without the body: same status, same content type, a Content-Length that is
 * GET's (RFC 9110 §9.3.2). Breaks it: a body sent anyway (seen only on a bare socket), HEAD
 * answered 405 or 404, authentication skipped for HEAD. Every resource, unknown items, no token.
 */
const head: Check = {
  id: 'http.head',
  title: 'HEAD answers as GET does (status, content type), with no body',
  level: 'interface',
  source: 'RFC 9110 §9.3.2',
  needs: [],
  async run(context) {
    const guarded = guardedList(context);
    const cases: TargetRequest[] = [
      ...context.resources.flatMap(({ path, as, unknown }) => [
        { path, as },
        ...(unknown === undefined ? [] : [{ path: unknown, as }]),
      ]),
      ...(guarded === undefined ? [] : [{ path: guarded.path, as: 'none' as const }]),
    ];
    const failures: Failure[] = [];
    for (const request of cases) {
      const get = await context.client.request(request);
      const sent = context.client.prepare(request);
      const answer = await rawHead(sent.via, sent.headers, context.client.timeoutMs);
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
      } else if (
        get.kind === 'response' &&
        answer.headers['content-length'] !== undefined &&
        Number(answer.headers['content-length']) !== get.bytes
      ) {
        // RFC 9110 §8.6: a Content-Length on HEAD must be the length GET's content would have.
        failures.push({
          message: "HEAD's Content-Length is not the length of GET's content",
          request: described,
          expected: `absent, or ${String(get.bytes)}`,
          actual: answer.headers['content-length'],
        });
      }
    }
    return found(failures);
  },
};

const authScheme: Check = {
  id: 'http.auth-scheme',
  title:
    "The bearer scheme is read in any case and after one or more spaces, and header names in any case, each getting the token's own answer",
  level: 'interface',
  source: 'RFC 9110 §11.1, §11.4; RFC 6750 §2.1',
  needs: [],
  /**
   * Rule: the scheme name is case-insensitive, and one or more spaces follow it; the token, not
   * its spelling, decides the level. What breaks it: a parser that matches `Bearer ` exactly,
   * or one that accepts other spellings but then serves them as no particular level. So each
   * spelling, and header names in upper case, must get what the canonical one gets, at every
   * level with a token.
   */
  run: onList(bearerList, async (context, list) => {
    const failures: Failure[] = [];
    for (const as of list.readers) {
      const path = pageOfSize(list, 3);
      const canonical = await context.client.request({ path, as });
      const body = canonical.kind === 'response' ? canonical.response.body : undefined;
      const variants: TargetRequest[] = [
        ...['bearer ', 'BEARER ', 'Bearer  ', 'bEaReR '].map((scheme) => ({ path, as, scheme })),
        { path, as, headerCase: 'lower' },
        { path, as, headerCase: 'upper' },
      ];
      failures.push(
        ...(await probe(context, variants, (exchange) => {
          if (statusOf(exchange) !== 200) {
            return 'A valid token in another spelling of the scheme, or of the header name, is refused';
          }
          const got = exchange.kind === 'response' ? exchange.response.body : undefined;
          return isDeepStrictEqual(got, body)
            ? undefined
            : `Another spelling of the scheme or header name gets another answer than \`Bearer \` with the same token: ${describeResponse(canonical).slice(0, 120)}`;
        })),
      );
    }
    return found(failures);
  }),
};

/**
 * Rule: no credential, or one no server issued, is a 401 that challenges with the scheme the
 * spec secures the operation with; where it asks for two credentials at once, either alone is
 * refused too. Breaks it: a missing token served at the lowest level, a 403, a challenge of
 * another scheme or none, a known user with a wrong password, a second credential never read.
 * Every resource that takes a token.
 */
const missingToken: Check = {
  id: 'http.missing-token',
  title:
    "No credential, an unknown one, or one of two the spec asks for together, gets 401 with the spec's scheme's challenge",
  level: 'interface',
  source: 'the spec: security; RFC 6750 §3, §3.1; RFC 9110 §11.6.1, §15.5.2',
  needs: [],
  async run(context) {
    const requests: TargetRequest[] = context.resources
      .filter((resource) => resource.needsToken)
      .flatMap(({ path, as }): TargetRequest[] => {
        const places = as === 'none' ? [] : context.client.prepare({ path, as }).places;
        return [
          { path, as: 'none' },
          { path, as: 'wrong' },
          // Each credential of a pair left out in turn, the other one valid.
          ...(places.length > 1
            ? places.map((_, index) => ({ path, as, withoutPlace: index }))
            : []),
        ];
      });
    if (requests.length === 0) return { failures: [], skipped: 'nothing served needs a token' };
    return found(
      await probe(context, requests, (exchange) => {
        if (statusOf(exchange) !== 401)
          return 'A request without a valid credential is not answered 401';
        return challengeFinding(exchange) === undefined
          ? undefined
          : `The 401 has no ${exchange.challenge ?? 'bearer'} challenge in WWW-Authenticate`;
      }),
    );
  },
};

/** Changes to a real token that no server may accept: only the token itself is the token. */
const NEAR_TOKENS: readonly TokenChange[] = [
  { described: 'token with an X appended', apply: (token) => `${token}X` },
  { described: 'token without its last character', apply: (token) => token.slice(0, -1) },
  {
    described: 'token with its last character changed',
    apply: (token) => `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`,
  },
  {
    described: 'token in another case',
    apply: (token) => (token === token.toUpperCase() ? token.toLowerCase() : token.toUpperCase()),
  },
];

/**
 * Rule: only a token itself is a token. Breaks it: tokens compared by prefix, in any case, or
 * cut to a length; an empty bearer; Basic credentials served. Each given token changed by one
 * character each way, in another case; empty and Basic credentials.
 */
const exactTokens: Check = {
  id: 'http.exact-token',
  title:
    'Only a token itself is accepted: a prefix, a longer, shorter or case-changed token, an empty one and Basic credentials get 401',
  level: 'interface',
  source: 'RFC 6750 §3.1 (invalid_token), §2.1; interface: Authentication',
  needs: [],
  run: onList(guardedList, async (context, list) => {
    const tokenOf = (holder: Holder): string =>
      (context.client.prepare({ path: '/', as: holder }).headers['authorization'] ?? '').slice(
        'Bearer '.length,
      );
    const given = new Set(context.holders.map(tokenOf));
    const path = pageOfSize(list, 1);
    const requests: TargetRequest[] = [
      ...context.holders.flatMap((holder) =>
        NEAR_TOKENS
          // A change that gives a token the target was given (or the same text) proves nothing.
          .filter((change) => !given.has(change.apply(tokenOf(holder))))
          .map((change) => ({
            path,
            as: holder,
            alter: { ...change, described: `the ${levelName(holder)} ${change.described}` },
          })),
      ),
      { path, as: 'none', headers: { authorization: 'Bearer' } },
      { path, as: 'none', headers: { authorization: 'Bearer ' } },
      { path, as: 'none', headers: { authorization: 'Bearer    ' } },
      { path, as: 'none', headers: { authorization: 'Basic c3RhdHVzOnN0YXR1cw==' } },
    ];
    return found(
      await probe(context, requests, (exchange) =>
        statusOf(exchange) === 401
          ? undefined
          : 'Credentials that are not a configured token are not answered 401 (an access this client was never given)',
      ),
    );
  }),
};

/**
 * Rule (PRODUCT.md): 401 with `Bearer realm="…"`, and error="invalid_token" only when a token
 * was given; another scheme counts as none. Breaks it: invalid_token without a token, another
 * realm, Basic credentials read as a bearer token.
 */
const challengeAsStandIn: Check = {
  id: 'http.bearer-realm',
  title:
    'The 401 challenge is Bearer with the stand-in\'s realm, and error="invalid_token" for a given token only; further auth-params are free; another scheme counts as none',
  level: 'stand-in',
  source: 'PRODUCT.md: missing or invalid token; RFC 6750 §3',
  needs: [],
  run: onList(bearerList, async (context, { path }) => {
    const want = context.standIn.settings.realm;
    const requests: TargetRequest[] = [
      { path, as: 'none' },
      { path, as: 'wrong' },
      { path, as: 'none', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    ];
    const realms = new Set<string>();
    const failures = await probe(context, requests, (exchange) => {
      const header =
        exchange.kind === 'response' ? exchange.response.headers['www-authenticate'] : undefined;
      const challenge = parseBearerChallenge(header ?? '');
      const realm = challenge?.get('realm');
      if (realm !== undefined) realms.add(realm);
      // RFC 6750 §3.1: an error code for a token that was given; none where none was.
      const error = exchange.as === 'wrong' ? 'invalid_token' : undefined;
      const expected = `401 with WWW-Authenticate: Bearer realm="${want}"${error === undefined ? '' : `, error="${error}"`} (further auth-params allowed)`;
      return statusOf(exchange) === 401 &&
        challenge !== undefined &&
        realm === want &&
        challenge.get('error') === error
        ? undefined
        : `The challenge differs from the stand-in's: ${expected}`;
    });
    // The realm a target names, where it names one throughout: the setting that matches it.
    const [named] = realms;
    const decided: Decided[] =
      realms.size === 1 && named !== undefined && named !== ''
        ? [{ setting: 'realm', value: named, seen: `the bearer realm is "${named}"` }]
        : [];
    return { failures, decided };
  }),
};

/**
 * The auth-params of a Bearer challenge (RFC 9110 §11.6.1, RFC 6750 §3), by name in lower case;
 * undefined when the value does not begin with a Bearer challenge of quoted or token
 * parameters. Challenges of other schemes may follow it.
 */
export function parseBearerChallenge(value: string): Map<string, string> | undefined {
  const scheme = /^bearer(?: +|$)/i.exec(value);
  if (scheme === null) return undefined;
  const params = new Map<string, string>();
  const param =
    /\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9!#$%&'*+.^_`|~-]+))\s*(,|$)/y;
  param.lastIndex = scheme[0].length;
  // Another challenge may follow in the same header (RFC 9110 §11.6.1): a scheme and a space.
  const nextChallenge = /\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+ +[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*=/y;
  while (param.lastIndex < value.length) {
    nextChallenge.lastIndex = param.lastIndex;
    if (params.size > 0 && nextChallenge.test(value)) break;
    const match = param.exec(value);
    if (match === null) return undefined;
    const [, name = '', quoted, token] = match;
    params.set(name.toLowerCase(), quoted?.replaceAll(/\\(.)/g, '$1') ?? token ?? '');
  }
  return params;
}

/** Accept values that admit JSON: parameters such as charset never exclude it (§12.5.1). */
const ADMITS_JSON = [
  // Media types, parameter names and q are case-insensitive (RFC 9110 §8.3.1, §12.4.2).
  'Application/JSON',
  'APPLICATION/JSON; CHARSET=UTF-8',
  'text/html, Application/Json;Q=0.9',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json; v=1',
  '*/*; charset=utf-8',
  'application/*',
  '*/*',
  'text/html, application/json;q=0.9',
];

/**
 * Rule: any Accept that admits JSON is served JSON (RFC 9110 §12.5.1). Breaks it: media types,
 * parameter names or q compared in one case, parameters (charset, v) read as exclusions, only
 * the first or the highest-weighted range honoured, the header name in another case.
 */
const acceptAdmitsJson: Check = {
  id: 'http.accept-admits-json',
  title: 'Any Accept that admits JSON, whatever its parameters, is served JSON',
  level: 'interface',
  source: 'RFC 9110 §12.5.1; interface: Authentication (Accept: application/json)',
  needs: [],
  run: onList(firstList, async (context, list) => {
    const { as } = list;
    const path = pageOfSize(list, 1);
    const requests: TargetRequest[] = [
      ...ADMITS_JSON.map((accept) => ({ path, as, headers: { accept } })),
      ...(['lower', 'upper'] as const).map((headerCase) => ({
        path,
        as,
        headers: { accept: 'application/json' },
        headerCase,
      })),
    ];
    return found(
      await probe(context, requests, (exchange) => {
        const type =
          exchange.kind === 'response' ? exchange.response.headers['content-type'] : undefined;
        return statusOf(exchange) === 200 && JSON_TYPE.test(type ?? '')
          ? undefined
          : 'An Accept that admits JSON is not served JSON';
      }),
    );
  }),
};

/** Accept values that exclude JSON: other types, in any case, and JSON at q=0 ("not this"). */
const WITHOUT_JSON = ['text/html', 'application/xml', 'Text/HTML', 'application/json;q=0'];

/**
 * Rule: an Accept without JSON gets 406, or JSON regardless. Breaks it: any other status (a
 * 400, a 500, an HTML page). Other types, in another case, and JSON at q=0.
 */
const acceptWithoutJson: Check = {
  id: 'http.accept-without-json',
  title: 'An Accept without JSON gets 406, or JSON regardless',
  level: 'interface',
  source: 'RFC 9110 §12.5.1, §15.5.7',
  needs: [],
  run: onList(firstList, async (context, list) => {
    const { as } = list;
    const path = pageOfSize(list, 1);
    const requests = WITHOUT_JSON.map((accept) => ({
      path,
      as,
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
  }),
};

/**
 * Rule (PRODUCT.md): an Accept that excludes JSON gets 406, unless the stand-in ignores Accept.
 * Breaks it: JSON served for `application/json;q=0` or for text/html.
 */
const notAcceptableAsStandIn: Check = {
  id: 'http.accept-without-json-406',
  title: 'An Accept without JSON gets what the stand-in answers: 406, unless it ignores Accept',
  level: 'stand-in',
  source: 'PRODUCT.md: Accept',
  needs: [],
  async run(context) {
    const resource =
      context.resources.find((candidate) => candidate.kind === 'item') ?? firstList(context);
    if (resource === undefined) {
      return {
        failures: [],
        skipped: 'nothing the spec serves could be read with the tokens given',
      };
    }
    const requests = WITHOUT_JSON.map((accept) => ({
      path: resource.path,
      as: resource.as,
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

/** A browser's preflight for a GET with a bearer token, from another origin. */
const PREFLIGHT = {
  origin: 'https://client.example',
  'access-control-request-method': 'GET',
  'access-control-request-headers': 'authorization',
};

/** Whether a comma-separated header value names `wanted` (case-insensitive), or is `*`. */
function names(value: string | undefined, wanted: string, star = true): boolean {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .some((part) => part === wanted.toLowerCase() || (star && part === '*'));
}

/**
 * Rule (PRODUCT.md: CORS open by default, preflight answered without a token): a browser on any
 * origin may call every list and item with a bearer token. What breaks it: a token check that
 * runs before CORS (a preflight never carries a token, RFC 9110 and the Fetch standard), an
 * Allow-Headers without `authorization` (`*` does not cover it), header names or the method
 * matched in one case only, an actual answer without Access-Control-Allow-Origin.
 */
const corsPreflight: Check = {
  id: 'http.cors',
  title:
    'A CORS preflight is answered 2xx without a token, allowing the origin, GET and the Authorization header; the answer itself allows the origin',
  level: 'stand-in',
  source: 'PRODUCT.md: Surface (CORS preflight answered without a token; CORS open by default)',
  needs: [],
  async run(context) {
    const targets = [
      firstList(context),
      context.resources.find((resource) => resource.kind === 'item'),
    ].filter((resource) => resource !== undefined);
    if (targets.length === 0) {
      return {
        failures: [],
        skipped: 'nothing the spec serves could be read with the tokens given',
      };
    }
    const preflights: TargetRequest[] = targets.flatMap(({ path, as }) => [
      { method: 'OPTIONS', path, as: 'none', headers: PREFLIGHT },
      { method: 'OPTIONS', path, as: 'none', headers: PREFLIGHT, headerCase: 'lower' },
      { method: 'OPTIONS', path, as: 'none', headers: PREFLIGHT, headerCase: 'upper' },
      { method: 'OPTIONS', path, as, headers: PREFLIGHT },
    ]);
    const failures = await probe(context, preflights, (exchange) => {
      if (exchange.kind === 'no-response') return 'No answer';
      const { status, headers } = exchange.response;
      if (status < 200 || status >= 300) return 'A CORS preflight is not answered 2xx';
      const origin = headers['access-control-allow-origin'];
      if (origin !== '*' && origin !== PREFLIGHT.origin) {
        return 'A CORS preflight does not allow the origin (Access-Control-Allow-Origin)';
      }
      if (!names(headers['access-control-allow-methods'], 'GET')) {
        return 'A CORS preflight does not allow GET (Access-Control-Allow-Methods)';
      }
      return names(headers['access-control-allow-headers'], 'authorization', false)
        ? undefined
        : 'A CORS preflight does not allow the Authorization header (Access-Control-Allow-Headers; * does not cover it)';
    });
    const actual = targets.map(({ path, as }) => ({
      path,
      as,
      headers: { origin: PREFLIGHT.origin },
    }));
    failures.push(
      ...(await probe(context, actual, (exchange) => {
        const origin =
          exchange.kind === 'response'
            ? exchange.response.headers['access-control-allow-origin']
            : undefined;
        return origin === '*' || origin === PREFLIGHT.origin
          ? undefined
          : 'An answer to another origin does not allow it (Access-Control-Allow-Origin)';
      })),
    );
    return found(failures);
  },
};

/** How long an answer to `Connection: close` may keep its connection open after its last byte. */
const CLOSE_WAIT_MS = 2000;

/**
 * Rule: a request with `Connection: close` gets its answer and then the connection closes (RFC
 * 9112 §9.6), and a field sent in two lines reads as the same field in one (RFC 9110 §5.3):
 * `Accept: text/html` then `Accept: application/json` admits JSON. Breaks it: a client that
 * reads until the server closes waits out its time-out; an Accept read from its first line
 * only refuses a client whose library splits it. Over a bare socket, since client libraries
 * join and manage both themselves.
 */
const wireFields: Check = {
  id: 'http.wire-fields',
  title:
    'Connection: close closes the connection after the answer; a field in two lines reads as one',
  level: 'interface',
  source: 'RFC 9112 §9.6; RFC 9110 §5.3',
  needs: [],
  async run(context) {
    const [resource] = context.resources;
    if (resource === undefined) return { failures: [], skipped: 'nothing is served to ask' };
    const sent = context.client.prepare({ path: resource.path, as: resource.as });
    const fields = Object.entries(sent.headers).filter(([name]) => name.toLowerCase() !== 'accept');
    const described = `GET ${sent.url}`;
    const failures: Failure[] = [];
    const closing = await rawRequest(
      'GET',
      sent.via,
      fields,
      context.client.timeoutMs,
      CLOSE_WAIT_MS,
    );
    if ('error' in closing) {
      failures.push({
        message: `No answer over a bare socket: ${closing.error}`,
        request: described,
      });
    } else if (!closing.closed) {
      failures.push({
        message: `The connection stayed open ${String(CLOSE_WAIT_MS)} ms after an answer to Connection: close`,
        request: `${described} (Connection: close)`,
        expected: 'the server closes the connection after the answer',
      });
    }
    const split = await rawRequest(
      'GET',
      sent.via,
      [...fields, ['Accept', 'text/html'], ['Accept', 'application/json']],
      context.client.timeoutMs,
      CLOSE_WAIT_MS,
    );
    const joined = await context.client.request({
      path: resource.path,
      as: resource.as,
      headers: { accept: 'text/html, application/json' },
    });
    if (!('error' in split) && split.status !== statusOf(joined)) {
      failures.push({
        message: 'Accept in two field lines is answered otherwise than the same ranges in one',
        request: `${described} (Accept: text/html, then Accept: application/json)`,
        expected: describeResponse(joined),
        actual: String(split.status),
      });
    }
    return found(failures);
  },
};

export const httpRuleChecks: readonly Check[] = [
  otherMethods,
  head,
  authScheme,
  missingToken,
  exactTokens,
  challengeAsStandIn,
  acceptAdmitsJson,
  acceptWithoutJson,
  notAcceptableAsStandIn,
  corsPreflight,
  wireFields,
];

/** Why HEAD's answer is not GET's for the same request: its status, or its length. */
export function headDiffers(head: Exchange, get: Exchange): string | undefined {
  if (head.kind === 'no-response' || get.kind === 'no-response') return undefined;
  const status = [head.response.status, get.response.status];
  if (status[0] !== status[1]) {
    return `HEAD answered ${String(status[0])} where GET answers ${String(status[1])}`;
  }
  const lengths = [head.response.headers['content-length'], get.response.headers['content-length']];
  if (lengths[0] !== undefined && lengths[1] !== undefined && lengths[0] !== lengths[1]) {
    return `HEAD gives Content-Length ${lengths[0]} where GET sends ${lengths[1]} bytes`;
  }
  return undefined;
}
