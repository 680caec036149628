/** @module Dates and instants as RFC 3339 text, by arithmetic, in the years data is made for. */

/** Instants are drawn from 2023 to 2025 unless a schema's examples name other years. */
export const DEFAULT_YEARS = { from: 2023, to: 2025 } as const;

/** The first instant of a year and the length of a span of years, in milliseconds. */
export function spanOfYears(from: number, to: number): { start: number; length: number } {
  const start = Date.UTC(from, 0, 1);
  return { start, length: Date.UTC(to + 1, 0, 1) - start };
}

/** Two digits of each number below 100. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

/**
 * An instant as RFC 3339 UTC to the second, `2024-03-01T10:00:00Z`, by arithmetic: Date's
 * toISOString was a fifth of the time.
 */
export function dateTimeText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86_400);
  const inDay = seconds - days * 86_400;
  const two = (n: number) => TWO_DIGITS[n] ?? '';
  const hour = Math.floor(inDay / 3600);
  const minute = Math.floor((inDay % 3600) / 60);
  return `${civilDate(days)}T${two(hour)}:${two(minute)}:${two(inDay % 60)}Z`;
}

/** The day of an instant, `2024-03-01`. */
export function dateText(ms: number): string {
  return civilDate(Math.floor(Math.floor(ms / 1000) / 86_400));
}

/** The date of a count of days since 1970-01-01 (H. Hinnant's algorithm). */
function civilDate(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year)}-${TWO_DIGITS[month] ?? ''}-${TWO_DIGITS[day] ?? ''}`;
}
