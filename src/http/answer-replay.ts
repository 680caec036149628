/**
 * @module Replays a kept answer straight from node:http, before Fastify sees the request.
 *
 * A kept answer (rendered-answers.ts) still costs the whole Fastify pipeline: routing, the hooks
 * of CORS, Prefer, bearer auth and Accept, the reply's header bookkeeping. Profiled at 100 000
 * products, that is about 7 µs of CPU per request more than a bare Fastify server spends, enough
 * to hold a repeated request to 60–75 % of its rate. So a request that is *byte for byte* one
 * the pipeline has answered before (same method, URL and headers, a token of the same access
 * level) gets the status, headers and body that the pipeline sent for it then.
 *
 * This is a record of the pipeline's output, not a second pipeline: nothing here decides what
 * an answer is. It is sound because, while it is on, an answer of a catalogue operation is a
 * function of the catalogue, the method, the URL, the headers and the caller's access level:
 * - it is off wherever anything else enters: simulated faults, latency or rate limits (time,
 *   chance, a counter), the admin journal and request log lines (a record per request);
 * - only a GET without a Prefer header is recorded (Prefer asks for delays, codes, scenarios);
 * - an entry belongs to the catalogue it was served from, so a reload or a switch starts empty;
 * - the token is checked here as in bearer-auth, in constant time, and only its level, never the
 *   token, is part of an entry's key; a bad token goes to the pipeline, which refuses it;
 * - when the app starts closing, every request goes to Fastify again, which answers 503 and
 *   closes kept-alive connections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, FastifyServerFactory } from 'fastify';
import type { TokenTable } from '../access/token-table.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { FilterCache } from '../query/filter-cache.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';
import { presentedToken } from './plugins/bearer-auth.ts';

declare module '../catalog/catalog.ts' {
  interface CatalogMemo {
    replays?: FilterCache<RecordedAnswer>;
  }
}

/** What the pipeline sent. */
interface RecordedAnswer {
  readonly status: number;
  /** Names and values, flat, as writeHead takes them. */
  readonly headers: string[];
  readonly body: string;
  /** The body's length, for the cache's bound on what it holds. */
  readonly length: number;
}

/** At most this many recorded answers per catalogue, holding at most this many characters. */
const MAX_REPLAYS = 1000;
const MAX_CHARACTERS = 4_000_000;

export interface AnswerReplay {
  /** A Fastify server factory whose server replays before it hands a request to Fastify. */
  readonly serverFactory: FastifyServerFactory;
  /** Records what the pipeline just sent, `body`, for a kept answer of `catalog`. */
  record(request: FastifyRequest, reply: FastifyReply, catalog: Catalog, body: string): void;
  /** From now on every request goes to Fastify (the app is closing). */
  stop(): void;
}

export function createAnswerReplay(options: {
  readonly catalogs: ScenarioStore;
  readonly tokens: TokenTable;
}): AnswerReplay {
  const { catalogs, tokens } = options;
  let replaying = true;

  /**
   * The key of a request: the level its token gives (`-` without one), the URL, and every other
   * header as the client sent it, names and values. Undefined when it must not be replayed: a
   * token no level is configured for, or more than one Authorization header. No part holds a
   * line break (Node's HTTP parser refuses one), so the parts cannot run into each other.
   */
  const keyOf = (request: IncomingMessage): string | undefined => {
    const raw = request.rawHeaders;
    let level: string = '-';
    let key = request.url ?? '';
    let authorizations = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string;
      const value = raw[i + 1] as string;
      if (name.length === 13 && name.toLowerCase() === 'authorization') {
        authorizations++;
        const token = presentedToken(value);
        const granted = token === undefined ? undefined : tokens.levelOf(token);
        if (granted === undefined || authorizations > 1) return undefined;
        level = granted;
      } else {
        key += `\n${name}\n${value}`;
      }
    }
    return `${level}\n${key}`;
  };

  const replay = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (!replaying || request.method !== 'GET') return false;
    const replays = catalogs.current.memo.replays;
    if (replays === undefined) return false;
    const key = keyOf(request);
    const answer = key === undefined ? undefined : replays.get(key);
    if (answer === undefined) return false;
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
    return true;
  };

  return {
    serverFactory: (handler, settings) => {
      const server: Server = createServer((request, response) => {
        if (!replay(request, response)) handler(request, response);
      });
      // What Fastify sets on the server it makes itself (lib/server.js), from its defaulted options.
      const setting = (name: string): number => {
        const value = settings[name];
        return typeof value === 'number' ? value : 0;
      };
      server.keepAliveTimeout = setting('keepAliveTimeout');
      server.requestTimeout = setting('requestTimeout');
      server.setTimeout(setting('connectionTimeout'));
      if (setting('maxRequestsPerSocket') > 0) {
        server.maxRequestsPerSocket = setting('maxRequestsPerSocket');
      }
      return server;
    },
    record(request, reply, catalog, body) {
      const raw = request.raw;
      if (!replaying || raw.method !== 'GET' || request.headers.prefer !== undefined) return;
      // With no onSend hook, Fastify has written the answer by now, and its headers are final.
      // Should a hook ever make sending asynchronous, nothing is recorded: no replay, no error.
      if (!reply.raw.headersSent) return;
      const key = keyOf(raw);
      if (key === undefined) return;
      const replays = (catalog.memo.replays ??= new FilterCache<RecordedAnswer>({
        maxEntries: MAX_REPLAYS,
        maxItems: MAX_CHARACTERS,
      }));
      if (replays.has(key)) return;
      const headers = flatHeaders(reply.getHeaders());
      replays.set(key, { status: reply.statusCode, headers, body, length: body.length });
    },
    stop() {
      replaying = false;
    },
  };
}

/** `{name: value}` as `[name, value, …]`, a header of several values as several pairs. */
function flatHeaders(
  headers: Readonly<Record<string, number | string | readonly string[] | undefined>>,
): string[] {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of [value].flat()) {
      if (one !== undefined) flat.push(name, String(one));
    }
  }
  return flat;
}
