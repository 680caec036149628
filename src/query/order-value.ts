/**
 * @module The number a `min` or `max` condition compares a value by: a number is itself, and an
 * RFC 3339 date or date-time (OpenAPI's `format: date`, `date-time`) is its instant, so that
 * `2024-03-01T10:00:00+02:00` and `2024-03-01T08:00:00Z` are the same moment however written.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * RFC 3339's date-time, and the offsets without a colon or minutes (`+0200`, `+02`) that the
 * format check of parameters lets through (ajv-formats, as ISO 8601 allows): each is read as
 * the instant it names, never as no date at all, which kept nothing.
 */
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:([Zz])|([+-]\d{2}):?(\d{2})?)$/;
const DAY_MS = 86_400_000;
/** A day's last instant is this much before the next day's first: a microsecond, in ms. */
const DAY_END = 0.001;

/**
 * The value's place in order, or undefined for a value that has none (text that is no date, a
 * boolean, an impossible date such as `2024-02-30`). A date alone is its day's first instant,
 * in UTC.
 */
export function orderValueOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  if (DATE.test(value)) {
    const instant = Date.parse(value);
    // Date.parse rolls 2024-02-30 over to March 1st; the day must read back as written.
    return Number.isNaN(instant) || new Date(instant).toISOString().slice(0, 10) !== value
      ? undefined
      : instant;
  }
  const parts = DATE_TIME.exec(value);
  if (parts === null) return undefined;
  const [, day, time, fraction, zulu, hours, minutes] = parts;
  const offset = zulu === undefined ? `${hours ?? ''}:${minutes ?? '00'}` : 'Z';
  const instant = Date.parse(`${day ?? ''}T${time ?? ''}${offset}`);
  // RFC 3339 allows any number of fraction digits; Date keeps milliseconds only, and
  // `…48.6431Z` must stay after `…48.643Z` (milliseconds as a fraction: a double holds them to
  // about a microsecond in this century).
  const seconds = fraction === undefined ? 0 : Number(`0.${fraction.slice(0, 9)}`);
  return Number.isNaN(instant) ? undefined : instant + seconds * 1000;
}

/**
 * The bound of a condition: a `max` given as a date alone takes in the whole day
 * (`created_max=2024-03-01` keeps what happened on March 1st), as a client means it.
 */
export function boundOf(match: 'min' | 'max', value: unknown): number | undefined {
  const bound = orderValueOf(value);
  if (bound === undefined) return undefined;
  return match === 'max' && typeof value === 'string' && DATE.test(value)
    ? bound + DAY_MS - DAY_END
    : bound;
}
