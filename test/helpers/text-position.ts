/** @module Where a needle stands in a test's own text, as an issue names it: `file:line:column`. */

/** `file:line:column` of the first `needle` in `text`, counted from 1. */
export function positionIn(file: string, text: string, needle: string): string {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, offset).split('\n');
  return `${file}:${String(before.length)}:${String((before.at(-1) ?? '').length + 1)}`;
}
