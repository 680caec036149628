/**
 * @module The checker's own reading of RFC 3339 dates and date-times (OpenAPI's `format: date`
 * and `date-time`), apart from the server's, so that a bug there cannot move the judge with it.
 */

/** A date-time is one instant; a date alone is a day, from its first instant to the next day's, in UTC. */
export type Instants =
  | { readonly kind: 'date-time'; readonly at: number }
  | { readonly kind: 'date'; readonly from: number; readonly to: number };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Undefined for text that is neither, or names a day or time that does not exist. */
export function instantsOf(text: string): Instants | undefined {
  const date = DATE.exec(text);
  if (date !== null) {
    const from = dayStart(Number(date[1]), Number(date[2]), Number(date[3]));
    return from === undefined ? undefined : { kind: 'date', from, to: from + 86_400_000 };
  }
  const time = DATE_TIME.exec(text);
  if (time === null) return undefined;
  const day = dayStart(Number(time[1]), Number(time[2]), Number(time[3]));
  const [hours, minutes, seconds] = [Number(time[4]), Number(time[5]), Number(time[6])];
  if (day === undefined || hours > 23 || minutes > 59 || seconds > 59) return undefined;
  // Every fraction digit RFC 3339 allows, not milliseconds only: `.6431` is after `.643`.
  const fraction = Number(`0${time[7] ?? ''}`) * 1000;
  const sign = time[8] === '-' ? -1 : 1;
  const offset = time[8] === undefined ? 0 : sign * (Number(time[9]) * 60 + Number(time[10]));
  const at = day + ((hours * 60 + minutes - offset) * 60 + seconds) * 1000 + fraction;
  return { kind: 'date-time', at };
}

function dayStart(year: number, month: number, day: number): number | undefined {
  const start = Date.UTC(year, month - 1, day);
  const back = new Date(start);
  return back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day
    ? start
    : undefined;
}
