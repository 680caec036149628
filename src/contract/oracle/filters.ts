/**
 * @module Which items a declared filter keeps, by every correct reading of its value (`keeps`)
 * and by the loosest one (`mayKeep`): where the two agree, the answer is computed exactly.
 */
import type { DeclaredFilter } from '../declared.ts';
import { foldLoosely } from './fold-case.ts';
import { instantsOf } from './instants.ts';

/** Whether a served value passes a filter written as `text`, by every correct reading. */
export function keeps(filter: DeclaredFilter, value: unknown, text: string): boolean {
  switch (filter.match) {
    case 'exact':
      return (
        (typeof value === 'string' && value === text) ||
        ((typeof value === 'number' || typeof value === 'boolean') && String(value) === text)
      );
    case 'min':
    case 'max':
      return withinBound(filter.match, value, text, 'strict');
    case 'contains':
      return typeof value === 'string' && value.includes(text);
  }
}

/**
 * Whether the loosest correct reading keeps it: a `contains` may fold case and accents, and a
 * `max` given as a day alone may end at the day's first instant or take in the whole day.
 */
export function mayKeep(filter: DeclaredFilter, value: unknown, text: string): boolean {
  // RFC 9562 §4: a UUID is read in either case.
  if (filter.match === 'exact' && filter.schema.format === 'uuid' && typeof value === 'string') {
    return value.toLowerCase() === text.toLowerCase();
  }
  if (filter.match === 'contains') {
    return holdsLoosely(typeof value === 'string' ? foldLoosely(value) : undefined, text);
  }
  if (filter.match === 'max') return withinBound('max', value, text, 'loose');
  return keeps(filter, value, text);
}

/**
 * Whether a served text, folded loosely (or none), holds a `contains` needle by the loosest
 * reading. An empty needle read as no filter keeps items without the field too.
 */
export function holdsLoosely(folded: string | undefined, text: string): boolean {
  return text === '' || (folded !== undefined && folded.includes(foldLoosely(text)));
}

/**
 * A number within a numeric bound, or an instant within a date or date-time bound (compared as
 * instants: offsets written differently are the same moment). A day alone as `min` starts at
 * its first instant (UTC); as `max` it ends there (`strict`) or at the day's end (`loose`).
 */
function withinBound(
  match: 'min' | 'max',
  value: unknown,
  text: string,
  reading: 'strict' | 'loose',
): boolean {
  if (typeof value === 'number') {
    return match === 'min' ? value >= Number(text) : value <= Number(text);
  }
  const bound = instantsOf(text);
  const served = typeof value === 'string' ? instantsOf(value) : undefined;
  if (bound === undefined || served === undefined) return false;
  const at = served.kind === 'date' ? served.from : served.at;
  if (match === 'min') return at >= (bound.kind === 'date' ? bound.from : bound.at);
  if (bound.kind === 'date-time') return at <= bound.at;
  return reading === 'loose' || served.kind === 'date' ? at < bound.to : at <= bound.from;
}
