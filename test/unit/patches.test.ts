/**
 * JSON Merge Patch and JSON Patch, held to the examples of their RFCs (RFC 7396 Appendix A,
 * RFC 6902 Appendix A): each expected document is the RFC's.
 */
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, PatchFault } from '../../src/writes/json-patch.ts';
import { mergePatch } from '../../src/writes/merge-patch.ts';

describe('JSON Merge Patch (RFC 7396, Appendix A)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched by %j is %j', (target, patch, expected) => {
    const before = JSON.stringify(target);
    expect(mergePatch(target, patch)).toEqual(expected);
    expect(JSON.stringify(target)).toBe(before);
  });

  it('keeps a member named __proto__ as a member', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const result = mergePatch({}, patch) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('JSON Patch (RFC 6902, Appendix A)', () => {
  it.each([
    [
      'A.1 adding an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { baz: 'qux', foo: 'bar' },
    ],
    [
      'A.2 adding an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    [
      'A.3 removing an object member',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'remove', path: '/baz' }],
      { foo: 'bar' },
    ],
    [
      'A.4 removing an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'A.5 replacing a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 moving an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 adding a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      'A.14 ~ escape ordering',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: 10 }],
      { '/': 9, '~1': 10 },
    ],
    [
      'A.16 adding an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
  ])('%s', (_, document, patch, expected) => {
    const before = JSON.stringify(document);
    expect(applyJsonPatch(document, patch)).toEqual(expected);
    expect(JSON.stringify(document)).toBe(before);
  });

  it.each([
    ['A.9 testing a value: error', { baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]],
    [
      'A.12 adding to a nonexistent target',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
    ],
    [
      'A.15 comparing strings and numbers',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
    ],
    [
      'replacing a member that is not there',
      { foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 1 }],
    ],
    ['an index past the end', { foo: [1] }, [{ op: 'add', path: '/foo/2', value: 1 }]],
    ['an index with a leading zero', { foo: [1, 2] }, [{ op: 'remove', path: '/foo/01' }]],
    ['an unknown op', { foo: 1 }, [{ op: 'frob', path: '/foo' }]],
    ['moving a value into itself', { a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]],
  ])('%s is refused, naming the operation', (_, document, patch) => {
    expect(() => applyJsonPatch(document, patch)).toThrow(PatchFault);
    try {
      applyJsonPatch(document, patch);
    } catch (error) {
      expect((error as PatchFault).pointer).toBe(`/${String(patch.length - 1)}`);
    }
  });
});
