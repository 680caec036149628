/** Small helpers that keep each variant's definition to the one thing it changes. */
import { isJsonObject, type JsonObject } from './json.ts';
import type { Reply, ReplyContext } from './reference-server.ts';
import type { IndependentServer, VariantSpec } from './servers.ts';

export function broken(
  level: IndependentServer['level'],
  name: string,
  rule: string,
  options: VariantSpec['options'],
): VariantSpec {
  return { name, kind: 'broken', rule, level, options };
}

export function isProblem(reply: Reply): boolean {
  return (reply.headers['content-type'] ?? '').startsWith('application/problem+json');
}

export function isSuccess(reply: Reply): boolean {
  return reply.status === 200;
}

export function isList(context: ReplyContext): boolean {
  return context.route !== undefined && context.route.idSegment === undefined;
}

export function isSingle(context: ReplyContext): boolean {
  return context.route?.idSegment !== undefined;
}

/** The reply with its JSON object body replaced (other replies unchanged). */
export function mapBody(reply: Reply, change: (body: JsonObject) => JsonObject): Reply {
  return isJsonObject(reply.body) ? { ...reply, body: change(reply.body) } : reply;
}

/** The reply with some headers set and others removed. */
export function mapHeaders(
  reply: Reply,
  set: Readonly<Record<string, string>>,
  remove: readonly string[] = [],
): Reply {
  const headers = Object.fromEntries(
    Object.entries({ ...reply.headers, ...set }).filter(([name]) => !remove.includes(name)),
  );
  return { ...reply, headers };
}

/** A request counter, for faults that behave differently from one request to the next. */
export function counter(): () => number {
  let count = 0;
  return () => count++;
}
