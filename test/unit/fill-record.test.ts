/** A create's record made whole: what is filled from where, and what cannot be, named at start. */
import { describe, expect, it } from 'vitest';
import type { CollectionDeclaration } from '../../src/resources/declarations.ts';
import { fillRequired, unfillableFields } from '../../src/writes/fill-record.ts';

const collection = (
  properties: Record<string, object>,
  required: string[],
): CollectionDeclaration => ({
  name: 'things',
  key: 'id',
  keyType: 'integer',
  label: undefined,
  record: {
    type: 'object',
    required: ['id', ...required],
    properties: { id: { type: 'integer' }, ...properties },
  },
  fields: new Map([
    ['id', 'integer'],
    ...Object.keys(properties).map((field): [string, 'string'] => [field, 'string']),
  ]),
  derived: [],
  settings: {},
  references: new Map(),
  embeds: new Map(),
});

describe('a created record made whole', () => {
  it('fills from the default, the const, the first example, then a value of the schema', () => {
    const things = collection(
      {
        status: { type: 'string', enum: ['new', 'old'], default: 'old' },
        kind: { const: 'thing' },
        colour: { type: 'string', examples: ['teal', 'red'] },
        size: { type: 'integer', minimum: 3, maximum: 3 },
      },
      ['status', 'kind', 'colour', 'size'],
    );
    const record: Record<string, unknown> = { id: 1, colour: 'blue' };
    fillRequired(things, record, 'seed');
    expect(record).toEqual({ id: 1, colour: 'blue', status: 'old', kind: 'thing', size: 3 });
    const empty: Record<string, unknown> = { id: 2 };
    fillRequired(things, empty, 'seed');
    expect(empty['colour']).toBe('teal');
  });

  it('names a required field no body gives and no value can be made for, and no other', () => {
    const things = collection(
      {
        code: { type: 'string', pattern: '^(?=a)b\\1$' },
        given: { type: 'string', pattern: '^(?=a)b\\1$' },
        status: { type: 'string', default: 'new' },
      },
      ['code', 'given', 'status'],
    );
    const reasons = unfillableFields(
      things,
      { type: 'object', properties: { given: {} } },
      new Set(),
    );
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^code: /);
    expect(
      unfillableFields(things, { type: 'object', properties: { given: {}, code: {} } }, new Set()),
    ).toEqual([]);
  });
});
