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

/**
 * An answer as the round trip must keep it. A success: its type, Link and body byte for byte (or,
 * `asJson`, the body's JSON value, for a service whose formatting no setting mirrors). A refusal:
 * its status and problem type; its `detail` is prose of the service's own.
 */
export function keptOf(answer: Answer, asJson = false): string {
  const head = `${answer.asked} → ${String(answer.status)}`;
  if (answer.status >= 300) {
    const type = (JSON.parse(answer.body) as { type?: unknown }).type;
    return `${head} ${String(type)}`;
  }
  const body = asJson ? JSON.stringify(sortedMembers(JSON.parse(answer.body))) : answer.body;
  return [head, answer.type, answer.link, body].join('\n');
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
