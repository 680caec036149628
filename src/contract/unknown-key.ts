/** @module A key that no record has, for the 404 probes. */
import { compilePattern } from '../source/linear-pattern.ts';
import type { Id } from './walk.ts';

/**
 * A key no record has that the key's own schema still takes, so that the answer tells "not
 * found" (404) and not "malformed" (400). Integers: one above the largest (1 where there is
 * none; a loop, not `Math.max(...keys)`: a million arguments overflow the stack). Strings: a
 * known key with one character changed to another of its kind (a digit for a digit, a letter of
 * the same case for a letter), from the end, until the result is new and fits the pattern;
 * undefined where none does.
 */
export function unknownKey(keys: readonly Id[], pattern?: string): Id | undefined {
  const texts = keys.filter((key) => typeof key === 'string');
  if (texts.length === 0) {
    let largest = 0;
    for (const key of keys) if (typeof key === 'number' && key > largest) largest = key;
    return largest + 1;
  }
  const known = new Set<Id>(keys);
  const fits = patternTest(pattern);
  for (const key of texts.slice(0, 20)) {
    const characters = Array.from(key);
    for (let at = characters.length - 1; at >= 0; at--) {
      for (const other of kindOf(characters[at] ?? '')) {
        const candidate = [...characters.slice(0, at), other, ...characters.slice(at + 1)].join('');
        if (!known.has(candidate) && fits(candidate)) return candidate;
      }
    }
  }
  return undefined;
}

function kindOf(character: string): string {
  if (/\d/.test(character)) return '0123456789';
  if (/[a-z]/.test(character)) return 'abcdefghijklmnopqrstuvwxyz';
  if (/[A-Z]/.test(character)) return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return '';
}

/** A spec's pattern as a test; one that does not compile (another dialect) lets all through. */
function patternTest(pattern: string | undefined): (text: string) => boolean {
  if (pattern === undefined) return () => true;
  try {
    const compiled = compilePattern(pattern);
    return (text) => compiled.test(text);
  } catch {
    return () => true;
  }
}
