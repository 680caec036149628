/**
 * @module Which of a spec's write operations change a declared collection, read from their
 * paths: a POST on a declared list's path creates, a PUT on a declared item's path replaces, a
 * PATCH merges and a DELETE deletes. `x-stockmock: {write: …}` names another action, or `false`
 * to answer from the spec's examples instead.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ItemEnvelope } from './envelope.ts';
import { WRITE_ACTIONS, type WriteOperationInput } from './declaration-schema.ts';
import type { ParentDeclaration, Views } from './declarations.ts';
import { countedNames } from '../spec/route-table.ts';

export type WriteAction = (typeof WRITE_ACTIONS)[number];

/** A write served from data: what it changes, what it reads, and how it answers. */
export interface WriteDeclaration {
  readonly kind: 'write';
  readonly action: WriteAction;
  readonly collection: string;
  readonly parents: readonly ParentDeclaration[];
  /** The path parameter that holds the key; undefined for a create, on the list's path. */
  readonly parameter: string | undefined;
  /** The request body's schema (JSON, or merge-patch); undefined where none is declared. */
  readonly body: OpenAPIV3_1.SchemaObject | undefined;
  /** Whether the body is a JSON Patch (RFC 6902) document, as the spec's media type says. */
  readonly jsonPatch: boolean;
  /** The status of success: the lowest 2xx the spec declares. */
  readonly status: number;
  /** Whether that answer carries the record (a 204, or no content declared: none). */
  readonly answersRecord: boolean;
  /** How the answer shows the record: as the collection's item operation does. */
  readonly views: Views;
  readonly envelope: ItemEnvelope;
  /** The item path a create's `Location` names, with its key parameter. */
  readonly location: { readonly path: string; readonly parameter: string } | undefined;
  /** The status of a body the schemas refuse: 422 where the spec declares it and not 400. */
  readonly refusal: 400 | 422;
}

/** A declared GET a write can change the data of. */
export interface ReadOperation {
  readonly path: string;
  readonly kind: 'list' | 'item';
  readonly collection: string;
  readonly parents: readonly ParentDeclaration[];
  /** An item's key parameter and envelope. */
  readonly parameter?: string;
  readonly envelope?: ItemEnvelope;
  readonly views: Views;
}

const INFERRED: Readonly<Record<string, readonly ['list' | 'item', WriteAction]>> = {
  post: ['list', 'create'],
  put: ['item', 'replace'],
  patch: ['item', 'merge'],
  delete: ['item', 'delete'],
};

/**
 * The write an operation makes: inferred from its method and its path's declared GET, or as its
 * declaration says. Undefined: answered from examples. A string: why the declaration cannot be
 * served (reported at its place).
 */
export function readWrite(
  method: string,
  path: string,
  operation: OpenAPIV3_1.OperationObject,
  declared: WriteOperationInput | undefined,
  reads: ReadonlyMap<string, ReadOperation>,
): WriteDeclaration | string | undefined {
  if (declared?.write === false) return undefined;
  const read = reads.get(path);
  const inferred = INFERRED[method];
  const action = declared?.write ?? (read?.kind === inferred?.[0] ? inferred?.[1] : undefined);
  if (action === undefined) return undefined;
  if (read === undefined) {
    return `${method.toUpperCase()} ${path}: a write is served on the path of a declared list or item, and GET ${path} declares neither`;
  }
  if ((action === 'create') !== (read.kind === 'list')) {
    return `${action} is served on ${action === 'create' ? "a list's" : "an item's"} path, and ${path} is ${read.kind === 'list' ? "a list's" : "an item's"}`;
  }
  const item =
    read.kind === 'item'
      ? read
      : [...reads.values()].find(
          (one) =>
            one.kind === 'item' &&
            one.collection === read.collection &&
            one.path.startsWith(`${path}/{`) &&
            !one.path.slice(path.length + 1).includes('/'),
        );
  const responses = (operation.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>;
  const success = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
  const content = (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content;
  const [mediaType, media] =
    Object.entries(content ?? {}).find(([type]) => /[/+]json\b/i.test(type)) ?? [];
  return {
    kind: 'write',
    action,
    collection: read.collection,
    parents: read.parents,
    parameter: read.kind === 'item' ? read.parameter : undefined,
    body: media?.schema,
    jsonPatch: mediaType !== undefined && /json-patch\+json/i.test(mediaType),
    status: Number(success ?? (action === 'create' ? 201 : action === 'delete' ? 204 : 200)),
    answersRecord:
      success === undefined ? action !== 'delete' : responses[success]?.content !== undefined,
    views: (item ?? read).views,
    envelope: item?.envelope ?? { kind: 'none' },
    location:
      item?.parameter === undefined ? undefined : { path: item.path, parameter: item.parameter },
    refusal: '422' in responses && !('400' in responses) ? 422 : 400,
  };
}

/** The start log's and `validate`'s line: each write served from data, and what it does. */
export function describeWrites(
  operations: ReadonlyMap<string, { readonly kind: string }>,
): string | undefined {
  const writes = [...operations].filter(
    (entry): entry is [string, WriteDeclaration] => entry[1].kind === 'write',
  );
  if (writes.length === 0) return undefined;
  const named = writes.map(([key, write]) => `${key} (${write.action} ${write.collection})`);
  return `writes from data, per session: ${countedNames(named)}`;
}
