/**
 * @module Routing a path that holds `%23` or `%3F`, for a spec that writes `#` or `?` in a path.
 *
 * find-my-way keeps those two escapes as they are in a request's path (decoding them would end
 * the path), but writes a route's own `%` as `%25`: a route written `/%23X` is met only by a
 * request for `/%2523X`. So, for such a spec only, each request's `%23` and `%3F` are escaped
 * once more before routing, and the operation's handler takes the escape off again. The price,
 * in such a spec alone: a path parameter's value holding an encoded `#` or `?` reads as the
 * escape (`a%23b`), not as the character.
 */

/** `/%23X?q` → `/%2523X?q`: the path's reserved escapes, as find-my-way matches a route's. */
export function escapeReservedInPath(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (!path.includes('%')) return url;
  // Upper case, as the route is written: `%3f` is the same `?`.
  const escaped = path.replaceAll(/%(23|3F)/gi, (_, hex: string) => `%25${hex.toUpperCase()}`);
  return queryAt < 0 ? escaped : escaped + url.slice(queryAt);
}

/** `/%2523X` → `/%23X`: the path as the client sent it. */
export function unescapeReservedInPath(path: string): string {
  return path.replaceAll(/%25(23|3F)/gi, '%$1');
}
