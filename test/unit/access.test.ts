import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_LEVELS,
  stockJsonWriter,
  toProductRecord,
  type AccessLevel,
  type StockView,
} from '../../src/access/access-level.ts';
import type { StockShape } from '../../src/access/compatibility.ts';
import { createTokenTable } from '../../src/access/token-table.ts';
import type { Product, ProductStock } from '../../src/catalog/catalog.ts';
import { parseCatalog, toProduct } from '../../src/catalog/load-catalog.ts';
import { STOCK_STATUSES } from '../../src/catalog/stock-status.ts';
import { presentedToken } from '../../src/http/plugins/bearer-auth.ts';

/** The stock object of a product as a level sees it, built the obvious way: the writer's reference. */
function toStockView(
  stock: ProductStock,
  level: AccessLevel,
  compatibility: StockShape = { stockField: 'quantity', productIdType: 'integer' },
): StockView {
  const productId = compatibility.productIdType === 'string' ? String(stock.id) : stock.id;
  return level === 'quantity'
    ? { product_id: productId, [compatibility.stockField]: stock.quantity, status: stock.status }
    : { product_id: productId, status: stock.status };
}

const product: Product = (() => {
  const yaml = 'products: [{ id: 7, name: X, quantity: 3, color: red }]';
  const found = parseCatalog('a.yaml', yaml).byId.get(7);
  if (found === undefined) throw new Error('fixture lost its product');
  return found;
})();

describe('access levels', () => {
  it('a status level sees product_id and status only', () => {
    expect(JSON.parse(stockJsonWriter('status')(product))).toStrictEqual({
      product_id: 7,
      status: 'available',
    });
  });
  it('a quantity level sees the quantity too', () => {
    expect(JSON.parse(stockJsonWriter('quantity')(product))).toStrictEqual({
      product_id: 7,
      quantity: 3,
      status: 'available',
    });
  });
  it('the JSON writer of each level and setting writes the text of JSON.stringify(view)', () => {
    const stock = fc.record({
      id: fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant(Number.MAX_SAFE_INTEGER)),
      quantity: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 2 ** 40 })),
      status: fc.constantFrom(...STOCK_STATUSES),
    });
    const compatibility = fc.record<StockShape>({
      stockField: fc.constantFrom('quantity', 'stock'),
      productIdType: fc.constantFrom('integer', 'string'),
    });
    fc.assert(
      fc.property(fc.constantFrom(...ACCESS_LEVELS), compatibility, stock, (level, settings, s) => {
        // Compared as text: the key order is part of what is served.
        expect(stockJsonWriter(level, settings)(s)).toBe(
          JSON.stringify(toStockView(s, level, settings)),
        );
      }),
      { numRuns: 500 },
    );
  });
  it('a product record has id, name and the extra fields, no stock', () => {
    expect(toProductRecord(product)).toStrictEqual({ id: 7, name: 'X', color: 'red' });
  });
  it('a product record keeps every extra field in its order, whatever its JSON value', () => {
    const extraKey = fc
      .string()
      .filter((key) => !['id', 'name', 'quantity', 'status', '__proto__'].includes(key));
    fc.assert(
      fc.property(fc.dictionary(extraKey, fc.jsonValue()), (extra) => {
        const record = toProductRecord(toProduct({ id: 1, name: 'N', quantity: 2, ...extra }));
        // Compared as text: toEqual would not see a change of key order.
        expect(JSON.stringify(record)).toBe(JSON.stringify({ id: 1, name: 'N', ...extra }));
      }),
    );
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
