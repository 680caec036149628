/** @module The Prefer request header (RFC 7240), as Prism uses it for mock control. */

/**
 * Preferences by lower-cased name: `Prefer: scenario=empty, delay="250"` →
 * `{scenario: 'empty', delay: '250'}`. Parameters after `;` are ignored (none is used here);
 * a preference without a value maps to the empty string. The first occurrence of a name wins,
 * as RFC 7240 §2 says.
 */
export function parsePrefer(
  header: string | readonly string[] | undefined,
): ReadonlyMap<string, string> {
  const preferences = new Map<string, string>();
  const text = typeof header === 'string' ? header : (header ?? []).join(',');
  const pattern =
    /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^,;\s]*))?[^,]*(?:,|$)/gy;
  for (
    let match = pattern.exec(text);
    match !== null && match[0] !== '';
    match = pattern.exec(text)
  ) {
    const name = (match[1] ?? '').toLowerCase();
    const raw = match[2] ?? '';
    const value = raw.startsWith('"') ? raw.slice(1, -1).replaceAll(/\\(.)/g, '$1') : raw;
    if (!preferences.has(name)) preferences.set(name, value);
  }
  return preferences;
}

/** Adds one applied preference to the response's Preference-Applied header (RFC 7240 §3). */
export function addPreferenceApplied(
  reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown },
  preference: string,
): void {
  const current = reply.getHeader('preference-applied');
  reply.header(
    'preference-applied',
    typeof current === 'string' ? `${current}, ${preference}` : preference,
  );
}
