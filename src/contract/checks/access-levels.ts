/** @module A status token never sees quantity; a quantity token always does; both agree on status. */
import type { Check, Failure } from '../check.ts';
import { idOf, STOCK } from '../walk.ts';

const statusHidesQuantity: Check = {
  id: 'access.status-hides-quantity',
  title: 'A status token sees {product_id, status} only',
  needs: ['status'],
  async run(context) {
    const items = context.learned.stock.get('status') ?? [];
    const leaking = items.filter((item) =>
      Object.keys(item).some((key) => key !== 'product_id' && key !== 'status'),
    );
    return leaking.slice(0, 5).map((item) => ({
      message: `A status token sees more than product_id and status for id ${String(idOf(STOCK, item))}`,
      request: 'GET /v1/stock?limit=100 and its next links (status token)',
      expected: '{product_id, status}',
      actual: JSON.stringify(item),
    }));
  },
};

const quantityShowsQuantity: Check = {
  id: 'access.quantity-shows-quantity',
  title: 'A quantity token sees the absolute level (an integer ≥ 0, or null) on every item',
  needs: ['quantity'],
  async run(context) {
    const field = context.variant.stockField;
    const items = context.learned.stock.get('quantity') ?? [];
    const bad = items.filter((item) => {
      const quantity = item[field];
      return !(quantity === null || (Number.isInteger(quantity) && (quantity as number) >= 0));
    });
    return bad.slice(0, 5).map((item) => ({
      message: `A quantity token sees no valid quantity for id ${String(idOf(STOCK, item))}`,
      request: 'GET /v1/stock?limit=100 and its next links (quantity token)',
      expected: `${field}: an integer ≥ 0 or null`,
      actual: JSON.stringify(item),
    }));
  },
};

const levelsAgree: Check = {
  id: 'access.levels-agree',
  title: 'Both levels see the same products with the same status',
  needs: ['status', 'quantity'],
  async run(context) {
    const byId = new Map(
      (context.learned.stock.get('quantity') ?? []).map((item) => [idOf(STOCK, item), item]),
    );
    const statusItems = context.learned.stock.get('status') ?? [];
    const failures: Failure[] = [];
    if (statusItems.length !== byId.size) {
      failures.push({
        message: 'The two levels see lists of different lengths',
        expected: `${String(byId.size)} items (quantity token)`,
        actual: `${String(statusItems.length)} items (status token)`,
      });
    }
    for (const item of statusItems) {
      const other = byId.get(idOf(STOCK, item));
      if (other?.['status'] !== item['status']) {
        failures.push({
          message: `The levels disagree on product ${String(idOf(STOCK, item))}`,
          expected: JSON.stringify(other ?? 'the same product'),
          actual: JSON.stringify(item),
        });
        if (failures.length >= 5) break;
      }
    }
    return failures;
  },
};

export const accessLevelChecks: readonly Check[] = [
  statusHidesQuantity,
  quantityShowsQuantity,
  levelsAgree,
];
