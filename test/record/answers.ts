/**
 * What a service answers to a set of GET requests, as text to compare byte for byte: the status,
 * the content type, the Link header and the body, with the service's own origin taken out.
 */

export interface Served {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Tokens by level. */
  readonly tokens: Readonly<Record<string, string>>;
}

export interface Asked {
  readonly path: string;
  readonly level: string;
}

/** Requests in flight at once: enough to be quick on loopback, few enough for a small server. */
const IN_FLIGHT = 8;

export interface Answer {
  /** `GET path (level)`. */
  readonly asked: string;
  readonly status: number;
  readonly type: string;
  /** The Link header, the origin taken out. */
  readonly link: string;
  /** The body, the origin taken out. */
  readonly body: string;
}

/** Each answer, in the order asked. */
export async function answersOf(served: Served, asked: readonly Asked[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let start = 0; start < asked.length; start += IN_FLIGHT) {
    const batch = asked.slice(start, start + IN_FLIGHT);
    answers.push(
      ...(await Promise.all(
        batch.map(async ({ path, level }) => {
          const token = served.tokens[level];
          const response = await fetch(`${served.url}${path}`, {
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          });
          const shown = (text: string | null) => (text ?? '').replaceAll(served.url, 'ORIGIN');
          return {
            asked: `GET ${path} (${level})`,
            status: response.status,
            type: response.headers.get('content-type') ?? '',
            link: shown(response.headers.get('link')),
            body: shown(await response.text()),
          };
        }),
      )),
    );
  }
  return answers;
}

/** How far an answer is compared where a service writes what no setting mirrors. */
export interface Looser {
  /** The body as a JSON value: indentation and member order apart. */
  readonly asJson?: boolean;
  /**
   * Links as a client reads them: resolved, without `self`, each header field and rel quoting
   * alike, query parameters in any order, and those at the given defaults left out.
   */
  readonly linksRead?: Readonly<Record<string, string>>;
}

/**
 * An answer as the round trip must keep it. A success: its media type (a `charset` apart: JSON
 * is UTF-8 either way, RFC 8259 §8.1), Link and body byte for byte, unless `looser` says how a
 * service formats what no setting mirrors. A refusal: its status and problem type; its `detail`
 * is prose of the service's own.
 */
export function keptOf(answer: Answer, looser: Looser = {}): string {
  const head = `${answer.asked} → ${String(answer.status)}`;
  if (answer.status >= 300) {
    const type = (JSON.parse(answer.body) as { type?: unknown }).type;
    return `${head} ${String(type)}`;
  }
  const essence = answer.type.split(';', 1)[0]?.trim() ?? '';
  const defaults = looser.linksRead;
  const link = defaults === undefined ? answer.link : linkHeaderRead(answer.link, defaults);
  let body = answer.body;
  if (looser.asJson === true || defaults !== undefined) {
    const value = JSON.parse(body) as unknown;
    body = JSON.stringify(sortedMembers(defaults === undefined ? value : linksIn(value, defaults)));
  }
  return [head, essence, link, body].join('\n');
}

/** A link as a client reads it: path, then the query's pairs sorted, defaults left out. */
function linkRead(link: string, defaults: Readonly<Record<string, string>>): string {
  const url = new URL(link.replace(/^ORIGIN/, 'http://origin'), 'http://origin');
  const pairs = [...url.searchParams]
    .filter(([name, value]) => defaults[name] !== value)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${url.pathname}?${new URLSearchParams(pairs).toString()}`;
}

/** A Link header's links by rel, `self` apart, however its fields and quotes are written. */
function linkHeaderRead(header: string, defaults: Readonly<Record<string, string>>): string {
  const links = [...header.matchAll(/<([^>]*)>\s*;\s*rel="?([^",;\s]+)"?/g)]
    .filter(([, , rel]) => rel !== 'self')
    .map(([, url = '', rel = '']) => `${rel} ${linkRead(url, defaults)}`);
  return links.sort().join(', ');
}

/** A body with each string of a `links` object read as a client reads it. */
function linksIn(value: unknown, defaults: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(value)) return value.map((one) => linksIn(one, defaults));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === 'links' && typeof member === 'object' && member !== null
        ? Object.fromEntries(
            Object.entries(member as Record<string, unknown>).map(([rel, link]) => [
              rel,
              typeof link === 'string' ? linkRead(link, defaults) : link,
            ]),
          )
        : linksIn(member, defaults),
    ]),
  );
}

/** A JSON value with each object's members in code-unit order: equal values, equal text. */
function sortedMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedMembers);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, member]) => [key, sortedMembers(member)]),
  );
}

/**
 * Every page of a list at each page size, the page past the end included: `limit` absent, and
 * sizes that leave one item, a few items or a full last page.
 */
export function pagesOf(path: string, total: number, sizes: readonly (number | undefined)[]) {
  return sizes.flatMap((size) => {
    const perPage = size ?? 10;
    const last = Math.max(1, Math.ceil(total / perPage));
    return Array.from({ length: last + 1 }, (_, index) => {
      const query = [
        ...(size === undefined ? [] : [`limit=${String(size)}`]),
        `page=${String(index + 1)}`,
      ].join('&');
      return `${path}${path.includes('?') ? '&' : '?'}${query}`;
    });
  });
}

/** The first few answers that differ, each pair side by side: a readable failure of thousands. */
export function differing<T>(actual: readonly T[], expected: readonly T[], shown = 3) {
  const pairs = expected.map((one, index) => ({ expected: one, actual: actual[index] }));
  const apart = pairs.filter(
    (pair) => JSON.stringify(pair.actual) !== JSON.stringify(pair.expected),
  );
  return {
    count: actual.length === expected.length ? apart.length : -1,
    first: apart.slice(0, shown),
  };
}
