/** @module How deep a JSON text nests, found without parsing it. */

/**
 * Whether the JSON text nests arrays and objects more than `limit` deep. A scan of its
 * brackets outside strings, which stops as soon as the limit is passed: what code walking a
 * parsed value recursively would overflow its stack on is told before it is parsed.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  // Each level takes one opening bracket: a short text cannot pass the limit.
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c)
        at += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}
