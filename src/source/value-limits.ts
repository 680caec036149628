/**
 * @module The limits of a parsed value, one rule for every reader of every file:
 *
 * - its nesting depth: a file of 200 000 nested lists overflowed the stack of whatever walked
 *   it next, and each reader refused a different depth;
 * - what YAML aliases make of it: js-yaml gives an alias the very object its anchor names, so a
 *   few hundred bytes of nested aliases (`b: [*a, *a, …]`, `c: [*b, *b, …]`) stand for hundreds
 *   of millions of values once anything walks them, and an alias inside its own anchor makes a
 *   cycle.
 *
 * All are measured here, in one walk, before anything else walks the value.
 */

/** How deep values may nest: a spec needs about twenty levels, a fixture's record a handful. */
export const MAX_DEPTH = 64;

/**
 * Aliases may repeat what a file writes, within reason: the values a walk meets may be at most
 * this many times those the file writes, plus `ALIAS_ALLOWANCE`. A hundred thousand products
 * that each name one shared five-field object stay far below; a 456-byte alias bomb of nine
 * nine-way levels (387 million values) is refused.
 */
export const ALIAS_GROWTH = 10;
export const ALIAS_ALLOWANCE = 10_000;

export type Path = readonly (string | number)[];

export type ValueVerdict =
  | { readonly kind: 'fine' }
  /** Nested deeper than `MAX_DEPTH`; `path` is the first value past it. */
  | { readonly kind: 'deep'; readonly path: Path }
  /** An alias inside the node it names: at `path`, the walk meets an ancestor again. */
  | { readonly kind: 'cycle'; readonly path: Path }
  /** Aliases expand the value past the growth allowed; `path` is the first alias met. */
  | { readonly kind: 'expands'; readonly path: Path; readonly written: number };

interface Frame {
  readonly node: object;
  readonly keys: readonly (string | number)[];
  next: number;
  /** Values below this node once every alias is expanded, capped past the limit. */
  size: number;
}

function childrenOf(node: object): (string | number)[] {
  return Array.isArray(node) ? node.map((_item, index) => index) : Object.keys(node);
}

/**
 * The value's limits. Only a YAML text with an anchor (`&`) can hold aliases: any other is a
 * tree, and only its depth is measured, by a walk that never nests past `MAX_DEPTH` (5 ms at
 * 100 000 generated products, where the walk that follows aliases takes 45 ms).
 */
export function judgeValue(root: unknown, options: { readonly aliases: boolean }): ValueVerdict {
  if (options.aliases) return judgeGraph(root);
  const path = typeof root === 'object' && root !== null ? deepPath(root, 0) : undefined;
  return path === undefined ? { kind: 'fine' } : { kind: 'deep', path };
}

/**
 * The path to the first object past `MAX_DEPTH` levels of a tree, or undefined. Plain loops:
 * `Object.entries` made the same walk take 65 ms, its arrays the cost.
 */
function deepPath(value: object, depth: number): (string | number)[] | undefined {
  if (depth >= MAX_DEPTH) return [];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const below = deeperAt(value[index], depth);
      if (below !== undefined) return [index, ...below];
    }
    return undefined;
  }
  for (const key in value) {
    const below = deeperAt((value as Record<string, unknown>)[key], depth);
    if (below !== undefined) return [key, ...below];
  }
  return undefined;
}

function deeperAt(item: unknown, depth: number): (string | number)[] | undefined {
  return typeof item === 'object' && item !== null ? deepPath(item, depth + 1) : undefined;
}

/**
 * Walks a parsed value once per distinct object, without recursion (a deep file must not
 * overflow the stack here), and tells whether it nests too deep, or its aliases form a cycle
 * or expand it too far.
 */
function judgeGraph(root: unknown): ValueVerdict {
  if (typeof root !== 'object' || root === null) return { kind: 'fine' };
  /** Expanded size of each object measured so far; an object met again is an alias. */
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const stack: Frame[] = [{ node: root, keys: childrenOf(root), next: 0, size: 1 }];
  open.add(root);
  let written = 1;
  let firstAlias: Path | undefined;
  // Each open frame but the top was entered through the key before its `next`.
  const pathTo = (key: string | number): Path => [
    ...stack.slice(0, -1).map((frame) => frame.keys[frame.next - 1] ?? ''),
    key,
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next === frame.keys.length) {
      stack.pop();
      open.delete(frame.node);
      sizes.set(frame.node, frame.size);
      const parent = stack[stack.length - 1];
      if (parent !== undefined)
        parent.size = Math.min(parent.size + frame.size, Number.MAX_SAFE_INTEGER);
      continue;
    }
    const key = frame.keys[frame.next] as string | number;
    frame.next += 1;
    const child = (frame.node as Record<string | number, unknown>)[key];
    if (typeof child !== 'object' || child === null) {
      frame.size += 1;
      written += 1;
      continue;
    }
    if (open.has(child)) return { kind: 'cycle', path: pathTo(key) };
    const known = sizes.get(child);
    if (known !== undefined) {
      firstAlias ??= pathTo(key);
      // Capped: forty nine-way levels would pass any float.
      frame.size = Math.min(frame.size + known, Number.MAX_SAFE_INTEGER);
      continue;
    }
    if (stack.length >= MAX_DEPTH) return { kind: 'deep', path: pathTo(key) };
    written += 1;
    open.add(child);
    stack.push({ node: child, keys: childrenOf(child), next: 0, size: 1 });
  }
  const total = sizes.get(root) ?? 1;
  return total > ALIAS_GROWTH * written + ALIAS_ALLOWANCE && firstAlias !== undefined
    ? { kind: 'expands', path: firstAlias, written }
    : { kind: 'fine' };
}
