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
    namesLimit: true,
    encoding: 'percent',
  } as const;

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

  it('leaves the limit out where the request named none and the settings say so', () => {
    const result = paginate(slicesOf(items), { page: 2, limit: 10 });
    const links = buildLinks({ ...target, namesLimit: false }, result);
    expect(links.next).toBe('http://h:1/v1/stock?name=a%20b&status=available&page=3');
    const bare = buildLinks({ ...target, filters: [], namesLimit: false }, result);
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
      paginate(slicesOf(items), { page: 1, limit: 5 }),
    );
    const expected = new URLSearchParams([
      ['name', marks],
      ['limit', '5'],
      ['page', '1'],
    ]).toString();
    expect(form.first).toBe(`http://h:1/v1/stock?${expected}`);
    const percent = buildLinks(
      { ...target, filters: [['name', marks]] },
      paginate(slicesOf(items), { page: 1, limit: 5 }),
    );
    expect(new URL(percent.first).searchParams.get('name')).toBe(marks);
    expect(percent.first).toContain("name=%20!'()*-._~%C3%A9%2B%26%3D&");
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
