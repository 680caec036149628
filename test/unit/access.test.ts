import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenTable } from '../../src/access/token-table.ts';
import { buildCollection } from '../../src/dataset/build-collection.ts';
import { collectionFromData } from '../../src/dataset/collection.ts';
import { viewWriter, type ViewSettings } from '../../src/dataset/view-writer.ts';
import type { ViewDeclaration } from '../../src/resources/declarations.ts';
import { presentedToken } from '../../src/http/plugins/bearer-auth.ts';
import { PRODUCTS, SHIPPED, STOCK_STATUSES, type ProductRecord } from '../helpers/datasets.ts';

const DEFAULT_SETTINGS: ViewSettings = { stockField: 'quantity', productIdType: 'integer' };

/** The view a shipped operation declares, for a level. */
function declaredView(operationId: string, level: string): ViewDeclaration {
  const declaration = SHIPPED.operations.get(operationId);
  if (declaration === undefined || !('views' in declaration)) throw new Error(operationId);
  const { views } = declaration;
  const view = views.kind === 'every' ? views.view : views.views.get(level);
  if (view === undefined) throw new Error(`${operationId} has no view for ${level}`);
  return view;
}

/** The JSON text the shipped view of an operation writes for one product. */
function written(
  operationId: string,
  level: string,
  product: ProductRecord,
  settings: ViewSettings = DEFAULT_SETTINGS,
): string {
  const collection = collectionFromData(buildCollection(PRODUCTS, 'a.yaml', [product]));
  return viewWriter(PRODUCTS, declaredView(operationId, level), settings)(collection, 0);
}

/** A stock object as a level sees it, built the obvious way: the writer's reference. */
function toStockView(
  stock: { id: number; quantity: number | null; status: string },
  level: string,
  settings: ViewSettings,
): Record<string, unknown> {
  const productId = settings.productIdType === 'string' ? String(stock.id) : stock.id;
  return level === 'quantity'
    ? { product_id: productId, [settings.stockField]: stock.quantity, status: stock.status }
    : { product_id: productId, status: stock.status };
}

const product: ProductRecord = { id: 7, name: 'X', quantity: 3, color: 'red' };

describe('the shipped views', () => {
  it('a status level sees product_id and status only', () => {
    expect(JSON.parse(written('listStock', 'status', product))).toStrictEqual({
      product_id: 7,
      status: 'available',
    });
  });
  it('a quantity level sees the quantity too', () => {
    expect(JSON.parse(written('getStock', 'quantity', product))).toStrictEqual({
      product_id: 7,
      quantity: 3,
      status: 'available',
    });
  });
  it('an unknown quantity is null, and its status on_request', () => {
    expect(JSON.parse(written('listStock', 'quantity', { id: 2, name: 'Y' }))).toStrictEqual({
      product_id: 2,
      quantity: null,
      status: 'on_request',
    });
  });
  it('the writer of each level and setting writes the text of JSON.stringify(view)', () => {
    const stock = fc.record({
      id: fc.oneof(fc.integer({ min: 1 }), fc.constant(Number.MAX_SAFE_INTEGER)),
      quantity: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 2 ** 40 })),
      status: fc.constantFrom(...STOCK_STATUSES),
    });
    const settings = fc.record<ViewSettings>({
      stockField: fc.constantFrom('quantity', 'stock'),
      productIdType: fc.constantFrom('integer', 'string'),
    });
    fc.assert(
      fc.property(fc.constantFrom('status', 'quantity'), settings, stock, (level, chosen, s) => {
        // Compared as text: the key order is part of what is served.
        expect(written('listStock', level, { ...s, name: 'N' }, chosen)).toBe(
          JSON.stringify(toStockView(s, level, chosen)),
        );
      }),
      { numRuns: 500 },
    );
  });
  it('a product record has id, name and the extra fields, no stock', () => {
    expect(JSON.parse(written('getProduct', 'status', product))).toStrictEqual({
      id: 7,
      name: 'X',
      color: 'red',
    });
  });
  it('a product record keeps every extra field in its order, whatever its JSON value', () => {
    const extraKey = fc
      .string()
      .filter((key) => !['id', 'name', 'quantity', 'status', '__proto__'].includes(key));
    fc.assert(
      fc.property(fc.dictionary(extraKey, fc.jsonValue()), (extra) => {
        const record = written('listProducts', 'quantity', {
          id: 1,
          name: 'N',
          quantity: 2,
          ...extra,
        });
        // Compared as text: a parsed comparison would not see a change of key order. The view's
        // fields come first, then the extra ones as JSON writes them.
        const extraText = JSON.stringify(extra).slice(1);
        expect(record).toBe(`{"id":1,"name":"N"${extraText === '}' ? '}' : `,${extraText}`}`);
      }),
    );
  });
  it('a string id setting writes the record id as a string too', () => {
    expect(
      JSON.parse(
        written('getProduct', 'status', product, { ...DEFAULT_SETTINGS, productIdType: 'string' }),
      ),
    ).toStrictEqual({ id: '7', name: 'X', color: 'red' });
  });
});

describe('token table', () => {
  const table = createTokenTable([
    { token: 'aaa', level: 'status' },
    { token: 'bbb', level: 'quantity' },
  ]);
  it.each([
    ['aaa', 'status'],
    ['bbb', 'quantity'],
    ['aa', undefined],
    ['aaaa', undefined],
    ['', undefined],
    ['aaa\u0000', undefined],
    ['bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', undefined],
    ['äää', undefined],
  ])('%j → %s', (token, level) => {
    expect(table.levelOf(token)).toBe(level);
  });
  it('keeps no token in readable form', () => {
    expect(JSON.stringify(table)).not.toContain('aaa');
  });
  it('refuses a wrong token of the same byte length, whichever byte differs', () => {
    const grants = [
      { token: 'abc', level: 'status' },
      { token: 'status-demo-token', level: 'quantity' },
    ] as const;
    const lengths = createTokenTable(grants);
    for (const { token } of grants) {
      for (let at = 0; at < token.length; at++) {
        const wrong = `${token.slice(0, at)}${token[at] === 'x' ? 'y' : 'x'}${token.slice(at + 1)}`;
        expect(lengths.levelOf(wrong), wrong).toBeUndefined();
      }
    }
    expect(lengths.levelOf('aab')).toBeUndefined();
    fc.assert(
      fc.property(
        fc.string({
          minLength: 1,
          maxLength: 40,
          unit: fc.constantFrom(...'abcdefgh-_.~0123'.split('')),
        }),
        fc.nat(),
        (token, seed) => {
          const one = createTokenTable([{ token, level: 'status' }]);
          const at = seed % token.length;
          const other = token[at] === 'a' ? 'b' : 'a';
          const wrong = `${token.slice(0, at)}${other}${token.slice(at + 1)}`;
          expect(one.levelOf(token)).toBe('status');
          expect(one.levelOf(wrong)).toBeUndefined();
        },
      ),
    );
  });
  it('matches tokens of different lengths and non-ASCII tokens', () => {
    const mixed = createTokenTable([
      { token: 'x', level: 'status' },
      { token: 'zürich-token-with-a-longer-tail', level: 'quantity' },
    ]);
    expect(mixed.levelOf('x')).toBe('status');
    expect(mixed.levelOf('zürich-token-with-a-longer-tail')).toBe('quantity');
    expect(mixed.levelOf('zurich-token-with-a-longer-tail')).toBeUndefined();
    expect(mixed.levelOf('zürich-token-with-a-longer-tai')).toBeUndefined();
  });
  it('a short token still matches after a long one was presented (nothing of it is left over)', () => {
    const mixed = createTokenTable([
      { token: 'short', level: 'status' },
      { token: 'a-much-longer-token', level: 'quantity' },
    ]);
    for (const presented of ['a-much-longer-token', 'zzzzzzzzzzzzzzzzzzzzzzzzz', 'ab']) {
      mixed.levelOf(presented);
      expect(mixed.levelOf('short')).toBe('status');
    }
  });
  it('of two grants of one token, the first decides (the config refuses such a pair before)', () => {
    const twice = createTokenTable([
      { token: 'same', level: 'status' },
      { token: 'same', level: 'quantity' },
    ]);
    expect(twice.levelOf('same')).toBe('status');
  });
});

describe('presentedToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer ', undefined],
    [undefined, undefined],
  ])('%j → %s', (header, token) => {
    expect(presentedToken(header)).toBe(token);
  });
});
