/**
 * @module One write's new state of a record: the body checked by the operation's request schema,
 * the key assigned, the record made whole, and the result checked by the collection's record
 * schema. Either the whole write holds, or it is refused and nothing changes.
 */
import type { ValidateFunction } from 'ajv';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { RecordInput } from '../dataset/build-collection.ts';
import { ProblemError } from '../problems/problem-error.ts';
import { PROBLEMS, WRITE_PROBLEMS } from '../problems/problem-types.ts';
import type { Key } from '../query/keys.ts';
import type { CollectionDeclaration } from '../resources/declarations.ts';
import type { WriteDeclaration } from '../resources/write-declarations.ts';
import { createAjv } from '../source/create-ajv.ts';
import { assignKey } from './assign-key.ts';
import type { WriteTarget } from './session-records.ts';
import { fillRequired, stampTimes } from './fill-record.ts';
import { applyJsonPatch, PatchFault } from './json-patch.ts';
import { isObject, mergePatch } from './merge-patch.ts';
import { bodyRefusal, faultsOf } from './write-refusal.ts';

type Schema = OpenAPIV3_1.SchemaObject;

/** What a write asks: the key its path names (none for a create), and its body. */
export interface WriteRequest {
  readonly key: Key | undefined;
  readonly body: unknown;
  /**
   * Fields the path gives a create (a nested create's parent key), set once the body is
   * checked; a body that gives another value is refused.
   */
  readonly implied?: Readonly<Record<string, unknown>>;
}

/** The record's new state under its key: null once deleted. */
export interface WriteOutcome {
  readonly key: Key;
  readonly record: RecordInput | null;
}

export type RecordWrite = (target: WriteTarget, request: WriteRequest) => WriteOutcome;

const ajv = createAjv();

/** The write an operation makes on a collection, its validators compiled once. */
export function recordWrite(
  write: WriteDeclaration,
  declaration: CollectionDeclaration,
): RecordWrite {
  const record = declaration.record as Schema;
  const properties = (record.properties ?? {}) as Record<string, Schema>;
  const validateBody = write.body === undefined ? undefined : compiled(write.body);
  const validateRecord = compiled(record);
  const derived = new Set(declaration.derived.map(({ field }) => field));
  const readOnly = new Set(
    Object.entries(properties)
      .filter(([, schema]) => schema.readOnly === true)
      .map(([field]) => field),
  );
  const bodyFields = new Set(Object.keys(write.body?.properties ?? {}));

  const checkBody = (body: unknown): void => {
    if (validateBody !== undefined && !validateBody(body)) {
      throw bodyRefusal(write.refusal, faultsOf(validateBody.errors ?? []));
    }
    const shape = write.jsonPatch ? 'array' : 'object';
    if (write.action !== 'delete' && (write.jsonPatch ? !Array.isArray(body) : !isObject(body))) {
      throw bodyRefusal(write.refusal, [
        { parameter: '', in: 'body', message: `must be an ${shape}` },
      ]);
    }
  };
  const current = (target: WriteTarget, key: Key): RecordInput => {
    const found = target.records.get(key);
    if (found === undefined) {
      throw ProblemError.from(
        PROBLEMS.NOT_FOUND,
        `Nothing in ${declaration.name} has the ${declaration.key} ${String(key)}.`,
      );
    }
    // Derived fields follow their source again unless the write gives them.
    const stored = { ...found };
    for (const field of derived) Reflect.deleteProperty(stored, field);
    return stored;
  };
  /** The result made whole and held to the record schema: a refusal changes nothing. */
  const finish = (
    target: WriteTarget,
    key: Key,
    result: Record<string, unknown>,
    body: unknown,
  ): WriteOutcome => {
    if (result[declaration.key] !== undefined && result[declaration.key] !== key) {
      throw bodyRefusal(write.refusal, [
        { parameter: `/${declaration.key}`, in: 'body', message: 'cannot change a key' },
      ]);
    }
    result[declaration.key] = key;
    embed(target, result, body);
    stampTimes(record, result, target.now, write.action === 'create' ? 'every' : 'updated');
    fillRequired(declaration, result, `${target.seed}:${String(key)}`);
    if (!validateRecord(result)) {
      throw bodyRefusal(write.refusal, faultsOf(validateRecord.errors ?? []));
    }
    return { key, record: result };
  };

  /**
   * Each embedded record, filled where the record lacks it, or where the body names another
   * without giving it (`venueSlug` changed, `venue` not given); a key no record has is refused.
   */
  const embed = (target: WriteTarget, result: Record<string, unknown>, body: unknown): void => {
    for (const [field, from] of declaration.embeds) {
      const stale = gives(body, from) && !gives(body, field);
      if ((result[field] !== undefined && !stale) || result[from] === undefined) continue;
      const collection = declaration.references.get(from) as string;
      const found = target.recordsOf(collection).get(result[from] as Key);
      if (found === undefined) {
        throw bodyRefusal(write.refusal, [
          {
            parameter: `/${from}`,
            in: 'body',
            message: `names no record of ${collection} (${JSON.stringify(result[from])})`,
          },
        ]);
      }
      result[field] = found;
    }
  };

  /** A JSON Patch applied; one that cannot be, or that changes a read-only field, refused. */
  const patched = (stored: RecordInput, operations: readonly unknown[]) => {
    let result: unknown;
    try {
      result = applyJsonPatch(stored, operations);
    } catch (error) {
      if (!(error instanceof PatchFault)) throw error;
      throw bodyRefusal(write.refusal, [
        { parameter: error.pointer, in: 'body', message: error.message },
      ]);
    }
    const changed = [...readOnly].find(
      (field) =>
        JSON.stringify((result as RecordInput | null)?.[field]) !== JSON.stringify(stored[field]),
    );
    if (!isObject(result) || changed !== undefined) {
      throw bodyRefusal(write.refusal, [
        {
          parameter: '',
          in: 'body',
          message:
            changed === undefined
              ? 'must leave the record an object'
              : `changes ${changed}, which is read-only`,
        },
      ]);
    }
    return result;
  };

  return (target, request) => {
    const { body } = request;
    switch (write.action) {
      case 'delete': {
        const key = request.key as Key;
        current(target, key);
        return { key, record: null };
      }
      case 'create': {
        checkBody(body);
        const given = withoutFields(body as RecordInput, readOnly);
        for (const [field, value] of Object.entries(request.implied ?? {})) {
          if (given[field] !== undefined && given[field] !== value) {
            throw bodyRefusal(write.refusal, [
              {
                parameter: `/${field}`,
                in: 'body',
                message: `must be ${JSON.stringify(value)}, as the path says, or be left out`,
              },
            ]);
          }
          given[field] = value;
        }
        const asked = given[declaration.key];
        if (asked !== undefined && target.records.get(asked as Key) !== undefined) {
          throw ProblemError.from(
            WRITE_PROBLEMS.CONFLICT,
            `${declaration.name} already has the ${declaration.key} ${JSON.stringify(asked)}.`,
          );
        }
        const key =
          (asked as Key | undefined) ?? assignKey(declaration, target.records, target.seed, given);
        return finish(target, key, given, body);
      }
      case 'replace': {
        const key = request.key as Key;
        const stored = current(target, key);
        checkBody(body);
        // What the body cannot say (fields its schema does not name, read-only ones) is kept.
        const kept = Object.fromEntries(
          Object.entries(stored).filter(
            ([field]) => readOnly.has(field) || (bodyFields.size > 0 && !bodyFields.has(field)),
          ),
        );
        return finish(
          target,
          key,
          { ...withoutFields(body as RecordInput, readOnly), ...kept },
          body,
        );
      }
      case 'merge': {
        const key = request.key as Key;
        const stored = current(target, key);
        checkBody(body);
        if (write.jsonPatch) return finish(target, key, patched(stored, body as unknown[]), body);
        const patch = withoutFields(body as RecordInput, readOnly);
        return finish(target, key, mergePatch(stored, patch) as Record<string, unknown>, body);
      }
    }
  };
}

/** A body's members but the read-only ones, which the server decides (a read-only key too). */
function withoutFields(body: RecordInput, readOnly: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (readOnly.has(field)) continue;
    Object.defineProperty(kept, field, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return kept;
}

const validators = new WeakMap<object, ValidateFunction>();

function compiled(schema: Schema): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Whether a body gives a member: an object's own, or a JSON Patch operation's at its path. */
function gives(body: unknown, member: string): boolean {
  if (Array.isArray(body)) {
    return body.some(
      (operation) => (operation as { path?: unknown } | null)?.path === `/${member}`,
    );
  }
  return isObject(body) && Object.hasOwn(body, member);
}
