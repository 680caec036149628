/**
 * The layout holds the architecture: no two folders of src/ import each other (directly or
 * round a loop), and no code names a resource of the shipped spec: resources, fields and levels
 * come from the declarations (src/resources/). Read from the files' own import lines and text.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? sourceFiles(join(dir, entry.name))
        : Promise.resolve(entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []),
    ),
  );
  return nested.flat();
}

/** The folder of src/ a file is in; `.` for files at its root. */
function folderOf(file: string): string {
  const [first, ...rest] = relative(src, file).split('/');
  return rest.length === 0 ? '.' : (first ?? '.');
}

const files = await sourceFiles(src);
const texts = new Map(
  await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')] as const)),
);

/** Each edge `from → to` of a graph from which `to` reaches `from` again: a loop. */
function loopsIn(
  graph: ReadonlyMap<string, Iterable<string>>,
  name: (node: string) => string,
): string[] {
  const loops: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const seen = new Set<string>();
      const stack = [to];
      while (stack.length > 0) {
        const next = stack.pop() as string;
        if (next === from) {
          loops.push(`${name(from)} → ${name(to)} → … → ${name(from)}`);
          break;
        }
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(graph.get(next) ?? []));
      }
    }
  }
  return loops;
}

describe('the folders of src/', () => {
  it('import each other one way only: no loop between folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const [file, text] of texts) {
      for (const [, target = ''] of text.matchAll(/from '(\.[^']+)'/g)) {
        const from = folderOf(file);
        const to = folderOf(resolve(dirname(file), target));
        if (from === to || from === '.') continue;
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const loops = loopsIn(edges, (name) => name);
    expect(loops).toEqual([]);
  });

  it("the checker's files import each other one way only: no loop among src/contract's files", () => {
    const contract = [...texts.keys()].filter((file) =>
      relative(src, file).startsWith('contract/'),
    );
    const imports = new Map(
      contract.map((file) => [
        file,
        [...(texts.get(file) ?? '').matchAll(/from '(\.[^']+)'/g)].map(([, target = '']) =>
          resolve(dirname(file), target),
        ),
      ]),
    );
    const loops = loopsIn(imports, (file) => relative(src, file));
    expect(loops).toEqual([]);
  });

  it('name no route, operation or field of the shipped spec outside the checker and the generator', () => {
    // The contract checker is an oracle of the interface, and the generator makes products: both
    // know the stock service by design. The compatibility settings are the interface's open
    // points (`stockField: quantity | stock`), and the built-in defaults name the shipped files
    // and demo tokens. Everything else reads the declarations.
    const allowed = ['contract', 'generate', 'compatibility', 'config/load-config.ts'];
    const names = [
      /['"`]\/v1\//,
      /\b(listStock|getStock|listProducts|getProduct)\b/,
      /['"`](product_id|quantity|products)['"`]/,
      /['"`](available|out_of_stock|on_request|incoming)['"`]/,
      /\bStock(Quantity|Status)View\b/,
    ];
    const found = [...texts]
      .filter(
        ([file]) => !allowed.includes(folderOf(file)) && !allowed.includes(relative(src, file)),
      )
      .flatMap(([file, text]) =>
        text
          .split('\n')
          .map((line, index) => ({ line, at: `${relative(src, file)}:${String(index + 1)}` }))
          // Comments may give examples; code may not use them.
          .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line))
          .filter(({ line }) => names.some((name) => name.test(line)))
          .map(({ at, line }) => `${at} ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });
});
