/**
 * @module The access level decides how stock is shown: a status token never sees the absolute
 * level, a quantity token always does, both agree on the status, and no answer of one level is
 * ever served to the other.
 */
import type { Check, CheckContext, Failure } from '../check.ts';
import { found } from '../check.ts';
import { describeRequest, failureOf, statusOf } from '../describe-exchange.ts';
import { STOCK_FIELDS } from '../reading.ts';
import type { Exchange, TokenLevel } from '../target-client.ts';
import { idOf, PRODUCTS, sample, STOCK, type Collection, type Item } from '../walk.ts';

const LIST_REQUEST = 'GET /v1/stock?limit=100 and its next links';

/** The members that carry an absolute level, in either reading of the interface. */
function levelMembers(item: Item): string[] {
  return STOCK_FIELDS.filter((field) => field in item);
}

/** The stock items of a single answer or a list answer, if it is one. */
function stockItemsOf(exchange: Exchange): Item[] {
  if (exchange.kind !== 'response' || exchange.response.status !== 200) return [];
  const data = (exchange.response.body as { data?: unknown } | undefined)?.data;
  const items: unknown[] = Array.isArray(data) ? data : [data];
  return items.filter((item): item is Item => typeof item === 'object' && item !== null);
}

/** What is wrong with an item as `level` sees it, if anything. */
function levelProblem(context: CheckContext, item: Item, level: TokenLevel): string | undefined {
  const members = levelMembers(item);
  if (level === 'status') {
    return members.length === 0 ? undefined : `a status token sees ${members.join(' and ')}`;
  }
  const value = item[context.reading.stockField];
  if (!(context.reading.stockField in item)) {
    return `a quantity token sees no ${context.reading.stockField}`;
  }
  // An integer, or null where the stock is unknown; PRODUCT.md adds ≥ 0 (a negative level may
  // be a backorder: see quantityNotNegative).
  const valid = value === null || Number.isInteger(value);
  return valid
    ? undefined
    : `${context.reading.stockField} is ${JSON.stringify(value)}, not an integer or null`;
}

/** The single answers of up to ten listed items, asked with `level`'s token. */
async function singles(
  context: CheckContext,
  level: TokenLevel,
  collection: Collection,
  items: readonly Item[],
) {
  return Promise.all(
    sample(items, 10).map((item) =>
      context.client.request({
        path: `${collection.path}/${String(idOf(collection, item))}`,
        as: level,
      }),
    ),
  );
}

/**
 * Rule: a status token never sees the absolute level (PRODUCT.md: the status level is {product_id,
 * status}). Breaks it: a view built for the list but not for single items or product records, a
 * leak under the other name (`stock`). Lists, single items and product records at the status level.
 */
const statusHidesQuantity: Check = {
  id: 'access.status-hides-quantity',
  title: 'A status token never sees the absolute level: stock lists, single items, product records',
  level: 'interface',
  source: 'interface: Authentication (the access level decides how stock is presented)',
  needs: ['status'],
  async run(context) {
    const failures: Failure[] = [];
    const listed = context.learned.stock.get('status') ?? [];
    for (const item of listed) {
      const problem = levelProblem(context, item, 'status');
      if (problem !== undefined) {
        failures.push({
          message: `In the list, ${problem}`,
          request: `${LIST_REQUEST} (status token)`,
          expected: '{product_id, status}',
          actual: JSON.stringify(item),
        });
        break;
      }
    }
    const products = (await context.walk(`${PRODUCTS.path}?limit=100`, 'status')).items;
    for (const item of products) {
      const members = levelMembers(item);
      if (members.length > 0) {
        failures.push({
          message: `A product record shows a status token ${members.join(' and ')}`,
          request: 'GET /v1/products?limit=100 (status token)',
          expected: 'no stock level',
          actual: JSON.stringify(item),
        });
        break;
      }
    }
    const answers = [
      ...(await singles(context, 'status', STOCK, listed)),
      ...(await singles(context, 'status', PRODUCTS, products)),
    ];
    for (const exchange of answers) {
      const item = stockItemsOf(exchange)[0];
      if (item !== undefined && levelMembers(item).length > 0) {
        failures.push(
          failureOf(
            exchange,
            'A single answer shows a status token the absolute level',
            'no quantity or stock member',
          ),
        );
      }
    }
    return found(failures.slice(0, 10));
  },
};

/**
 * Rule: a quantity token sees the absolute level on every stock object, an integer or null.
 * Breaks it: the member dropped where the value is null (a serializer that omits nulls), the
 * number as a string, the status view served to a quantity token. Every item of the walk.
 */
const quantityShowsQuantity: Check = {
  id: 'access.quantity-shows-quantity',
  title: 'A quantity token sees the absolute level (an integer, or null) on every stock item',
  level: 'interface',
  source: 'interface: Authentication; Stock object',
  needs: ['quantity'],
  async run(context) {
    const failures: Failure[] = [];
    const listed = context.learned.stock.get('quantity') ?? [];
    for (const item of listed) {
      const problem = levelProblem(context, item, 'quantity');
      if (problem !== undefined) {
        failures.push({
          message: `In the list, ${problem}`,
          request: `${LIST_REQUEST} (quantity token)`,
          expected: `${context.reading.stockField}: an integer ≥ 0 or null`,
          actual: JSON.stringify(item),
        });
        if (failures.length >= 5) break;
      }
    }
    for (const exchange of await singles(context, 'quantity', STOCK, listed)) {
      const item = stockItemsOf(exchange)[0];
      const problem = item === undefined ? undefined : levelProblem(context, item, 'quantity');
      if (problem !== undefined) failures.push(failureOf(exchange, `A single item: ${problem}`));
    }
    return found(failures.slice(0, 10));
  },
};

/**
 * Rule: levels differ in presentation only: the same products with the same status. Breaks it: a
 * level filtered differently, a product twice at one level and missing there (equal lengths),
 * status computed differently per level. Both walks, compared by id both ways.
 */
const levelsAgree: Check = {
  id: 'access.levels-agree',
  title: 'Both levels see the same products with the same status',
  level: 'interface',
  source: 'interface: Authentication (levels differ in presentation only)',
  needs: ['status', 'quantity'],
  async run(context) {
    const byId = new Map(
      (context.learned.stock.get('quantity') ?? []).map((item) => [idOf(STOCK, item), item]),
    );
    const statusItems = context.learned.stock.get('status') ?? [];
    const failures: Failure[] = [];
    // Both ways, by id: equal lengths with a product twice at one level and missing there.
    const statusIds = new Set(statusItems.map((item) => idOf(STOCK, item)));
    if (statusItems.length !== byId.size || statusIds.size !== byId.size) {
      failures.push({
        message: 'The two levels do not see the same products',
        expected: `${String(byId.size)} products (quantity token)`,
        actual: `${String(statusItems.length)} items, ${String(statusIds.size)} products (status token)`,
      });
    }
    for (const item of statusItems) {
      const other = byId.get(idOf(STOCK, item));
      if (other?.['status'] !== item['status']) {
        failures.push({
          message: `The levels disagree on product ${String(idOf(STOCK, item))}`,
          request: LIST_REQUEST,
          expected: JSON.stringify(other ?? 'the same product'),
          actual: JSON.stringify(item),
        });
        if (failures.length >= 5) break;
      }
    }
    return found(failures);
  },
};

/**
 * What a known quantity rules out, by the meanings of the statuses: `available` can be ordered,
 * `out_of_stock` is not in stock, `on_request` means the stock is unknown. `incoming` goes with
 * any quantity, and an unknown quantity with any status.
 */
function contradiction(quantity: unknown, status: unknown): string | undefined {
  if (typeof quantity !== 'number') return undefined;
  if (status === 'on_request')
    return `the stock is known (${String(quantity)}) but the status says it is unknown`;
  if (quantity > 0 && status === 'out_of_stock')
    return `${String(quantity)} in stock but the status says none`;
  if (quantity <= 0 && status === 'available')
    return 'none in stock but the status says it can be ordered';
  return undefined;
}

/**
 * A status that disagrees with the quantity is data, not a fault (PRODUCT.md: an explicit status
 * wins; a real service has reserved or blocked stock): each is reported. What fails is a rule:
 * see statusRule.
 */
const statusMatchesQuantity: Check = {
  id: 'access.status-matches-quantity',
  title:
    'Statuses that contradict the quantity a quantity token sees are reported (an explicit status is data, not a fault)',
  level: 'interface',
  source: 'interface: Status values; PRODUCT.md: an explicit status wins',
  needs: ['quantity'],
  async run(context) {
    const items = context.learned.stock.get('quantity') ?? [];
    const disagreeing = items.flatMap((item) => {
      const problem = contradiction(item[context.reading.stockField], item['status']);
      return problem === undefined ? [] : [`product ${String(idOf(STOCK, item))}: ${problem}`];
    });
    return found(
      [],
      disagreeing.length === 0
        ? 'every status agrees with its quantity'
        : `${String(disagreeing.length)} of ${String(items.length)} statuses disagree with their quantity (reported): ${disagreeing.slice(0, 3).join('; ')}`,
    );
  },
};

/** The classes of quantity a derivation rule treats alike: unknown, none, and each decade. */
function quantityClass(quantity: unknown): string | undefined {
  if (quantity === null) return 'unknown quantities';
  if (typeof quantity !== 'number') return undefined;
  if (quantity <= 0) return 'quantities of 0 or less';
  const decade = 10 ** Math.floor(Math.log10(quantity));
  return `quantities of ${String(decade)}–${String(decade * 10 - 1)}`;
}

/** A class is judged from this many items on: fewer tell a few records from a rule. */
const SMALLEST_CLASS = 3;

/**
 * The statuses follow the stand-in's rule (PRODUCT.md: a positive quantity is available, zero
 * out_of_stock, unknown on_request, unless a record says otherwise): most items of a class of
 * quantity contradicting it is a rule of the target's own, not data. Written in docs/contract-checker.md.
 */
const statusRule: Check = {
  id: 'access.status-rule',
  title:
    'No class of quantity (unknown, 0, 1–9, 10–99, …) or of status has most of its items contradicting the quantity: the status follows the quantity as a rule',
  level: 'stand-in',
  source: 'PRODUCT.md: status when a fixture gives none',
  needs: ['quantity'],
  async run(context) {
    // By class of quantity, and by status: an unknown quantity written as 0 while the status
    // stays on_request hides among real zeros, but not among the on_request items.
    const classes = new Map<string, { items: number; contradicting: Item[] }>();
    for (const item of context.learned.stock.get('quantity') ?? []) {
      const quantity = item[context.reading.stockField];
      const byQuantity = quantityClass(quantity);
      const byStatus =
        typeof item['status'] === 'string' ? `items whose status is ${item['status']}` : undefined;
      for (const name of [byQuantity, byStatus]) {
        if (name === undefined) continue;
        const entry = classes.get(name) ?? { items: 0, contradicting: [] };
        entry.items += 1;
        if (contradiction(quantity, item['status']) !== undefined) entry.contradicting.push(item);
        classes.set(name, entry);
      }
    }
    const failures: Failure[] = [...classes]
      .filter(
        ([, entry]) =>
          entry.items >= SMALLEST_CLASS && entry.contradicting.length * 2 > entry.items,
      )
      .map(([name, entry]) => ({
        message: `For ${name}, ${String(entry.contradicting.length)} of ${String(entry.items)} statuses contradict the quantity: a rule, not a few records`,
        request: `${LIST_REQUEST} (quantity token)`,
        actual: entry.contradicting
          .slice(0, 3)
          .map((item) => JSON.stringify(item))
          .join(' '),
      }));
    return found(failures);
  },
};

/**
 * Rule (PRODUCT.md): the absolute level is an integer of 0 or more, or null. Breaks it:
 * backorders shown as negative stock. Every item the quantity level saw.
 */
const quantityNotNegative: Check = {
  id: 'access.quantity-not-negative',
  title: 'The absolute level is never below 0',
  level: 'stand-in',
  source: 'PRODUCT.md: `quantity` when stock is unknown (otherwise an integer ≥ 0)',
  needs: ['quantity'],
  async run(context) {
    const field = context.reading.stockField;
    const negative = (context.learned.stock.get('quantity') ?? []).filter(
      (item) => typeof item[field] === 'number' && item[field] < 0,
    );
    return found(
      negative.slice(0, 3).map((item) => ({
        message: `Product ${String(idOf(STOCK, item))} has a negative ${field}; the stand-in's is never below 0`,
        request: `${LIST_REQUEST} (quantity token)`,
        actual: JSON.stringify(item),
      })),
    );
  },
};

/**
 * A cache keyed by URL alone serves one level's answer to the other. Each URL here is asked by
 * one level and then the other, in both orders, before any other check asked it.
 */
const noCrossLevelAnswers: Check = {
  id: 'access.no-cross-level-answers',
  title:
    "The same URL asked with each token gets each level its own view (no shared cache), and the other level's validator gets no 304",
  level: 'interface',
  source: 'interface: Authentication',
  needs: ['status', 'quantity'],
  async run(context) {
    const ids = context.learned.ids;
    const paths = [
      `${STOCK.path}?page=1&limit=11`,
      `${STOCK.path}?page=1&limit=12`,
      ...[ids[1], ids[2]]
        .filter((id) => id !== undefined)
        .map((id) => `${STOCK.path}/${String(id)}`),
    ];
    const failures: Failure[] = [];
    for (const [index, path] of paths.entries()) {
      const order: TokenLevel[] = index % 2 === 0 ? ['quantity', 'status'] : ['status', 'quantity'];
      let validator: string | undefined;
      for (const level of order) {
        // The other level's validator too: a 304 would tell this level to reuse the other's
        // answer (RFC 9110 §13.1.2: a validator names one representation).
        const exchange = await context.client.request({
          path,
          as: level,
          ...(validator === undefined ? {} : { headers: { 'if-none-match': validator } }),
        });
        validator = exchange.kind === 'response' ? exchange.response.headers['etag'] : undefined;
        if (statusOf(exchange) === 304) {
          failures.push(
            failureOf(
              exchange,
              "A validator of the other level's answer is answered 304: this level would reuse the other's view",
              `200 with the ${level} view`,
            ),
          );
          continue;
        }
        if (statusOf(exchange) !== 200) continue;
        const wrong = stockItemsOf(exchange)
          .map((item) => levelProblem(context, item, level))
          .find((problem) => problem !== undefined);
        if (wrong !== undefined) {
          failures.push({
            ...failureOf(exchange, `Asked by the other level first, then: ${wrong}`),
            request: describeRequest(exchange),
          });
        }
      }
    }
    return found(failures);
  },
};

/** The cache check runs before any other, while its URLs are fresh. */
export const crossLevelCheck: Check = noCrossLevelAnswers;

export const accessLevelChecks: readonly Check[] = [
  statusHidesQuantity,
  quantityShowsQuantity,
  levelsAgree,
  statusMatchesQuantity,
  statusRule,
  quantityNotNegative,
];
