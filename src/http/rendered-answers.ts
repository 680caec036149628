/**
 * @module The rendered answers of the catalogue's operations, kept.
 *
 * An answer of /v1/stock or /v1/products is a function of the dataset, the request's URL, the
 * caller's access level and the origin its links start with; a dataset cannot change, and a
 * reload or another scenario is another dataset with another serial. So the JSON text of an
 * answer asked for twice is kept and sent again: a first page, a status filter or a search that
 * clients repeat costs a lookup instead of the parameter check, the query, the page and the
 * links (about 10 µs of a request's 70–100 µs of CPU, profiled at 100 000 products).
 *
 * One set per app, whatever the log level. Only answers asked for a second time are kept (the
 * doorkeeper of BoundedCache), so a stream of fresh searches never enters, and the set is
 * bounded by entries and by characters. Answers of a replaced dataset can no longer be asked
 * for; they age out as the set fills.
 */
import type { Dataset } from '../scenarios/scenario-store.ts';
import { BoundedCache } from '../util/bounded-cache.ts';

/** At most this many answers… */
const MAX_ANSWERS = 1000;
/** …holding at most this many characters together (a page of 100 products is about 10 000). */
const MAX_CHARACTERS = 4_000_000;

/** An answer's text and the headers it carries parts in; `length` is the text's, for the bound. */
export interface KeptAnswer {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly length: number;
}

export type KeptAnswers = BoundedCache<KeptAnswer>;

export function createKeptAnswers(): KeptAnswers {
  return new BoundedCache<KeptAnswer>({
    maxEntries: MAX_ANSWERS,
    maxItems: MAX_CHARACTERS,
    admitOnSecondSight: true,
  });
}

/**
 * Everything an answer depends on. A URL holds no space, nor does an origin, a level or a
 * serial, so the parts cannot run into each other.
 */
export function answerKey(dataset: Dataset, level: string, origin: string, url: string): string {
  return `${String(dataset.serial)} ${level} ${origin} ${url}`;
}
