import { describe, expect, it } from 'vitest';
import { buildLinks } from '../../src/query/links.ts';
import { paginate } from '../../src/query/paginate.ts';
import { slicesOf } from '../../src/query/selection.ts';

describe('paginate and buildLinks', () => {
  const items = Array.from({ length: 25 }, (_, i) => i + 1);
  const target = {
    url: 'http://h:1/v1/stock',
    filters: [
      ['name', 'a b'],
      ['status', 'available'],
    ] as const,
    size: 'limit',
    position: { kind: 'page', parameter: 'page', first: 1 },
    encoding: 'percent',
  } as const;
  /** The request for page `page` (from 1) of `limit` items. */
  const pageOf = (page: number, limit: number) => ({ start: (page - 1) * limit, limit });

  it.each([
    [1, 10, [1, 10], 'p=1', null, 'p=2', 'p=3'],
    [2, 10, [11, 20], 'p=1', 'p=1', 'p=3', 'p=3'],
    [3, 10, [21, 25], 'p=1', 'p=2', null, 'p=3'],
    [9, 10, [], 'p=1', 'p=3', null, 'p=3'],
    [1, 100, [1, 25], 'p=1', null, null, 'p=1'],
  ])('page %i of limit %i', (page, limit, range, first, prev, next, last) => {
    const result = paginate(slicesOf(items), pageOf(page, limit));
    const [from, to] = range;
    expect(result.items).toEqual(from === undefined ? [] : items.slice(from - 1, to));
    const links = buildLinks(target, result);
    const named = (link: string | null) =>
      link === null ? null : `p=${new URL(link).searchParams.get('page') ?? ''}`;
    expect([named(links.first), named(links.prev), named(links.next), named(links.last)]).toEqual([
      first,
      prev,
      next,
      last,
    ]);
  });

  it('keeps every filter and the limit in each link, encoded', () => {
    const links = buildLinks(target, paginate(slicesOf(items), pageOf(2, 5)));
    expect(links.next).toBe('http://h:1/v1/stock?name=a%20b&status=available&limit=5&page=3');
    expect(new URL(links.first).searchParams.get('name')).toBe('a b');
  });

  it('leaves the limit out where the request named none and the settings say so', () => {
    const result = paginate(slicesOf(items), pageOf(2, 10));
    const links = buildLinks({ ...target, size: undefined }, result);
    expect(links.next).toBe('http://h:1/v1/stock?name=a%20b&status=available&page=3');
    const bare = buildLinks({ ...target, filters: [], size: undefined }, result);
    expect(bare).toEqual({
      first: 'http://h:1/v1/stock?page=1',
      last: 'http://h:1/v1/stock?page=3',
      prev: 'http://h:1/v1/stock?page=1',
      next: 'http://h:1/v1/stock?page=3',
    });
  });

  it('encodes values as URLSearchParams does where the settings say form', () => {
    const marks = " !'()*-._~é+&=";
    const form = buildLinks(
      { ...target, filters: [['name', marks]], encoding: 'form' },
      paginate(slicesOf(items), pageOf(1, 5)),
    );
    const expected = new URLSearchParams([
      ['name', marks],
      ['limit', '5'],
      ['page', '1'],
    ]).toString();
    expect(form.first).toBe(`http://h:1/v1/stock?${expected}`);
    const percent = buildLinks(
      { ...target, filters: [['name', marks]] },
      paginate(slicesOf(items), pageOf(1, 5)),
    );
    expect(new URL(percent.first).searchParams.get('name')).toBe(marks);
    expect(percent.first).toContain("name=%20!'()*-._~%C3%A9%2B%26%3D&");
  });

  it('gives an empty list one page: last is page 1', () => {
    const links = buildLinks(target, paginate(slicesOf([]), pageOf(1, 10)));
    expect(new URL(links.last ?? '').searchParams.get('page')).toBe('1');
    expect(links.next).toBeNull();
    expect(links.prev).toBeNull();
  });

  it('stays exact for a page near 2^53', () => {
    const result = paginate(slicesOf(items), pageOf(Number.MAX_SAFE_INTEGER, 100));
    expect(result.items).toEqual([]);
    expect(buildLinks(target, result).prev).toContain('page=1');
  });

  it('names pages from 0 where the list counts them so', () => {
    const zero = { ...target, position: { kind: 'page', parameter: 'p', first: 0 } } as const;
    const links = buildLinks(zero, paginate(slicesOf(items), pageOf(2, 10)));
    expect(links).toEqual({
      first: 'http://h:1/v1/stock?name=a%20b&status=available&limit=10&p=0',
      last: 'http://h:1/v1/stock?name=a%20b&status=available&limit=10&p=2',
      prev: 'http://h:1/v1/stock?name=a%20b&status=available&limit=10&p=0',
      next: 'http://h:1/v1/stock?name=a%20b&status=available&limit=10&p=2',
    });
  });

  it.each([
    // start, limit, items, prev, next, last
    [0, 10, [1, 10], null, '10', '20'],
    [5, 10, [6, 15], '0', '15', '20'],
    [15, 10, [16, 25], '5', null, '20'],
    [24, 10, [25, 25], '14', null, '20'],
    [40, 10, [], '20', null, '20'],
  ])(
    'offset %i, size %i: items %j, prev, next and last by offset',
    (start, limit, range, prev, next, last) => {
      const byOffset = { ...target, position: { kind: 'offset', parameter: 'offset' } } as const;
      const result = paginate(slicesOf(items), { start, limit });
      const [from, to] = range;
      expect(result.items).toEqual(from === undefined ? [] : items.slice(from - 1, to));
      const links = buildLinks(byOffset, result);
      const offsetOf = (link: string | null) =>
        link === null ? null : new URL(link).searchParams.get('offset');
      expect([
        offsetOf(links.first),
        offsetOf(links.prev),
        offsetOf(links.next),
        offsetOf(links.last),
      ]).toEqual(['0', prev, next, last]);
    },
  );

  it('gives a whole list every item, and one link to itself', () => {
    const whole = paginate(slicesOf(items), { start: 0, limit: undefined });
    expect(whole.items).toEqual(items);
    expect(whole.lastPage).toBe(1);
    const links = buildLinks({ ...target, size: undefined, position: undefined }, whole);
    const self = 'http://h:1/v1/stock?name=a%20b&status=available';
    expect(links).toEqual({ first: self, last: self, prev: null, next: null });
    expect(paginate(slicesOf([]), { start: 0, limit: undefined }).items).toEqual([]);
  });
});
