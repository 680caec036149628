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

/** Each answer, in the order asked: `GET path (level)\nstatus type\nlink\nbody`. */
export async function answersOf(served: Served, asked: readonly Asked[]): Promise<string[]> {
  const answers: string[] = [];
  for (let start = 0; start < asked.length; start += IN_FLIGHT) {
    const batch = asked.slice(start, start + IN_FLIGHT);
    answers.push(
      ...(await Promise.all(
        batch.map(async ({ path, level }) => {
          const token = served.tokens[level];
          const response = await fetch(`${served.url}${path}`, {
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
          });
          const body = await response.text();
          const shown = (text: string | null) => (text ?? '').replaceAll(served.url, 'ORIGIN');
          return [
            `GET ${path} (${level})`,
            `${String(response.status)} ${response.headers.get('content-type') ?? ''}`,
            shown(response.headers.get('link')),
            shown(body),
          ].join('\n');
        }),
      )),
    );
  }
  return answers;
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
