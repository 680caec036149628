import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/catalog/load-catalog.ts';
import { filterProducts } from '../../src/query/filter.ts';
import { buildLinks } from '../../src/query/links.ts';
import { paginate } from '../../src/query/paginate.ts';
import { slicesOf } from '../../src/query/selection.ts';

const catalog = parseCatalog(
  'q.yaml',
  `products:
  - { id: 5, name: "Oak Table", quantity: 3 }
  - { id: 1, name: "Walnut side table", quantity: 0 }
  - { id: 2, name: "Café chair 100% wool", quantity: 1 }
  - { id: 3, name: "Straße bench", quantity: null }
  - { id: 4, name: "Lamp_2 *LED*", quantity: 2, status: incoming }
  - { id: 6, name: "a.b table", quantity: 9 }
`,
);
const ids = (filter: Parameters<typeof filterProducts>[1]) =>
  filterProducts(catalog, filter).map((product) => product.id);

describe('filterProducts', () => {
  it.each([
    ['no filter: all, ascending id', {}, [1, 2, 3, 4, 5, 6]],
    ['name, case-insensitive substring', { name: 'TABLE' }, [1, 5, 6]],
    ['name with an accent', { name: 'CAFÉ' }, [2]],
    ['name with ß against SS', { name: 'STRASSE' }, [3]],
    ['% is literal', { name: '100%' }, [2]],
    ['% alone is no wildcard', { name: '%' }, [2]],
    ['_ is literal', { name: 'p_2' }, [4]],
    ['* is literal', { name: '*led*' }, [4]],
    ['. is no regex', { name: 'a.b' }, [6]],
    ['.* matches nothing', { name: '.*' }, []],
    ['status', { status: 'out_of_stock' }, [1]],
    ['derived on_request', { status: 'on_request' }, [3]],
    ['id', { id: 4 }, [4]],
    ['unknown id', { id: 99 }, []],
    ['name AND status', { name: 'table', status: 'available' }, [5, 6]],
    ['id AND status that disagree', { id: 4, status: 'available' }, []],
    ['id AND name that agree', { id: 5, name: 'oak' }, [5]],
  ] as const)('%s', (_title, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });
});

describe('paginate and buildLinks', () => {
  const items = Array.from({ length: 25 }, (_, i) => i + 1);
  const target = {
    url: 'http://h:1/v1/stock',
    filters: [
      ['name', 'a b'],
      ['status', 'available'],
    ] as const,
  };

  it.each([
    [1, 10, [1, 10], 'p=1', null, 'p=2', 'p=3'],
    [2, 10, [11, 20], 'p=1', 'p=1', 'p=3', 'p=3'],
    [3, 10, [21, 25], 'p=1', 'p=2', null, 'p=3'],
    [9, 10, [], 'p=1', 'p=3', null, 'p=3'],
    [1, 100, [1, 25], 'p=1', null, null, 'p=1'],
  ])('page %i of limit %i', (page, limit, range, first, prev, next, last) => {
    const result = paginate(slicesOf(items), { page, limit });
    const [from, to] = range;
    expect(result.items).toEqual(from === undefined ? [] : items.slice(from - 1, to));
    const links = buildLinks(target, result);
    const pageOf = (link: string | null) =>
      link === null ? null : `p=${new URL(link).searchParams.get('page') ?? ''}`;
    expect([
      pageOf(links.first),
      pageOf(links.prev),
      pageOf(links.next),
      pageOf(links.last),
    ]).toEqual([first, prev, next, last]);
  });

  it('keeps every filter and the limit in each link, encoded', () => {
    const links = buildLinks(target, paginate(slicesOf(items), { page: 2, limit: 5 }));
    expect(links.next).toBe('http://h:1/v1/stock?name=a%20b&status=available&limit=5&page=3');
    expect(new URL(links.first).searchParams.get('name')).toBe('a b');
  });

  it('gives an empty list one page: last is page 1', () => {
    const links = buildLinks(target, paginate(slicesOf([]), { page: 1, limit: 10 }));
    expect(new URL(links.last).searchParams.get('page')).toBe('1');
    expect(links.next).toBeNull();
    expect(links.prev).toBeNull();
  });

  it('stays exact for a page near 2^53', () => {
    const result = paginate(slicesOf(items), { page: Number.MAX_SAFE_INTEGER, limit: 100 });
    expect(result.items).toEqual([]);
    expect(buildLinks(target, result).prev).toContain('page=1');
  });
});
