/** @module A spec's path template as a pattern that request paths are matched against. */

/**
 * `/v1/stock/{id}` → a pattern that matches `/v1/stock/7` and `/v1/stock/7/`: each `{param}` one
 * segment, a trailing slash allowed. The one reading of path templates, for the 405 handler and
 * the response validator.
 */
export function pathPattern(template: string): RegExp {
  const literal = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[^/]+')}/?$`);
}
