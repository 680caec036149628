/**
 * @module JSON Patch (RFC 6902) over JSON Pointers (RFC 6901), applied to a copy: add, remove,
 * replace, move, copy and test. Written here rather than taken from a package: it is short, and
 * the widely used one changes its target in place and has had a prototype-pollution fault
 * (CVE-2021-4279); here `__proto__` is an ordinary member and nothing is changed in place.
 */
import { isObject } from './merge-patch.ts';

/** Why a patch cannot be applied: the operation's index and what is wrong. */
export class PatchFault extends Error {
  readonly pointer: string;
  constructor(index: number, message: string) {
    super(message);
    this.name = 'PatchFault';
    this.pointer = `/${String(index)}`;
  }
}

type Json = unknown;

/** The document with every operation applied in order; a PatchFault at the first that fails. */
export function applyJsonPatch(document: Json, patch: readonly unknown[]): Json {
  let result = structuredClone(document);
  patch.forEach((operation, index) => {
    if (!isObject(operation) || typeof operation['op'] !== 'string') {
      throw new PatchFault(index, 'must be an object with an op');
    }
    const path = tokensOf(operation['path'], index, 'path');
    const fault = (message: string) => new PatchFault(index, message);
    switch (operation['op']) {
      case 'add':
        result = put(result, path, valueOf(operation, index), 'add', fault);
        return;
      case 'replace':
        result = put(result, path, valueOf(operation, index), 'replace', fault);
        return;
      case 'remove':
        result = remove(result, path, fault).document;
        return;
      case 'move': {
        const from = tokensOf(operation['from'], index, 'from');
        if (from.length < path.length && from.every((token, at) => token === path[at])) {
          throw fault('cannot move a value into itself');
        }
        const taken = remove(result, from, fault);
        result = put(taken.document, path, taken.value, 'add', fault);
        return;
      }
      case 'copy': {
        const from = tokensOf(operation['from'], index, 'from');
        result = put(result, path, structuredClone(get(result, from, fault)), 'add', fault);
        return;
      }
      case 'test':
        if (!sameJson(get(result, path, fault), valueOf(operation, index))) {
          throw fault('test failed: the value differs');
        }
        return;
      default:
        throw fault('op must be one of add, remove, replace, move, copy, test');
    }
  });
  return result;
}

function valueOf(operation: Record<string, unknown>, index: number): Json {
  if (!Object.hasOwn(operation, 'value')) throw new PatchFault(index, 'needs a value');
  return structuredClone(operation['value']);
}

/** A JSON Pointer's reference tokens (RFC 6901 §3–4). */
function tokensOf(pointer: unknown, index: number, member: string): string[] {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) {
    throw new PatchFault(index, `${member} must be a JSON Pointer`);
  }
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

type Fault = (message: string) => PatchFault;

function get(document: Json, path: readonly string[], fault: Fault): Json {
  let at = document;
  for (const token of path) {
    if (Array.isArray(at)) at = at[arrayIndex(token, at.length - 1, fault)];
    else if (isObject(at) && Object.hasOwn(at, token)) at = at[token];
    else throw fault(`nothing is at /${path.join('/')}`);
  }
  return at;
}

/** The document with a value added (or replacing one that must be there) at the path. */
function put(
  document: Json,
  path: readonly string[],
  value: Json,
  mode: 'add' | 'replace',
  fault: Fault,
): Json {
  if (path.length === 0) return value;
  const parent = get(document, path.slice(0, -1), fault);
  const last = path.at(-1) as string;
  if (Array.isArray(parent)) {
    if (mode === 'add' && last === '-') parent.push(value);
    else {
      const index = arrayIndex(last, mode === 'add' ? parent.length : parent.length - 1, fault);
      parent.splice(index, mode === 'add' ? 0 : 1, value);
    }
  } else if (isObject(parent)) {
    if (mode === 'replace' && !Object.hasOwn(parent, last)) {
      throw fault(`nothing is at /${path.join('/')} to replace`);
    }
    Object.defineProperty(parent, last, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else throw fault(`/${path.slice(0, -1).join('/')} holds no object or array`);
  return document;
}

function remove(
  document: Json,
  path: readonly string[],
  fault: Fault,
): { document: Json; value: Json } {
  if (path.length === 0) throw fault('cannot remove the whole document');
  const value = get(document, path, fault);
  const parent = get(document, path.slice(0, -1), fault);
  const last = path.at(-1) as string;
  if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length - 1, fault), 1);
  else Reflect.deleteProperty(parent as object, last);
  return { document, value };
}

/** An array index token: digits without a leading zero, at most `highest`. */
function arrayIndex(token: string, highest: number, fault: Fault): number {
  if (!/^(?:0|[1-9]\d*)$/.test(token) || Number(token) > highest) {
    throw fault(`${token} is not an index of the array`);
  }
  return Number(token);
}

/** JSON equality: members in any order, numbers by value. */
function sameJson(a: Json, b: Json): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
    );
  }
  return a === b;
}
