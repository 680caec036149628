/**
 * The independent servers' own product data, made in code so that it is deterministic and
 * shares nothing with the stand-in's fixtures.
 *
 * The default catalogue has 60 products: 60 is divided exactly by 1, 2, 3, 4, 5, 6, 10, 12, 15,
 * 20, 30 and 60, so a checker meets "the limit divides the total" at many limits, and 7, 8, 9,
 * 11, 13… leave a partial last page. Ids have gaps and the array is stored out of id order, so a
 * server that forgets to sort or assumes contiguous ids shows it.
 */

export type StockStatus = 'available' | 'incoming' | 'on_request' | 'out_of_stock';

export const STOCK_STATUSES: readonly StockStatus[] = [
  'available',
  'incoming',
  'on_request',
  'out_of_stock',
];

export type ExtraValue = string | number | boolean | null;

export interface Product {
  readonly id: number;
  readonly name: string;
  /** Absolute stock; null when unknown. */
  readonly quantity: number | null;
  readonly status: StockStatus;
  /** Fields beyond id and name that /v1/products shows (never stock fields). */
  readonly extra: Readonly<Record<string, ExtraValue>>;
}

/**
 * Names that trip up a naive name filter: characters special to regular expressions, SQL LIKE,
 * globs and URL queries, and non-ASCII names whose case folding is not a byte-for-byte affair.
 */
const TRICKY_NAMES: readonly string[] = [
  'Lamp 3.5 W bulb', // regex .
  'Chair (folding)', // regex group, unbalanced when a needle stops after "("
  'Shelf [wide]', // regex class, glob class
  'Star*light lantern', // regex, glob *
  'C++ desk organiser', // regex +, "+" is a space in a form-encoded query
  'Why? stool', // regex, glob ?
  '^Caret rug', // regex anchor
  'Mug $9', // regex anchor
  'Back\\slash hook', // regex escape: the name holds one backslash
  'Pipe|cleaner set', // regex alternation
  '100% wool blanket', // LIKE %
  'snake_case sign', // LIKE _
  '50_50 tray', // LIKE _
  'Glob [a-z]* poster', // glob class and star together
  'Dots... shelf', // several regex dots
  'Salt & pepper set', // & and = must be encoded in links
  'A=B frame',
  '#1 desk', // # starts a URL fragment
  'Baker\u2019s "oak" rack', // quotes inside JSON strings
  'Caf\u00e9 table', // é composed (U+00E9)
  'CAF\u00c9 SIGN', // É composed
  'Cafe\u0301 chair', // é decomposed: e + U+0301 combining acute
  'Stra\u00dfe map', // ß: full case folding makes it "ss"
  'STRASSE poster', // SS
  '\u039a\u039f\u03a3\u039c\u039f\u03a3 rug', // ΚΟΣΜΟΣ: capital sigma
  '\u039a\u03bf\u03c3\u03bc\u03bf\u03c2 mat', // Κοσμος: final sigma ς
  '\u6771\u4eac teapot', // 東京: CJK
  'Rocket \u{1f680} lamp', // emoji outside the BMP (a surrogate pair in UTF-16)
  '\u00d8resund vase', // Ø
];

/** Plain names; "table" and "chair" recur so that a name filter spans several pages. */
const PLAIN_NAMES: readonly string[] = [
  'Oak dining table',
  'Walnut side table',
  'Pine bookcase',
  'Oak chair',
  'Oak chair', // a duplicate name: ordering by name needs its tie-break by id
  'Birch stool',
  'Glass coffee table',
  'Steel bed frame',
  'Maple writing table',
  'Linen armchair',
  'Teak garden table',
  'Rattan chair',
  'Cedar wardrobe',
  'Marble console table',
  'Velvet sofa',
  'Bamboo side table',
  'Ash dining chair',
  'Cherry nightstand',
  'Elm bench',
  'Folding camp table',
  'Leather office chair',
  'Beech shoe rack',
  'Round bistro table',
  'Wool rug',
  'Cotton cushion',
  'Mango wood table',
  'Bar stool',
  'Standing desk',
  'Kitchen table',
  'Rocking chair',
  'Wall mirror',
];

const CATEGORIES: readonly string[] = ['tables', 'seating', 'storage', 'lighting', 'decor'];

/**
 * Stock by position, cycling over five kinds so that every status occurs 12 times in the
 * default catalogue (available 24 times): quantity 0, null and large values all occur, and
 * `incoming` comes with a quantity (0 or positive).
 */
function stockAt(index: number): { quantity: number | null; status: StockStatus } {
  switch (index % 5) {
    case 0:
      return { quantity: ((index * 7) % 40) + 1, status: 'available' };
    case 1:
      return { quantity: 0, status: 'out_of_stock' };
    case 2:
      return { quantity: null, status: 'on_request' };
    case 3:
      return { quantity: index % 2 === 0 ? 0 : 25, status: 'incoming' };
    default:
      // Large values, beyond 32-bit integers for one of them.
      return { quantity: index === 4 ? 2_147_483_648 : 1_000 * (index + 1), status: 'available' };
  }
}

/** Ids grow by 3 or 4: never contiguous, always increasing with the index. */
function idAt(index: number): number {
  return 2 + 3 * index + (index % 4 === 1 ? 1 : 0);
}

function product(
  index: number,
  id: number,
  name: string,
  extraStock?: { quantity: number | null; status: StockStatus },
): Product {
  const stock = extraStock ?? stockAt(index);
  return {
    id,
    name,
    quantity: stock.quantity,
    status: stock.status,
    extra: {
      category: CATEGORIES[index % CATEGORIES.length] ?? 'decor',
      price: Math.round((19.9 + index * 13.37) * 100) / 100,
      discontinued: index % 11 === 0,
    },
  };
}

/** Reorders deterministically (37 is coprime with 60), so the data is not in id order. */
function shuffled<T>(items: readonly T[]): T[] {
  return items.map((_, i) => items[(i * 37) % items.length]).filter((x) => x !== undefined);
}

function defaultCatalogue(): readonly Product[] {
  const names = [...TRICKY_NAMES, ...PLAIN_NAMES];
  const products = names.map((name, index) => product(index, idAt(index), name));
  // The last id is beyond 32-bit integers, still a safe JavaScript integer.
  const last = products.length - 1;
  products[last] = product(last, 4_294_967_296, names[last] ?? 'Wall mirror');
  return shuffled(products);
}

function numbered(count: number, idOf: (index: number) => number): readonly Product[] {
  return Array.from({ length: count }, (_, index) =>
    product(index, idOf(index), `Item ${String(index + 1).padStart(3, '0')} table`),
  );
}

export type CatalogueName = 'default' | 'hundred' | 'seven' | 'single' | 'empty';

/**
 * The catalogues a server can serve: `default` (60 products), `hundred` (exactly the maximum
 * limit), `seven` (one page at the default limit), `single` and `empty`.
 */
export function makeCatalogue(name: CatalogueName): readonly Product[] {
  switch (name) {
    case 'default':
      return defaultCatalogue();
    case 'hundred':
      return numbered(100, (index) => 5 + 2 * index);
    case 'seven':
      return numbered(7, (index) => 10 * (index + 1));
    case 'single':
      return [product(0, 42, 'Only (one) table')];
    case 'empty':
      return [];
  }
}
