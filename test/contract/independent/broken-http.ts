/**
 * Variants that break one HTTP-level rule: methods and HEAD, bearer authentication, media types,
 * problem bodies, parameter validation and path ids. Everything else is the reference.
 */
import { STATUS_CODES } from 'node:http';
import { acceptsJson } from './http-rules.ts';
import { isJsonObject, without, type Json } from './json.ts';
import { DEFAULT_LIMIT, parseLimit, parsePage, parsePathId, parseStatus } from './query.ts';
import { authenticateBearer, type Faults } from './reference-server.ts';
import type { VariantSpec } from './servers.ts';
import { broken, isProblem, isSingle, mapBody, mapHeaders } from './variant-helpers.ts';

// ---- methods and HEAD -------------------------------------------------------------------------

const METHODS: readonly VariantSpec[] = [
  broken(
    'interface',
    'HEAD sends a body',
    'RFC 9110 §9.3.2: the server MUST NOT send content in the response to HEAD',
    { faults: { headWithBody: true } },
  ),
  broken(
    'interface',
    'HEAD answers 405',
    'RFC 9110 §9.1: every general-purpose server supports HEAD wherever it supports GET',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'HEAD'
            ? mapHeaders(context.problem(405, 'Use GET.'), { allow: 'GET, OPTIONS' })
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'HEAD answers 404 where GET answers 200',
    'RFC 9110 §9.3.2: HEAD is identical to GET except that no content is sent',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'HEAD' && reply.status === 200
            ? context.problem(404, 'No route for HEAD.')
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'HEAD answers 200 where GET answers 404',
    'RFC 9110 §9.3.2: HEAD answers with the status GET would (an unknown product id is a 404)',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'HEAD' && reply.status === 404 && isSingle(context)
            ? { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } }
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'HEAD has another content type than GET',
    'RFC 9110 §9.3.2: HEAD SHOULD send the header fields GET would, Content-Type included',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'HEAD' && reply.status === 200
            ? mapHeaders(reply, { 'content-type': 'text/plain; charset=utf-8' })
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'POST answered like GET',
    'Interface "What the service does": a read-only service; RFC 9110 §15.5.6: a method the ' +
      'resource does not support is answered 405 with Allow',
    { faults: { servedMethods: ['GET', 'HEAD', 'POST'] } },
  ),
  broken(
    'interface',
    'DELETE answers 404',
    'RFC 9110 §15.5.6: the resource exists, so an unsupported method is a 405 (with Allow), not 404',
    {
      faults: {
        rewrite: (reply, context) =>
          context.method === 'DELETE' && reply.status === 405
            ? context.problem(404, `Cannot DELETE ${context.url.pathname}`)
            : reply,
      },
    },
  ),
  broken(
    'interface',
    '405 without Allow',
    'RFC 9110 §15.5.6: the origin server MUST generate an Allow header field in a 405',
    {
      faults: {
        rewrite: (reply) => (reply.status === 405 ? mapHeaders(reply, {}, ['allow']) : reply),
      },
    },
  ),
  broken(
    'interface',
    'Allow does not list GET',
    'RFC 9110 §10.2.1: Allow lists the methods the target resource supports, GET among them',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 405 ? mapHeaders(reply, { allow: 'HEAD, OPTIONS' }) : reply,
      },
    },
  ),
];

// ---- bearer authentication --------------------------------------------------------------------

/** The scheme word of an Authorization field, as sent. */
function schemeOf(authorization: string | undefined): string {
  return authorization?.trim().split(' ')[0] ?? '';
}

/** The reference authentication, except that the given scheme spellings are refused. */
function refusingScheme(refused: (scheme: string) => boolean): NonNullable<Faults['authenticate']> {
  return (authorization, tokens) =>
    refused(schemeOf(authorization))
      ? { kind: 'missing' }
      : authenticateBearer(authorization, tokens);
}

const AUTH: readonly VariantSpec[] = [
  broken(
    'interface',
    'lowercase bearer scheme refused',
    'RFC 7235 §2.1 (RFC 9110 §11.1): the auth scheme is case-insensitive; "bearer <token>" is valid',
    { faults: { authenticate: refusingScheme((scheme) => scheme === 'bearer') } },
  ),
  broken(
    'interface',
    'uppercase BEARER scheme refused',
    'RFC 7235 §2.1 (RFC 9110 §11.1): the auth scheme is case-insensitive; "BEARER <token>" is valid',
    { faults: { authenticate: refusingScheme((scheme) => scheme === 'BEARER') } },
  ),
  broken(
    'interface',
    'two spaces after the scheme refused',
    'RFC 9110 §11.4: credentials = auth-scheme [ 1*SP token68 ]: one or more spaces',
    {
      faults: {
        // Splits on a single space and takes what follows as the token, leading space and all.
        authenticate: (authorization, tokens) =>
          /^\S+ {2,}/.test(authorization ?? '')
            ? { kind: 'invalid' }
            : authenticateBearer(authorization, tokens),
      },
    },
  ),
  broken(
    'interface',
    'unknown token accepted',
    'RFC 6750 §3.1: a token the server does not know is invalid_token, answered 401',
    {
      faults: {
        authenticate: (authorization, tokens) => {
          const outcome = authenticateBearer(authorization, tokens);
          return outcome.kind === 'invalid' ? { kind: 'level', level: 'status' } : outcome;
        },
      },
    },
  ),
  broken(
    'interface',
    'missing token served at the status level',
    'Interface "Authentication": requests carry a bearer token; RFC 6750 §3: a request without ' +
      'one is answered 401',
    {
      faults: {
        authenticate: (authorization, tokens) => {
          const outcome = authenticateBearer(authorization, tokens);
          return outcome.kind === 'missing' ? { kind: 'level', level: 'status' } : outcome;
        },
      },
    },
  ),
  broken(
    'interface',
    'missing token answers 403',
    'RFC 9110 §15.5.2 and RFC 6750 §3: missing credentials are a 401 with a challenge, not 403',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 401 && !(reply.headers['www-authenticate'] ?? '').includes('error=')
            ? context.problem(403, 'Forbidden.')
            : reply,
      },
    },
  ),
  broken(
    'interface',
    '401 without WWW-Authenticate',
    'RFC 9110 §15.5.2: a 401 MUST carry a WWW-Authenticate challenge',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 401 ? mapHeaders(reply, {}, ['www-authenticate']) : reply,
      },
    },
  ),
  broken(
    'interface',
    '401 challenges with Basic',
    'RFC 6750 §3: a bearer-protected resource challenges with the Bearer scheme',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 401
            ? mapHeaders(reply, { 'www-authenticate': 'Basic realm="stockmock"' })
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    'invalid token challenge without error="invalid_token"',
    'PRODUCT.md "missing or invalid token": error="invalid_token" when a token was given ' +
      '(RFC 6750 §3.1 only says SHOULD)',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 401
            ? mapHeaders(reply, { 'www-authenticate': 'Bearer realm="stockmock"' })
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    'challenge without realm',
    'PRODUCT.md "missing or invalid token": Bearer realm="stockmock" (RFC 6750 §3 makes realm ' +
      'optional)',
    {
      faults: {
        rewrite: (reply) => {
          const challenge = reply.headers['www-authenticate'];
          return challenge === undefined
            ? reply
            : mapHeaders(reply, { 'www-authenticate': challenge.replace(/realm="[^"]*",? ?/, '') });
        },
      },
    },
  ),
];

// ---- media types ------------------------------------------------------------------------------

/** Standard negotiation, except that the given media range is not understood as admitting JSON. */
function ignoringRange(range: string): NonNullable<Faults['acceptsJson']> {
  return (accept) => {
    if (accept === undefined) return true;
    const kept = accept
      .split(',')
      .filter((element) => element.split(';')[0]?.trim().toLowerCase() !== range);
    return kept.length > 0 && acceptsJson(kept.join(','));
  };
}

const plainText = 'text/plain; charset=utf-8';

const MEDIA: readonly VariantSpec[] = [
  broken(
    'interface',
    'success answered as text/plain',
    'Interface "What the service does": responses are JSON (RFC 9110 §8.3: Content-Type ' +
      'names the media type of the content)',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 200 ? mapHeaders(reply, { 'content-type': plainText }) : reply,
      },
    },
  ),
  broken(
    'interface',
    'single items answered as text/html',
    'Interface "What the service does": responses are JSON',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 200 && isSingle(context)
            ? mapHeaders(reply, { 'content-type': 'text/html; charset=utf-8' })
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'JSON body behind an XSSI prefix',
    'Interface "What the service does": responses are JSON; RFC 8259: an application/json ' +
      'body is a JSON text',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 200 && reply.body !== undefined
            ? { ...reply, raw: `)]}',\n${JSON.stringify(reply.body)}` }
            : reply,
      },
    },
  ),
  broken(
    'interface',
    'errors answered as plain text',
    'Interface "What the service does": responses are JSON; error bodies are plain text here',
    {
      faults: {
        rewrite: (reply) => {
          if (!isProblem(reply) || !isJsonObject(reply.body)) return reply;
          const detail = reply.body['detail'];
          const text = `${reply.status} ${STATUS_CODES[reply.status] ?? ''}: ${typeof detail === 'string' ? detail : ''}`;
          return { ...mapHeaders(reply, { 'content-type': plainText }), raw: text };
        },
      },
    },
  ),
  broken(
    'interface',
    'Accept with a charset parameter refused',
    'RFC 9110 §12.5.1: "application/json; charset=utf-8" admits application/json',
    {
      faults: {
        acceptsJson: (accept) =>
          !/application\/json\s*;[^,]*charset/i.test(accept ?? '') && acceptsJson(accept),
      },
    },
  ),
  broken('interface', 'Accept */* refused', 'RFC 9110 §12.5.1: */* admits every media type', {
    faults: { acceptsJson: ignoringRange('*/*') },
  }),
  broken(
    'interface',
    'Accept application/* refused',
    'RFC 9110 §12.5.1: application/* admits application/json (PRODUCT.md "Accept" lists it too)',
    { faults: { acceptsJson: ignoringRange('application/*') } },
  ),
  broken(
    'interface',
    'only the first Accept range considered',
    'RFC 9110 §12.5.1: Accept is a list; "text/html, application/json" admits JSON',
    { faults: { acceptsJson: (accept) => acceptsJson(accept?.split(',')[0]) } },
  ),
  broken(
    'interface',
    'Accept excluding JSON answered 400',
    'RFC 9110 §12.5.1: an Accept the server cannot meet is honoured with 406 or disregarded ' +
      '(JSON sent anyway); a 400 is neither',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 406
            ? context.problem(400, '1 parameter is invalid.', {
                errors: [{ parameter: 'Accept', in: 'header', message: 'must admit JSON' }],
              })
            : reply,
      },
    },
  ),
];

// ---- problem bodies ---------------------------------------------------------------------------

/** Changes the JSON body of every problem reply. */
function problemBody(change: (body: Record<string, Json>, status: number) => void): Faults {
  return {
    rewrite: (reply) =>
      isProblem(reply)
        ? mapBody(reply, (body) => {
            const copy = { ...body };
            change(copy, reply.status);
            return copy;
          })
        : reply,
  };
}

const PROBLEMS: readonly VariantSpec[] = [
  broken(
    'interface',
    'problem status member differs from the HTTP status',
    'RFC 9457 §3.1.2: the status member, when present, is the HTTP status code of the response',
    {
      faults: problemBody((body) => {
        body['status'] = 400;
      }),
    },
  ),
  broken(
    'interface',
    'problem status member is a string',
    'RFC 9457 §3.1.2: status is a JSON number',
    {
      faults: problemBody((body, status) => {
        body['status'] = String(status);
      }),
    },
  ),
  broken(
    'interface',
    'problem type is not a URI reference',
    'RFC 9457 §3.1.1: type is a URI reference (RFC 3986 §4.1); a phrase with spaces is not',
    {
      faults: problemBody((body, status) => {
        body['type'] = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
      }),
    },
  ),
  broken('interface', 'problem detail is an array', 'RFC 9457 §3.1.4: detail is a JSON string', {
    faults: problemBody((body) => {
      body['detail'] = [body['detail'] ?? null];
    }),
  }),
  broken(
    'stand-in',
    'problems lack a title',
    'PRODUCT.md "error body": type, title, status, detail (RFC 9457 makes every member optional)',
    {
      faults: {
        rewrite: (reply) => (isProblem(reply) ? mapBody(reply, (b) => without(b, 'title')) : reply),
      },
    },
  ),
  broken(
    'interface',
    'problem+json body is HTML',
    'RFC 9457 §3: an application/problem+json body is a JSON object',
    {
      faults: {
        rewrite: (reply) =>
          isProblem(reply)
            ? {
                ...reply,
                raw: `<!DOCTYPE html><html><body><h1>${reply.status} ${STATUS_CODES[reply.status] ?? ''}</h1></body></html>`,
              }
            : reply,
      },
    },
  ),
];

// ---- parameters -------------------------------------------------------------------------------

const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

const PARAMETERS: readonly VariantSpec[] = [
  broken(
    'interface',
    'limit 0 falls back to the default',
    'Interface "Errors" and "Limits": an invalid parameter value (a page size of 0) is an error ' +
      'condition, not a default page',
    { faults: { parseLimit: (raw) => (raw === '0' ? ok(DEFAULT_LIMIT) : parseLimit(raw)) } },
  ),
  broken(
    'stand-in',
    'limit over 100 clamped to 100',
    'PRODUCT.md "invalid parameter values": limit > 100 is a 400 (clamping is a fair reading of ' +
      'the interface\'s "at most 100")',
    {
      faults: {
        parseLimit: (raw) => (/^\d+$/.test(raw) && Number(raw) > 100 ? ok(100) : parseLimit(raw)),
      },
    },
  ),
  broken(
    'interface',
    'limit read with parseInt',
    'Interface "Endpoints": limit is an integer; "1.5" or "10abc" is an invalid value, an error ' +
      'condition (interface "Errors")',
    {
      faults: {
        parseLimit: (raw) => {
          const leading = Number.parseInt(raw, 10);
          return Number.isNaN(leading) ? parseLimit(raw) : parseLimit(String(leading));
        },
      },
    },
  ),
  broken(
    'interface',
    'non-numeric limit ignored',
    'Interface "Endpoints": limit is an integer; "ten" is an invalid value, an error condition ' +
      '(interface "Errors"), not the default',
    {
      faults: { parseLimit: (raw) => (/^-?\d+$/.test(raw) ? parseLimit(raw) : ok(DEFAULT_LIMIT)) },
    },
  ),
  broken(
    'interface',
    'page 0 served as page 1',
    'Interface "Limits": pages start at 1; page 0 is an invalid value, an error condition',
    { faults: { parsePage: (raw) => (raw === '0' ? ok(1) : parsePage(raw)) } },
  ),
  broken(
    'interface',
    'page 0 crashes with 500',
    "RFC 9110 §15.6: 5xx means the server failed; an invalid page is the client's error (4xx)",
    {
      faults: {
        parsePage: (raw) => {
          if (raw === '0') throw new RangeError('OFFSET must not be negative');
          return parsePage(raw);
        },
      },
    },
  ),
  broken(
    'interface',
    'unknown status value answered with every item',
    'Interface "GET /v1/stock": allowed status values are the four listed; another is an ' +
      'invalid value, an error condition',
    {
      faults: {
        parseStatus: (raw) => {
          const parsed = parseStatus(raw);
          return parsed.ok ? parsed : ok(undefined);
        },
      },
    },
  ),
  broken(
    'stand-in',
    'repeated parameter answered, the last one wins',
    'PRODUCT.md "invalid parameter values": a repeated single-valued parameter is a 400',
    { faults: { repeatedParameters: 'last-wins' } },
  ),
  broken(
    'interface',
    'invalid values answered 500',
    'RFC 9110 §15.5 and §15.6: an invalid parameter is a client error (4xx), never a 5xx',
    {
      faults: {
        rewrite: (reply, context) =>
          reply.status === 400 ? context.problem(500, 'Internal server error.') : reply,
      },
    },
  ),
  broken(
    'stand-in',
    'invalid values answered 422',
    'PRODUCT.md "invalid parameter values": 400 (422 is still a 4xx)',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 400
            ? mapBody({ ...reply, status: 422 }, (body) => ({ ...body, status: 422 }))
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    '400 names only the first bad parameter',
    'PRODUCT.md "invalid parameter values": the problem body names each bad parameter',
    {
      faults: {
        rewrite: (reply) =>
          reply.status === 400
            ? mapBody(reply, (body) => {
                const errors = body['errors'];
                return Array.isArray(errors) ? { ...body, errors: errors.slice(0, 1) } : body;
              })
            : reply,
      },
    },
  ),
  broken(
    'stand-in',
    'path ids that are not positive integers answer 404',
    'PRODUCT.md "path id that is not a positive integer": 400 (a 404 is HTTP-correct: no such ' +
      'resource)',
    { faults: { parsePathId: (segment) => (/^\d+$/.test(segment) ? Number(segment) : -1) } },
  ),
  broken(
    'interface',
    'non-numeric path id crashes with 500',
    "RFC 9110 §15.6: 5xx means the server failed; /v1/stock/abc is the client's error (4xx)",
    {
      faults: {
        parsePathId: (segment) => {
          if (!/^-?\d+$/.test(segment)) {
            throw new TypeError(`invalid input syntax for type bigint: "${segment}"`);
          }
          return parsePathId(segment);
        },
      },
    },
  ),
  broken(
    'interface',
    'path id read with parseInt',
    'Interface "GET /v1/stock/:id": the path names one product id; /v1/stock/12abc is no product ' +
      'and must not answer 200 with product 12',
    {
      faults: {
        parsePathId: (segment) => {
          const leading = Number.parseInt(segment, 10);
          return leading >= 1 ? leading : undefined;
        },
      },
    },
  ),
];

export const BROKEN_HTTP: readonly VariantSpec[] = [
  ...METHODS,
  ...AUTH,
  ...MEDIA,
  ...PROBLEMS,
  ...PARAMETERS,
];
