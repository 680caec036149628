import fc from 'fast-check';
import { arbitraryProducts, NAME_CHARS } from '../helpers/arbitraries.ts';
import { describe, expect, it } from 'vitest';
import {
  allProducts,
  datasetOf as createCatalog,
  itemsDeclaration,
  parseDataset as parseCatalog,
  productAt,
  PRODUCTS,
  SHIPPED,
  STOCK_STATUSES,
} from '../helpers/datasets.ts';
import { statusOf } from '../helpers/reference-engine.ts';
import { SourceError } from '../../src/problems/source-error.ts';
import {
  derivationWarnings,
  fixtureCollections,
  parseFixtureText,
} from '../../src/dataset/load-fixture.ts';
import type { SourceIssue } from '../../src/problems/source-error.ts';
import { parseBlockFixture } from '../../src/source/block-fixture.ts';
import { parseJsonLineFixture } from '../../src/source/json-line-fixture.ts';
import { buildCollection } from '../../src/dataset/build-collection.ts';
import { collectionBuffers, collectionFromData } from '../../src/dataset/collection.ts';
import { createDataset, dataOperations } from '../../src/dataset/dataset.ts';
import { buildEngineData } from '../../src/query/engine.ts';
import { packStrings, unpackStrings } from '../../src/util/packed-strings.ts';
import type { CollectionData } from '../../src/dataset/collection.ts';
import type { CollectionDeclaration } from '../../src/resources/declarations.ts';

describe('the derived status', () => {
  it.each([
    [12, undefined, 'available'],
    [0, undefined, 'out_of_stock'],
    [null, undefined, 'on_request'],
    [0, 'incoming', 'incoming'],
    [5, 'out_of_stock', 'out_of_stock'],
    [null, 'available', 'available'],
  ] as const)('quantity %s with status %s is %s', (quantity, explicit, expected) => {
    const record = {
      id: 1,
      name: 'N',
      quantity,
      ...(explicit === undefined ? {} : { status: explicit }),
    };
    expect(productAt(createCatalog('d', [record]), 0).status).toBe(expected);
  });
});

describe('parseCatalog', () => {
  it('keeps extra fields, derives statuses and orders by id', () => {
    const catalog = parseCatalog(
      'ok.yaml',
      [
        'products:',
        '  - { id: 3, name: C, quantity: 0 }',
        '  - { id: 1, name: A, quantity: 4, category: tables, dims: { w: 1 } }',
        '  - { id: 2, name: B }',
        '  - { id: 4, name: D, quantity: null, status: incoming }',
      ].join('\n'),
    );
    expect(allProducts(catalog).map((p) => [p.id, p.status, p.quantity])).toEqual([
      [1, 'available', 4],
      [2, 'on_request', null],
      [3, 'out_of_stock', 0],
      [4, 'incoming', null],
    ]);
    const { records: collection } = catalog.loaded('products');
    expect(JSON.parse(collection.restAt(collection.positionOf(1)))).toEqual({
      category: 'tables',
      dims: { w: 1 },
    });
  });

  const bad = (lines: string[]) => () => parseCatalog('bad.yaml', lines.join('\n'));
  /** The SourceError that parsing the lines throws; anything else fails the test. */
  const refusalOf = (lines: string[]): SourceError => {
    try {
      bad(lines)();
    } catch (caught) {
      if (caught instanceof SourceError) return caught;
      throw caught;
    }
    throw new Error('not refused');
  };
  it.each([
    ['YAML syntax', ['products:', '  - id: 1', '    name: [unclosed'], 3, ''],
    [
      'a duplicate id',
      ['products:', '  - id: 1', '    name: A', '  - id: 1', '    name: B'],
      4,
      'products[1].id',
    ],
    [
      'a negative quantity',
      ['products:', '  - id: 1', '    name: A', '    quantity: -2'],
      4,
      'products[0].quantity',
    ],
    [
      'a fractional quantity',
      ['products:', '  - id: 1', '    name: A', '    quantity: 1.5'],
      4,
      'products[0].quantity',
    ],
    [
      'an unknown status',
      ['products:', '  - id: 1', '    name: A', '    status: sold'],
      4,
      'products[0].status',
    ],
    [
      'a missing name',
      ['products:', '  - { id: 1, name: A }', '  - id: 2', '    quantity: 3'],
      3,
      'products[1].name',
    ],
    [
      'an id that is not a positive integer',
      ['products:', '  - id: "7"', '    name: A'],
      2,
      'products[0].id',
    ],
    ['no products list', ['items: []'], 1, 'products'],
    ['a list no collection declares', ['products:', '  - { id: 1, name: A }', 'items: []'], 3, ''],
  ])('refuses %s, naming file, line and field', (_title, lines, line, field) => {
    const error = refusalOf(lines);
    const [issue] = error.issues;
    expect(issue).toMatchObject({ file: 'bad.yaml', at: { line }, field });
    expect(error.message).toContain(`bad.yaml:${String(line)}:`);
  });

  it('says which id is repeated and on which line it was first used', () => {
    const [issue] = refusalOf([
      'products:',
      '  - { id: 7, name: A }',
      '  - { id: 8, name: B }',
      '  - { id: 7, name: C }',
    ]).issues;
    expect(issue).toMatchObject({
      at: { line: 4 },
      field: 'products[2].id',
      message: 'duplicate id 7, first used on line 2; ids must be unique',
    });
  });

  it('locates the first hundred repeated ids and counts the rest, reading no more', () => {
    // 150 ids, each twice, out of order: 150 duplicates, of which 100 are located one by one.
    const lines = ['products:'];
    for (const round of [0, 1]) {
      for (let id = 150; id >= 1; id--)
        lines.push(`  - { id: ${String(id)}, name: N${String(round)} }`);
    }
    const source = parseFixtureText('bad.yaml', lines.join('\n'));
    // Each locating reads the file: a large one with a duplicate on every line took hours.
    let located = 0;
    const counted = {
      ...source,
      locate: (...at: Parameters<typeof source.locate>) => {
        located += 1;
        return source.locate(...at);
      },
    };
    let issues: readonly SourceIssue[] = [];
    try {
      fixtureCollections(counted, [PRODUCTS]);
    } catch (caught) {
      if (!(caught instanceof SourceError)) throw caught;
      issues = caught.issues;
    }
    expect(issues).toHaveLength(101);
    expect(issues[0]).toMatchObject({ at: { line: 152 }, field: 'products[150].id' });
    expect(issues[99]).toMatchObject({ at: { line: 251 }, field: 'products[249].id' });
    expect(issues[100]?.message).toBe('and 50 more issues like these');
    // Two per located issue (where it is, and where its id was first used), none for the rest.
    expect(located).toBe(200);
  });

  // A writer's mistake is where the quote or bracket opens; the parser runs out of text far below.
  it.each([
    [
      'an unclosed double quote',
      [
        'products:',
        '  - id: 1',
        '    name: "Oak table',
        '    quantity: 3',
        '  - id: 2',
        '    name: B',
      ],
      { line: 3, column: 11 },
    ],
    [
      'an unclosed single quote',
      ['products:', '  - id: 1', "    name: 'Oak", '    quantity: 3', '  - id: 2', '    name: B'],
      { line: 3, column: 11 },
    ],
    [
      'an unclosed flow mapping',
      ['products:', '  - { id: 1, name: Oak', '  - id: 2', '    name: B'],
      { line: 2, column: 5 },
    ],
    ['a tab as indentation', ['products:', '\t- id: 1'], { line: 2, column: 1 }],
    [
      'a bad indentation',
      ['products:', '  - id: 1', '    name: Oak', '   quantity: 3'],
      { line: 4, column: 1 },
    ],
  ])('says "YAML syntax error" where %s starts', (_title, lines, at) => {
    const [issue] = refusalOf(lines).issues;
    expect(issue).toMatchObject({ file: 'bad.yaml', at, field: '' });
    expect(issue?.message).toMatch(/^YAML syntax error: /);
  });

  it('reports the first 100 issues of a file, then how many more', () => {
    const lines = ['products:'];
    for (let id = 1; id <= 1000; id++)
      lines.push(`  - { id: ${String(id)}, name: P, quantity: -1 }`);
    const { issues } = refusalOf(lines);
    expect(issues).toHaveLength(101);
    expect(issues[99]).toMatchObject({ at: { line: 101 }, field: 'products[99].quantity' });
    expect(issues[100]).toEqual({
      file: 'bad.yaml',
      field: '',
      message: 'and 900 more issues like these',
    });
    const twins = ['products:', ...Array.from({ length: 150 }, () => '  - { id: 1, name: P }')];
    const duplicates = refusalOf(twins).issues;
    expect(duplicates).toHaveLength(101);
    expect(duplicates[100]?.message).toBe('and 49 more issues like these');
  });

  it('reports every issue of a file at once', () => {
    const error = (() => {
      try {
        bad(['products:', '  - { id: 1, quantity: -1 }', '  - { id: 2, name: B, status: sold }'])();
      } catch (caught) {
        return caught as SourceError;
      }
      throw new Error('not refused');
    })();
    expect(error.issues.map((issue) => issue.field).sort()).toEqual([
      'products[0].name',
      'products[0].quantity',
      'products[1].status',
    ]);
  });
});

describe('every reading path of a fixture', () => {
  // The same three products, the second with a negative quantity, in each layout that has a
  // reader of its own: the generator's JSON lines, hand-written block mappings, and anything
  // else (here flow mappings), which goes to js-yaml.
  const layouts = [
    {
      layout: 'JSON lines',
      read: parseJsonLineFixture,
      text: [
        'products:',
        '  - {"id": 1, "name": "A", "quantity": 1}',
        '  - {"id": 2, "name": "B", "quantity": -1}',
        '  - {"id": 3, "name": "C", "quantity": 3}',
      ],
      line: 3,
    },
    {
      layout: 'block mappings',
      read: parseBlockFixture,
      text: [
        'products:',
        '  - id: 1',
        '    name: A',
        '    quantity: 1',
        '  - id: 2',
        '    name: B',
        '    quantity: -1',
        '  - id: 3',
        '    name: C',
        '    quantity: 3',
      ],
      line: 7,
    },
    {
      layout: 'flow mappings',
      read: undefined,
      text: [
        'products:',
        '  - { id: 1, name: A, quantity: 1 }',
        '  - { id: 2, name: B, quantity: -1 }',
        '  - { id: 3, name: C, quantity: 3 }',
      ],
      line: 3,
    },
  ] as const;

  it.each(layouts)(
    'reports an issue as every other path does ($layout)',
    ({ read, text, line }) => {
      const joined = `${text.join('\n')}\n`;
      // The layout really is read by its own reader, or by none of them.
      if (read === undefined) {
        expect(parseJsonLineFixture(joined) ?? parseBlockFixture(joined)).toBeUndefined();
      } else expect(read(joined)).toBeDefined();
      let issues: unknown;
      try {
        parseCatalog('f.yaml', joined);
      } catch (error) {
        issues = (error as SourceError).issues;
      }
      expect(issues).toEqual([
        {
          file: 'f.yaml',
          at: { line, column: expect.any(Number) as number },
          field: 'products[1].quantity',
          message: 'must be >= 0',
        },
      ]);
    },
  );
});

describe('columns', () => {
  const extraKey = fc
    .string({ maxLength: 3 })
    .filter((key) => !['id', 'name', 'quantity', 'status', '__proto__'].includes(key));
  const entries = fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: -50, max: 50 }),
      name: fc.string({ unit: NAME_CHARS, minLength: 1, maxLength: 2 }),
      quantity: fc.option(fc.integer({ min: 0, max: 2 ** 40 }), { nil: null }),
      status: fc.option(fc.constantFrom(...STOCK_STATUSES), { nil: undefined }),
      extra: fc.dictionary(extraKey, fc.jsonValue(), { maxKeys: 3 }),
    }),
    { selector: (entry) => entry.id, maxLength: 40 },
  );
  it('give back every product as it went in, in id order', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const products = list.map(({ status, extra, ...entry }) => ({
          ...entry,
          ...extra,
          ...(status === undefined ? {} : { status }),
        }));
        const sorted = [...products].sort((a, b) => a.id - b.id);
        const catalog = createCatalog('c', products);
        const { records: collection } = catalog.loaded('products');
        expect(collection.size).toBe(products.length);
        expect(allProducts(catalog)).toEqual(
          sorted.map((p) => ({
            id: p.id,
            name: p.name,
            quantity: p.quantity,
            status: statusOf(p),
          })),
        );
        sorted.forEach((product, position) => {
          expect(collection.positionOf(product.id)).toBe(position);
          const declared = new Set(['id', 'name', 'quantity', 'status']);
          const extra = Object.fromEntries(
            Object.entries(product).filter(([key]) => !declared.has(key)),
          );
          // As JSON writes them (JSON has no -0).
          expect(JSON.parse(collection.restAt(position))).toEqual(
            JSON.parse(JSON.stringify(extra)),
          );
        });
      }),
      { numRuns: 300 },
    );
  });

  it('keep an undeclared field named __proto__ as a field, in its place', () => {
    // As JSON.parse gives it: an own field, not the object's prototype.
    const product = JSON.parse(
      '{"id": 1, "name": "a", "quantity": 1, "a": 1, "__proto__": {"b": 2}, "c": 3}',
    ) as Record<string, unknown>;
    const { records: collection } = createCatalog('c', [product]).loaded('products');
    expect(collection.restAt(0)).toBe('{"a":1,"__proto__":{"b":2},"c":3}');
  });
});

describe('byId', () => {
  const products = arbitraryProducts({ maxId: 60, maxNameLength: 2, maxLength: 40 });
  it('finds what a search of the list finds, for gapped and gapless ids', () => {
    fc.assert(
      fc.property(
        products,
        fc.boolean(),
        fc.integer({ min: -3, max: 3 }),
        (list, gapless, shift) => {
          // Gapless: the same products renumbered from 1 + shift, in shuffled order.
          const entries = gapless
            ? list.map((product, i) => ({ ...product, id: list.length - i + shift }))
            : list;
          const catalog = createCatalog('c', entries);
          const { records: collection } = catalog.loaded('products');
          const found = (id: number) => {
            const position = collection.positionOf(id);
            // Not found is -1 exactly, as positionOf promises, never another negative number.
            if (position < 0) expect(position).toBe(-1);
            return position < 0 ? undefined : productAt(catalog, position);
          };
          const expected = (id: number) => {
            const product = entries.find((p) => p.id === id);
            return product === undefined
              ? undefined
              : {
                  id,
                  name: product.name,
                  quantity: product.quantity ?? null,
                  status: statusOf(product),
                };
          };
          for (const id of [-1, 0, 0.5, 1, 2, 7, 59.5, 60, 61, entries.length + shift + 1]) {
            expect(found(id)).toEqual(expected(id));
          }
          for (const product of entries) expect(found(product.id)).toEqual(expected(product.id));
        },
      ),
      { numRuns: 200, seed: 31 },
    );
  });
});

describe('derivationWarnings', () => {
  const warningsOf = (lines: string[]) =>
    derivationWarnings('w.yaml', ['products:', ...lines].join('\n'), [PRODUCTS]);

  it('tells each explicit status that the quantity would not give, with its line and field', () => {
    expect(
      warningsOf([
        '  - { id: 1, name: A, quantity: 5, status: out_of_stock }',
        '  - { id: 2, name: B, quantity: 0, status: out_of_stock }',
        '  - { id: 3, name: C, quantity: null, status: incoming }',
        '  - { id: 4, name: D, quantity: null, status: available }',
        '  - { id: 5, name: E, quantity: 0 }',
        '  - { id: 6, name: F, status: out_of_stock }',
      ]),
    ).toMatchObject([
      {
        file: 'w.yaml',
        at: { line: 2 },
        field: 'products[0].status',
        message:
          'is out_of_stock, where quantity gives available: served as written (an explicit value wins)',
      },
      {
        at: { line: 5 },
        field: 'products[3].status',
        message:
          'is available, where quantity gives on_request: served as written (an explicit value wins)',
      },
      {
        at: { line: 7 },
        field: 'products[5].status',
        message:
          'is out_of_stock, where quantity gives on_request: served as written (an explicit value wins)',
      },
    ]);
  });

  it('tells twenty, then how many more', () => {
    const lines = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => `  - { id: ${String(i + 1)}, name: N, quantity: 1, status: on_request }`,
      );
    expect(warningsOf(lines(20))).toHaveLength(20);
    const many = warningsOf(lines(25));
    expect(many).toHaveLength(21);
    expect(many[19]?.field).toBe('products[19].status');
    expect(many[20]).toStrictEqual({
      file: 'w.yaml',
      field: '',
      message: 'and 5 more disagreements like these',
    });
  });
});

describe('buildCollection', () => {
  const ITEMS = itemsDeclaration({ spec: 'other' });
  const valuesOf = (data: CollectionData) => {
    const column = data.columns['spec'];
    if (column === undefined) throw new Error('no spec column');
    return { values: unpackStrings(column.values), of: [...column.of] };
  };

  it('numbers equal values once: objects by their JSON, apart from any string or number', () => {
    const specs = [{ w: 1 }, { w: 1 }, { w: 2 }, '\u0000{"w":1}', '{"w":1}', 1, '1', null, 'null'];
    const data = buildCollection(
      ITEMS,
      'n.yaml',
      specs.map((spec, i) => ({ id: i + 1, spec })),
    );
    expect(valuesOf(data)).toStrictEqual({
      values: [
        '{"w":1}',
        '{"w":2}',
        '"\\u0000{\\"w\\":1}"',
        '"{\\"w\\":1}"',
        '1',
        '"1"',
        'null',
        '"null"',
      ],
      of: [0, 0, 1, 2, 3, 4, 5, 6, 7],
    });
  });

  it('has a column for every declared field but the key; -1 where a record has none', () => {
    const data = buildCollection(ITEMS, 'k.yaml', [{ id: 2 }, { id: 1, spec: 'x' }]);
    expect(Object.keys(data.columns)).toStrictEqual(['spec']);
    expect(data.keys.type === 'integer' && [...data.keys.values]).toStrictEqual([1, 2]);
    expect(valuesOf(data)).toStrictEqual({ values: ['"x"'], of: [0, -1] });
  });

  it('keeps undeclared fields only when asked to', () => {
    const records = [{ id: 1, other: [1] }, { id: 2 }];
    const kept = buildCollection(ITEMS, 'r.yaml', records);
    expect(unpackStrings(kept.rest ?? packStrings([]))).toStrictEqual(['{"other":[1]}', '{}']);
    expect(buildCollection(ITEMS, 'r.yaml', records, 'elsewhere').rest).toBeUndefined();
  });
});

describe('collectionBuffers', () => {
  it('are every buffer of the columns, so a transfer moves them all', () => {
    const data = buildCollection(PRODUCTS, 't.yaml', [
      { id: 1, name: 'A', quantity: 2, extra: 1 },
      { id: 2, name: 'B' },
    ]);
    const arrays = [
      data.keys.type === 'integer' ? data.keys.values : undefined,
      ...Object.values(data.columns).flatMap((column) => [column.of, column.values.ends]),
      data.rest?.ends,
    ];
    expect(arrays.every((array) => array !== undefined && array.byteLength > 0)).toBe(true);
    const moved = structuredClone(data, { transfer: collectionBuffers(data) });
    // A transferred buffer is detached where it came from: nothing was copied.
    expect(arrays.map((array) => array?.byteLength)).toStrictEqual(arrays.map(() => 0));
    expect(collectionFromData(moved).restAt(0)).toBe('{"extra":1}');
  });
});

describe('createDataset', () => {
  const indexed = (data: CollectionData) => ({
    collection: collectionFromData(data),
    indexes: buildEngineData(data.columns, { exact: [], contains: [] }),
  });
  const OTHER: CollectionDeclaration = { ...PRODUCTS, name: 'others' };

  it('names every source once, in order; a collection not loaded is a wiring error', () => {
    const dataset = createDataset([
      indexed(buildCollection(PRODUCTS, 'a.yaml', [{ id: 1, name: 'A' }])),
      indexed(buildCollection(OTHER, 'b.yaml', [])),
    ]);
    expect(dataset.source).toBe('a.yaml, b.yaml');
    expect(dataset.sizes).toStrictEqual(
      new Map([
        ['products', 1],
        ['others', 0],
      ]),
    );
    expect(() => dataset.collection('nope')).toThrow(new Error('No collection is named nope'));
    const again = createDataset([
      indexed(buildCollection(PRODUCTS, 'a.yaml', [])),
      indexed(buildCollection(OTHER, 'a.yaml', [])),
    ]);
    expect(again.source).toBe('a.yaml');
    expect(again.serial).not.toBe(dataset.serial);
  });

  it('a level with no declared view is a wiring error, not a record', () => {
    const operations = dataOperations(SHIPPED, {
      linkLimit: 'always',
      linkEncoding: 'percent',
      order: 'id',
      nameMatch: 'case-insensitive',
      pastTheEnd: 'empty',
      stockField: 'quantity',
      productIdType: 'integer',
    });
    const operation = operations.get('getStock');
    if (operation?.kind !== 'item') throw new Error('getStock is not an item operation');
    const dataset = createDataset([
      indexed(buildCollection(PRODUCTS, 'a.yaml', [{ id: 1, name: 'A' }])),
    ]);
    expect(operation.get(dataset, 1, [], 'status')).toBe('{"product_id":1,"status":"on_request"}');
    expect(() => operation.get(dataset, 1, [], null)).toThrow(
      new Error('No view is declared for the access level null'),
    );
    expect(() => operation.get(dataset, 1, [], 'admin')).toThrow(
      new Error('No view is declared for the access level admin'),
    );
  });
});
