/**
 * @module What the writes a spec declares on a declared collection do to its reads (asked only
 * under `--writes`): a create is readable by its key with what was written and is listed, the
 * list's total one more; a change is read back; a replace sent twice leaves one state; a body
 * the schema refuses is a 4xx that changes nothing; a delete is a 404 after and leaves the list.
 * All of it in a session of the checker's own (`stockmock-session`), whose writes another
 * session must not see where the target keeps sessions, as the stand-in does; and what it
 * created it deletes again.
 */
import { randomUUID } from 'node:crypto';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Check, CheckContext, Failure, Findings } from '../check.ts';
import { failureOf, statusOf } from '../describe-exchange.ts';
import type { DeclaredItem, DeclaredList } from '../declared.ts';
import { readersOf } from '../learn.ts';
import { changesData, requestBodyOf, type RequestBody } from '../operations.ts';
import type { Credentials, Exchange, TargetClient } from '../target-client.ts';
import { pagesOf, walk, type Item } from '../walk.ts';

/** The header a request names its session in (PRODUCT.md: Writes and sessions). */
const SESSION_HEADER = 'stockmock-session';

type Schema = OpenAPIV3_1.SchemaObject;

/** A declared collection's writes, as the spec declares them at its list's and item's paths. */
interface CollectionWrites {
  readonly list: DeclaredList;
  readonly item: DeclaredItem;
  readonly create: RequestBody;
  readonly replace: RequestBody | undefined;
  readonly merge: RequestBody | undefined;
  readonly remove: boolean;
}

/** The collections whose list path takes a POST and whose item path a GET: each is checked. */
export function writeEffectsChecks(
  document: OpenAPIV3_1.Document,
  lists: readonly DeclaredList[],
  items: readonly DeclaredItem[],
): Check[] {
  const checks: Check[] = [];
  for (const list of lists) {
    const template = list.collection.name;
    const item = items.find((one) => one.template === `${template}/{${one.parameter}}`);
    // Only the writes that change the data: one answered from examples is judged as one.
    const data = (operation: OpenAPIV3_1.OperationObject | undefined) =>
      operation !== undefined && changesData(operation) ? operation : undefined;
    const create = requestBodyOf(data(document.paths?.[template]?.post));
    if (item === undefined || create === undefined) continue;
    const at = document.paths?.[item.template];
    const writes: CollectionWrites = {
      list,
      item,
      create,
      replace: requestBodyOf(data(at?.put)),
      merge: requestBodyOf(data(at?.patch)),
      remove: data(at?.delete) !== undefined,
    };
    checks.push(effectsCheck(writes), isolationCheck(writes));
  }
  return checks;
}

/** The steps of one run, each failing with what it saw. */
interface Run {
  readonly failures: Failure[];
  readonly client: TargetClient;
  readonly as: Credentials;
  /** The session its requests name. */
  readonly session: string;
  /** The body the record was created with. */
  readonly written: Record<string, unknown>;
  /** The created record's URL, while it is there. */
  itemUrl: string | undefined;
}

function effectsCheck(writes: CollectionWrites): Check {
  const { list } = writes;
  return {
    id: `writes.${list.collection.name}.effects`,
    title: `${list.collection.name}: a create is read back and listed, a change read back, a refused body changes nothing, a delete is gone`,
    level: 'interface',
    source: 'RFC 9110 §9.3 (the methods’ meaning), and the spec’s reads of the collection',
    needs: [],
    async run(context) {
      const run = await begin(context, writes);
      if ('skipped' in run) return { failures: [], skipped: run.skipped };
      try {
        await followThrough(run, writes);
      } finally {
        await cleanUp(run, writes);
      }
      return leftOver(run);
    },
  };
}

function isolationCheck(writes: CollectionWrites): Check {
  const { list } = writes;
  return {
    id: `writes.${list.collection.name}.sessions`,
    title: `${list.collection.name}: a record created in one session is not seen in another`,
    level: 'stand-in',
    source: 'PRODUCT.md: Writes and sessions',
    needs: [],
    async run(context) {
      const run = await begin(context, writes);
      if ('skipped' in run) return { failures: [], skipped: run.skipped };
      try {
        const other = sessionClient(context.client, `${sessionName(context)}-other`);
        const seen = await other.request({ path: run.itemUrl ?? '', as: run.as });
        if (statusOf(seen) !== 404) {
          run.failures.push(
            failureOf(seen, 'A record created in one session is seen in another session', '404'),
          );
        }
        const none = await context.client.request({ path: run.itemUrl ?? '', as: run.as });
        if (statusOf(none) !== 404) {
          run.failures.push(
            failureOf(
              none,
              'A record created in a session is seen by a request that names none',
              '404',
            ),
          );
        }
      } finally {
        await cleanUp(run, writes);
      }
      return leftOver(run);
    },
  };
}

/** The findings, saying what the run created and could not delete (no DELETE declared). */
function leftOver(run: Run): Findings {
  return run.itemUrl === undefined
    ? { failures: run.failures }
    : {
        failures: run.failures,
        observed: `created ${run.itemUrl} in the session ${run.session}, and the spec declares no DELETE to remove it`,
      };
}

/** One run's own: two runs at once on one server do not meet. */
const RUN = randomUUID().slice(0, 8);

function sessionName(context: CheckContext): string {
  return `stockmock-contract-${String(context.seed)}-${RUN}`;
}

/** Every request of the client in a session. */
function sessionClient(client: TargetClient, session: string): TargetClient {
  return {
    ...client,
    request: (request) =>
      client.request({ ...request, headers: { ...request.headers, [SESSION_HEADER]: session } }),
  };
}

/** Creates the record the steps follow, in the checker's session; a skip where it cannot. */
async function begin(
  context: CheckContext,
  writes: CollectionWrites,
): Promise<Run | { skipped: string }> {
  const [as] = readersOf(writes.list, context.holders);
  if (as === undefined) return { skipped: 'no token given reads this list' };
  const session = sessionName(context);
  const client = sessionClient(context.client, session);
  const written = withFractions(writes.create, context.seed);
  const run: Run = { failures: [], client, as, session, written, itemUrl: undefined };
  const created = await send(run, 'POST', listPath(writes.list), written);
  const status = statusOf(created);
  if (status === undefined || status < 200 || status >= 300) {
    return {
      skipped: `the spec's example body for POST ${writes.list.collection.name} was answered ${status === undefined ? 'with nothing' : String(status)}, so there is no record to follow`,
    };
  }
  const url = createdUrl(created, writes);
  if (url === undefined) {
    return { skipped: 'the create named its record neither in Location nor by its key' };
  }
  run.itemUrl = url;
  return run;
}

async function followThrough(run: Run, writes: CollectionWrites): Promise<void> {
  const { failures } = run;
  const url = run.itemUrl as string;
  const { written } = run;
  let record = await readBack(run, writes, url, written, 'The created record');
  if (record === undefined) return;
  const listed = await listIds(run, writes);
  const key = record[writes.list.collection.idKey];
  if (listed !== undefined && !listed.ids.some((id) => String(id) === String(key))) {
    failures.push({
      message: `The created record (${String(key)}) is not in the list`,
      request: `GET ${listPath(writes.list)}`,
    });
  }
  // Counted with the created record in it: a total that never counts writes differs.
  if (listed?.total !== undefined && listed.total !== listed.ids.length) {
    failures.push({
      message: "The list's total is not the number of items it lists",
      expected: String(listed.ids.length),
      actual: String(listed.total),
    });
  }
  for (const [change, body] of [
    ['merge', writes.merge],
    ['replace', writes.replace],
  ] as const) {
    if (body === undefined) continue;
    const method = change === 'merge' ? 'PATCH' : 'PUT';
    const altered = alteredBody(body, change === 'merge' ? {} : written, record);
    if (altered === undefined) continue;
    // A body the schema refuses, though one member of it is a change it takes: a 4xx, and the
    // record as it was (nothing of it applied).
    for (const invalid of refusedBodies(body, altered)) {
      const refused = await send(run, method, url, invalid.body, change);
      const refusedStatus = statusOf(refused);
      if (refusedStatus === undefined || refusedStatus < 400 || refusedStatus >= 500) {
        failures.push(failureOf(refused, `A ${method} body ${invalid.why} is not a 4xx`, '4xx'));
      }
      const after = await readBack(
        run,
        writes,
        url,
        record,
        `After a refused ${method}, the record`,
      );
      if (after === undefined) return;
    }
    const times = change === 'replace' ? 2 : 1;
    for (let time = 0; time < times; time++) {
      const changed = await send(run, method, url, altered.body, change);
      const changedStatus = statusOf(changed);
      if (changedStatus === undefined || changedStatus < 200 || changedStatus >= 300) {
        failures.push(
          failureOf(changed, `${method} with a body the schema takes is not a 2xx`, '2xx'),
        );
        return;
      }
      const read = await readBack(
        run,
        writes,
        url,
        altered.body,
        `After ${method}${time === 1 ? ' sent again' : ''}, the record`,
      );
      if (read === undefined) return;
      record = read;
    }
  }
  if (writes.merge !== undefined && !(await nullRemoves(run, writes, writes.merge, url))) return;
  if (!writes.remove) return;
  const removed = await send(run, 'DELETE', url, undefined);
  const removedStatus = statusOf(removed);
  if (removedStatus === undefined || removedStatus < 200 || removedStatus >= 300) {
    failures.push(failureOf(removed, 'DELETE of the created record is not a 2xx', '2xx'));
    return;
  }
  run.itemUrl = undefined;
  const gone = await run.client.request({ path: url, as: run.as });
  if (statusOf(gone) !== 404)
    failures.push(failureOf(gone, 'A deleted record is still read', '404'));
  const after = await listIds(run, writes);
  if (after !== undefined && after.ids.some((id) => String(id) === String(key))) {
    failures.push({
      message: `The deleted record (${String(key)}) is still listed`,
      request: `GET ${listPath(writes.list)}`,
    });
  }
  if (
    after?.total !== undefined &&
    listed?.total !== undefined &&
    after.total !== listed.total - 1
  ) {
    failures.push({
      message: `The list's total does not shrink by one after a delete`,
      expected: String(listed.total - 1),
      actual: String(after.total),
    });
  }
}

/** Deletes what the run created and did not delete. */
async function cleanUp(run: Run, writes: CollectionWrites): Promise<void> {
  if (run.itemUrl === undefined || !writes.remove) return;
  await send(run, 'DELETE', run.itemUrl, undefined);
}

function listPath(list: DeclaredList): string {
  return list.collection.path.split('?', 1)[0] ?? list.collection.path;
}

function send(
  run: Run,
  method: string,
  path: string,
  body: unknown,
  change?: 'merge' | 'replace',
): Promise<Exchange> {
  return run.client.request({
    method,
    path,
    as: run.as,
    ...(body === undefined
      ? {}
      : {
          headers: {
            'content-type':
              change === 'merge' ? 'application/merge-patch+json' : 'application/json',
          },
          body: JSON.stringify(body),
        }),
  });
}

/** The created record's URL: its Location, else the item path with the key the answer gives. */
function createdUrl(created: Exchange, writes: CollectionWrites): string | undefined {
  if (created.kind !== 'response') return undefined;
  const location = created.response.headers['location'];
  if (typeof location === 'string' && location !== '') return location;
  const record = recordOf(created.response.body, writes.item);
  const key = record?.[writes.list.collection.idKey];
  if (typeof key !== 'string' && typeof key !== 'number') return undefined;
  return `${listPath(writes.list)}/${encodeURIComponent(String(key))}`;
}

/** The record an item answer holds, under its envelope. */
function recordOf(json: unknown, item: DeclaredItem): Record<string, unknown> | undefined {
  let at = json;
  for (const member of item.envelope === 'none' ? [] : item.envelope) {
    at = (at as Record<string, unknown> | null)?.[member];
  }
  return typeof at === 'object' && at !== null && !Array.isArray(at)
    ? (at as Record<string, unknown>)
    : undefined;
}

/** Reads the record and holds each member that was written to it; undefined where it cannot. */
async function readBack(
  run: Run,
  writes: CollectionWrites,
  url: string,
  written: Record<string, unknown>,
  what: string,
): Promise<Record<string, unknown> | undefined> {
  const read = await run.client.request({ path: url, as: run.as });
  const record =
    statusOf(read) === 200 && read.kind === 'response'
      ? recordOf(read.response.body, writes.item)
      : undefined;
  if (record === undefined) {
    run.failures.push(failureOf(read, `${what} cannot be read`, '200 with the record'));
    return undefined;
  }
  const differs = Object.entries(written).filter(
    ([member, value]) => !sameValue(record[member], value),
  );
  if (differs.length > 0) {
    run.failures.push(
      failureOf(
        read,
        `${what} does not hold what was written: ${differs.map(([member]) => member).join(', ')}`,
        JSON.stringify(Object.fromEntries(differs)),
      ),
    );
  }
  return record;
}

/** Equal as JSON, or the same instant written two ways (`…00Z`, `…00.000Z`). */
function sameValue(read: unknown, written: unknown): boolean {
  if (JSON.stringify(read) === JSON.stringify(written)) return true;
  if (
    typeof read === 'string' &&
    typeof written === 'string' &&
    /^\d{4}-\d\d-\d\dT/.test(written)
  ) {
    return Date.parse(read) === Date.parse(written) && !Number.isNaN(Date.parse(read));
  }
  return false;
}

/** The list's items' keys, walked whole, and its total where its envelope gives one. */
async function listIds(
  run: Run,
  writes: CollectionWrites,
): Promise<{ ids: unknown[]; total: number | undefined } | undefined> {
  const { collection } = writes.list;
  const walked = await walk(run.client, collection.path, run.as, pagesOf(collection));
  if (!walked.complete || walked.failures.length > 0) {
    run.failures.push(...walked.failures);
    return undefined;
  }
  const given = walked.pages[0]?.numbers.total;
  const total = typeof given === 'number' ? given : undefined;
  return { ids: walked.items.map((item: Item) => item[collection.idKey]), total };
}

/**
 * A body the schema takes that changes one member the record holds: another value of its enum,
 * another number within its bounds, other text of its length. Undefined where none is found.
 */
function alteredBody(
  body: RequestBody,
  base: Record<string, unknown>,
  record: Record<string, unknown>,
): { readonly body: Record<string, unknown>; readonly member: string } | undefined {
  const properties = (body.schema.properties ?? {}) as Record<string, Schema>;
  for (const [member, schema] of Object.entries(properties)) {
    if (schema.readOnly === true) continue;
    const other = otherValue(schema, record[member]);
    if (other !== undefined) return { body: { ...base, [member]: other }, member };
  }
  return undefined;
}

function otherValue(schema: Schema, current: unknown): unknown {
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== current);
  const type = Array.isArray(schema.type) ? schema.type.find((one) => one !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') {
    const low = typeof schema.minimum === 'number' ? schema.minimum : 0;
    return current === low ? low + 1 : low;
  }
  if (type === 'string' && schema.pattern === undefined && schema.format === undefined) {
    const text = 'b'.repeat(Math.max(1, schema.minLength ?? 1));
    return text === current ? 'c'.repeat(text.length) : text;
  }
  return undefined;
}

/**
 * The example body with each number member that may have a fraction given one (within its
 * bounds, from the seed): a service that rounds what it stores is then seen to.
 */
function withFractions(body: RequestBody, seed: number): Record<string, unknown> {
  const example = { ...(body.example as Record<string, unknown>) };
  const properties = (body.schema.properties ?? {}) as Record<string, Schema>;
  for (const [member, schema] of Object.entries(properties)) {
    if (schema.type !== 'number' || schema.multipleOf !== undefined || !(member in example)) {
      continue;
    }
    const low = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const high = typeof schema.maximum === 'number' ? schema.maximum : low + 100;
    const value = low + ((((seed % 97) + 1.37) / 100) * (high - low)) / 1.5;
    const rounded =
      Math.round(value * 100) / 100 + (Number.isInteger(Math.round(value * 100) / 100) ? 0.25 : 0);
    if (rounded > low && rounded < high) example[member] = rounded;
  }
  return example;
}

/**
 * Bodies the schema refuses: the altered body with another member of a type its schema refuses,
 * else the example's own refused bodies.
 */
function refusedBodies(
  body: RequestBody,
  altered: { readonly body: Record<string, unknown>; readonly member: string },
): readonly { readonly why: string; readonly body: unknown }[] {
  const properties = (body.schema.properties ?? {}) as Record<string, Schema>;
  for (const [member, schema] of Object.entries(properties)) {
    if (schema.readOnly === true || member === altered.member) continue;
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const wrong = types.includes('string')
      ? 7
      : types.some((type) => type === 'number' || type === 'integer')
        ? 'seven'
        : undefined;
    if (wrong === undefined) continue;
    return [
      {
        why: `with ${member} of a type its schema refuses`,
        body: { ...altered.body, [member]: wrong },
      },
    ];
  }
  return body.invalid.slice(0, 1);
}

/**
 * A merge patch's `null` removes the member (RFC 7396 §1), tried on a member the patch schema
 * lets be null: set first where the record lacks it. False where a step could not be read.
 */
async function nullRemoves(
  run: Run,
  writes: CollectionWrites,
  body: RequestBody,
  url: string,
): Promise<boolean> {
  const properties = (body.schema.properties ?? {}) as Record<string, Schema>;
  const nullable = Object.entries(properties).find(
    ([, schema]) => Array.isArray(schema.type) && schema.type.includes('null'),
  );
  if (nullable === undefined) return true;
  const [member, schema] = nullable;
  const value = otherValue(schema, undefined);
  if (value === undefined) return true;
  await send(run, 'PATCH', url, { [member]: value }, 'merge');
  if (
    (await readBack(run, writes, url, { [member]: value }, `After PATCH, the record`)) === undefined
  ) {
    return false;
  }
  const cleared = await send(run, 'PATCH', url, { [member]: null }, 'merge');
  const read = await run.client.request({ path: url, as: run.as });
  const record = read.kind === 'response' ? recordOf(read.response.body, writes.item) : undefined;
  if (record === undefined) {
    run.failures.push(
      failureOf(read, 'After a PATCH, the record cannot be read', '200 with the record'),
    );
    return false;
  }
  if (record[member] !== undefined && record[member] !== null) {
    run.failures.push(
      failureOf(
        cleared,
        `A merge patch's null does not remove ${member} (RFC 7396)`,
        `${member} gone`,
      ),
    );
  }
  return true;
}
