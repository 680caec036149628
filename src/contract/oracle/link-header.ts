/**
 * @module The checker's reading of RFC 8288 `Link` headers: the links of a list answered as a
 * bare array. Lenient as the RFC asks a reader to be: several fields (joined by commas), `rel`
 * quoted or a token, several relation types in one `rel`, other parameters ignored.
 */

/** Each relation type named, and the URI reference it points at (the first, if named twice). */
export function linksOfHeader(header: string): ReadonlyMap<string, string> {
  const links = new Map<string, string>();
  // `<` … `>` then parameters up to the next `, <`: a URI reference holds no `>`. A parameter's
  // name stops at `=`, so that no text can be read two ways: a target's header is hostile input,
  // and an ambiguous pattern would backtrack over it for seconds.
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,=]+(?:=(?:"[^"]*"|[^;,"]*))?)*)/g;
  for (const [, target, parameters] of header.matchAll(pattern)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(parameters ?? '');
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    for (const type of types) {
      if (type !== '' && !links.has(type)) links.set(type, target ?? '');
    }
  }
  return links;
}
