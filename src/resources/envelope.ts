/**
 * @module Where a list's or an item's parts go in its answer (`x-stockmock.envelope`), and the
 * check, at start, that the operation's own response schema has room for them as declared.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

/** The parts of a list answer an envelope places. */
export const LIST_PARTS = [
  'items',
  'links',
  'total',
  'page',
  'limit',
  'pages',
  'offset',
  'nextCursor',
  'previousCursor',
  'hasMore',
] as const;
export type ListPart = (typeof LIST_PARTS)[number];

/** A member path: `meta.total` is `['meta', 'total']`. */
export type MemberPath = readonly string[];

/**
 * A list answer: an object with each part at its path (`items` always), or a bare array of the
 * items with the links in an RFC 8288 `Link` header.
 */
export type ListEnvelope =
  | { readonly kind: 'object'; readonly parts: readonly (readonly [ListPart, MemberPath])[] }
  | { readonly kind: 'none' };

/** An item answer: the record at a path of an object, or the record itself. */
export type ItemEnvelope =
  { readonly kind: 'object'; readonly path: MemberPath } | { readonly kind: 'none' };

/** The interface's `{data, links}`. */
export const DEFAULT_LIST_ENVELOPE: ListEnvelope = {
  kind: 'object',
  parts: [
    ['items', ['data']],
    ['links', ['links']],
  ],
};

/** The interface's `{data}`. */
export const DEFAULT_ITEM_ENVELOPE: ItemEnvelope = { kind: 'object', path: ['data'] };

/** The members of a links object, as the interface names them. */
export const LINK_MEMBERS = ['first', 'last', 'prev', 'next'] as const;

/** A problem with an envelope: where in the declaration (a part, or the envelope), and what. */
export interface EnvelopeIssue {
  readonly part: string | undefined;
  readonly message: string;
}

type Schema = OpenAPIV3_1.SchemaObject;

type Part = ListPart | 'item';

/** What each part must be where it goes: a type the schema's `type` must let through. */
const PART_TYPES: Readonly<Record<Part, readonly [type: string, words: string]>> = {
  items: ['array', 'an array'],
  links: ['object', 'an object'],
  total: ['integer', 'a number'],
  page: ['integer', 'a number'],
  limit: ['integer', 'a number'],
  pages: ['integer', 'a number'],
  offset: ['integer', 'a number'],
  nextCursor: ['string', 'a string'],
  previousCursor: ['string', 'a string'],
  hasMore: ['boolean', 'a boolean'],
  item: ['object', 'an object'],
};

/** `meta.total` → `['meta', 'total']`; a path with an empty member is none. */
export function memberPathOf(text: string): MemberPath | undefined {
  const path = text.split('.');
  return path.every((member) => member.length > 0) ? path : undefined;
}

/**
 * The JSON schema of an operation's success answer (`200`, else the first 2xx), when it declares
 * one for a JSON media type.
 */
export function successSchemaOf(operation: OpenAPIV3_1.OperationObject): Schema | undefined {
  const responses = (operation.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>;
  const code = '200' in responses ? '200' : Object.keys(responses).find((c) => c.startsWith('2'));
  const content = code === undefined ? undefined : responses[code]?.content;
  const json = Object.entries(content ?? {}).find(([type]) => /[/+]json\b/i.test(type));
  return json?.[1].schema;
}

/** Every way the envelope and the schema disagree; none where the schema says nothing. */
export function envelopeIssues(
  envelope: ListEnvelope | ItemEnvelope,
  role: 'list' | 'item',
  schema: Schema | undefined,
): EnvelopeIssue[] {
  if (schema === undefined) return [];
  if (envelope.kind === 'none') {
    const wanted = role === 'list' ? 'array' : 'object';
    return allows(schema, wanted)
      ? []
      : [
          {
            part: undefined,
            message: `none answers ${role === 'list' ? 'a bare array' : 'the record itself'}, but the response schema is not ${wanted === 'array' ? 'an array' : 'an object'}`,
          },
        ];
  }
  const placed: readonly (readonly [Part, MemberPath])[] =
    'parts' in envelope ? envelope.parts : [['item', envelope.path]];
  const issues: EnvelopeIssue[] = [];
  if (!allows(schema, 'object')) {
    return [{ part: undefined, message: 'the response schema is not an object' }];
  }
  for (const [part, path] of placed) {
    const found = schemaAt(schema, path);
    const where = path.join('.');
    if (found === 'absent') {
      issues.push({ part, message: `the response schema has no member ${where}` });
    } else if (found !== undefined && !allows(found, PART_TYPES[part][0])) {
      issues.push({
        part,
        message: `the response schema's ${where} is not ${PART_TYPES[part][1]}`,
      });
    } else if (part === 'links' && found !== undefined) {
      const extra = requiredOf(found).filter(
        (member) => !(LINK_MEMBERS as readonly string[]).includes(member),
      );
      if (extra.length > 0) {
        issues.push({
          part,
          message: `the response schema's ${where} requires ${extra.join(', ')}; links are ${LINK_MEMBERS.join(', ')}`,
        });
      }
    }
  }
  // Every member the schema requires, at each object the envelope fills, must be filled.
  const filled = new Set(
    placed.flatMap(([, path]) => path.map((_, i) => path.slice(0, i + 1).join('.'))),
  );
  const objects = new Set([
    '',
    ...placed.flatMap(([, path]) =>
      path.slice(0, -1).map((_, i) => path.slice(0, i + 1).join('.')),
    ),
  ]);
  for (const prefix of objects) {
    const at = prefix === '' ? schema : schemaAt(schema, prefix.split('.'));
    if (at === undefined || at === 'absent') continue;
    for (const member of requiredOf(at)) {
      const path = prefix === '' ? member : `${prefix}.${member}`;
      if (!filled.has(path)) {
        issues.push({
          part: undefined,
          message: `the response schema requires ${path}, which the envelope does not fill`,
        });
      }
    }
  }
  return issues;
}

/**
 * The schema of a member path: undefined where the schema does not say (no properties, a
 * composition other than allOf); `absent` where it closes the object without that member.
 */
function schemaAt(schema: Schema, path: MemberPath): Schema | 'absent' | undefined {
  let at: Schema = schema;
  for (const member of path) {
    const properties = propertiesOf(at);
    const found = properties?.[member];
    if (found !== undefined) {
      at = found;
      continue;
    }
    return closed(at) ? 'absent' : undefined;
  }
  return at;
}

/** The properties a schema declares, its allOf parts' included. */
function propertiesOf(schema: Schema): Record<string, Schema> | undefined {
  const parts = [schema, ...((schema.allOf ?? []) as Schema[])];
  const declared = parts.filter((part) => part.properties !== undefined);
  if (declared.length === 0) return undefined;
  return Object.assign({}, ...declared.map((part) => part.properties)) as Record<string, Schema>;
}

function requiredOf(schema: Schema): string[] {
  return [schema, ...((schema.allOf ?? []) as Schema[])].flatMap((part) => part.required ?? []);
}

/** Whether an object schema admits no member it does not list. */
function closed(schema: Schema): boolean {
  return [schema, ...((schema.allOf ?? []) as Schema[])].some(
    (part) =>
      part.additionalProperties === false ||
      (part as { unevaluatedProperties?: unknown }).unevaluatedProperties === false,
  );
}

/** Whether a schema's `type` lets a value of this type through (no `type` lets all). */
function allows(schema: Schema, type: string): boolean {
  const types = [schema, ...((schema.allOf ?? []) as Schema[])]
    .map((part) => part.type)
    .filter((declared) => declared !== undefined);
  return types.every((declared) => {
    const list = (Array.isArray(declared) ? declared : [declared]) as string[];
    return (
      list.includes(type) ||
      (type === 'number' && list.includes('integer')) ||
      (type === 'integer' && list.includes('number'))
    );
  });
}
