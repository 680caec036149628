/**
 * A spec with a fault of one schema or one path template is served (issue 49, item 6): the real
 * CLI on a real port starts, logs each fault with file, line and field, and answers the
 * operation; `--strict` refuses to start. Expected bodies are read from the spec's text; lines
 * and columns are found in it by the test.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startStockmock } from '../../src/api/start-stockmock.ts';
import { runMain } from '../../src/cli/main.ts';
import { memoryIo } from '../helpers/memory-io.ts';
import { spawnServe, type ServeProcess } from '../helpers/spawn-serve.ts';
import { positionIn } from '../helpers/text-position.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The three faults of the corpus's refused specs, each in one operation or one schema. */
const FIXTURE = fileURLToPath(
  new URL('../fixtures/specs/faults-of-one-schema.yaml', import.meta.url),
);
let SPEC: string;

let dir: string;
let file: string;
let server: ServeProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockmock-faults-'));
  file = join(dir, 'openapi.yaml');
  SPEC = await readFile(FIXTURE, 'utf8');
  await writeFile(file, SPEC);
  server = await spawnServe(['--spec', file], dir);
});
afterAll(async () => {
  await server.stop();
});

/** The example the spec's text gives an operation's 200. */
function exampleOf(path: string): unknown {
  const written = parse(SPEC) as {
    paths: Record<string, { get: { responses: Record<string, { content: object }> } }>;
  };
  const content = written.paths[path]?.get.responses['200']?.content as Record<
    string,
    { example: unknown }
  >;
  return content['application/json']?.example;
}

describe('serve on a spec with faults of one schema or one path template', () => {
  it('starts, and logs each fault with file, line and field, and what is served', () => {
    const log = server.log();
    expect(log).toContain(
      `${positionIn(file, SPEC, 'xmlns')} components.schemas.Thing.xml: holds a member that an XML object does not define (name, namespace, prefix, attribute, wrapped; an extension starts x-); ignored (--strict refuses it)`,
    );
    expect(log).toContain(
      `${positionIn(file, SPEC, "'8'")} components.schemas.Thing.properties.code.maxLength: must be a whole number, 0 or more; the schema is served without it (--strict refuses it)`,
    );
    expect(log).toContain(
      `${positionIn(file, SPEC, '123')} paths./codes.get.parameters[0].schema.pattern: must be a string; the schema is served without it (--strict refuses it)`,
    );
    expect(log).toContain(
      `${positionIn(file, SPEC, '/things/{thing-id}')} paths./things/{thing-id}: {thing-id} names a parameter with - or ~, outside RFC 6570 level 1 (letters, digits, _ and inner dots); served, the parameter read under this name (--strict refuses it)`,
    );
  });

  it('routes /things/abc to /things/{thing-id} and answers its example', async () => {
    for (const path of ['/things/abc', '/things/abc-def', '/things/abc/']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.json()).toEqual(exampleOf('/things/{thing-id}'));
    }
    expect((await fetch(`${server.url}/things/abc/more`)).status).toBe(404);
  });

  it('generates an answer from the schema without the faulty keywords', async () => {
    const response = await fetch(`${server.url}/things/abc`, {
      headers: { prefer: 'dynamic=true' },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(typeof body['id']).toBe('string');
  });

  it('validates a parameter whose pattern is no string without it, and never answers 500', async () => {
    // With the number read as a pattern, /123/ would refuse "abc".
    const valid = await fetch(`${server.url}/codes?code=abc`);
    expect(valid.status).toBe(200);
    expect(await valid.json()).toEqual(exampleOf('/codes'));
    // The rest of the parameter's rules still hold: it is required (the spec's 400, no body).
    const missing = await fetch(`${server.url}/codes`);
    expect(missing.status).toBe(400);
    for (const code of ['', '123', '%F0%9F%98%80', 'x'.repeat(5000), '(', '[a-']) {
      for (const prefer of ['', 'dynamic=true']) {
        const response = await fetch(`${server.url}/codes?code=${code}`, {
          headers: prefer === '' ? {} : { prefer },
        });
        expect(response.status, `${code.slice(0, 20)} ${prefer}`).toBeLessThan(500);
      }
    }
  });
});

describe('--strict', () => {
  it('serve refuses the spec, naming each fault with file, line and field', () => {
    const run = spawnSync(
      process.execPath,
      [`${root}bin/stockmock.js`, 'serve', '--port', '0', '--strict', '--spec', file],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, STOCKMOCK_LOG_LEVEL: 'info' } },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `${positionIn(file, SPEC, 'xmlns')} components.schemas.Thing.xml: holds a member that an XML object does not define (name, namespace, prefix, attribute, wrapped; an extension starts x-); --strict refuses it (without --strict: ignored, with a warning)`,
    );
    expect(run.stderr).toContain(
      `${positionIn(file, SPEC, '123')} paths./codes.get.parameters[0].schema.pattern: must be a string; --strict refuses it`,
    );
    expect(run.stderr).toContain(
      `${positionIn(file, SPEC, '/things/{thing-id}')} paths./things/{thing-id}: {thing-id} names a parameter`,
    );
  });

  it('validate warns of each without --strict, and fails with it', async () => {
    const io = memoryIo(dir);
    expect(await runMain(['validate', '--spec', file], io)).toBe(0);
    const warnings = io.err.split('\n').filter((line) => line.startsWith('warn '));
    // xml, the response's pattern, the parameter's pattern, maxLength, the template.
    expect(warnings).toHaveLength(5);
    expect(warnings).toContain(
      `warn ${positionIn(file, SPEC, '123')} paths./codes.get.parameters[0].schema.pattern: must be a string; the schema is served without it (--strict refuses it)`,
    );
    const strict = memoryIo(dir);
    expect(await runMain(['validate', '--strict', '--spec', file], strict)).toBe(1);
    expect(strict.err).toContain(
      `${positionIn(file, SPEC, "'8'")} components.schemas.Thing.properties.code.maxLength: must be a whole number, 0 or more; --strict refuses it`,
    );
  });
});

describe('an operation served from data under a path parameter outside level 1', () => {
  it('finds the item by the parameter as the spec names it, and filters without a faulty pattern', async () => {
    const data = join(dir, 'data.yaml');
    const spec = join(dir, 'data-openapi.yaml');
    await writeFile(
      spec,
      [
        'openapi: 3.1.0',
        "info: { title: parts, version: '1' }",
        'x-stockmock-collections:',
        '  parts:',
        '    key: code',
        '    record:',
        '      type: object',
        '      required: [code, name]',
        '      properties: { code: { type: string }, name: { type: string } }',
        'paths:',
        '  /parts:',
        '    get:',
        '      security: []',
        '      x-stockmock:',
        '        collection: parts',
        '        filters: { name: { field: name, match: exact } }',
        '        view: { fields: { code: code, name: name } }',
        '      parameters:',
        '        - { name: name, in: query, schema: { type: string, pattern: 7 } }',
        '        - { name: limit, in: query, schema: { type: integer, minimum: 1, default: 10 } }',
        '        - { name: page, in: query, schema: { type: integer, minimum: 1, default: 1 } }',
        "      responses: { '200': { description: a page } }",
        '  /parts/{part-code}:',
        '    get:',
        '      security: []',
        '      x-stockmock: { collection: parts, item: part-code, view: { fields: { code: code, name: name } } }',
        '      parameters:',
        '        - { name: part-code, in: path, required: true, schema: { type: string, minLength: 2 } }',
        "      responses: { '200': { description: one }, '400': { description: bad }, '404': { description: none } }",
        '  /bins/{bin.code}:',
        '    get:',
        '      security: []',
        '      x-stockmock: { collection: parts, item: bin.code, view: { fields: { code: code } } }',
        '      parameters:',
        '        - { name: bin.code, in: path, required: true, schema: { type: string } }',
        "      responses: { '200': { description: one }, '404': { description: none } }",
        '',
      ].join('\n'),
    );
    await writeFile(data, 'parts:\n  - { code: a-1, name: bolt }\n  - { code: b-2, name: nut }\n');
    const mock = await startStockmock({ spec, fixtures: data });
    try {
      const item = await fetch(`${mock.url}/parts/b-2`);
      expect(item.status).toBe(200);
      expect(await item.json()).toEqual({ data: { code: 'b-2', name: 'nut' } });
      expect((await fetch(`${mock.url}/parts/zz`)).status).toBe(404);
      // The parameter's own schema still holds, and a refusal names it as the spec does.
      const short = await fetch(`${mock.url}/parts/z`);
      expect(short.status).toBe(400);
      const problem = (await short.json()) as { errors: { parameter: string; in: string }[] };
      expect(problem.errors).toEqual([
        expect.objectContaining({ parameter: 'part-code', in: 'path' }),
      ]);
      const bin = await fetch(`${mock.url}/bins/a-1`);
      expect(bin.status).toBe(200);
      expect(await bin.json()).toEqual({ data: { code: 'a-1' } });
      const list = await fetch(`${mock.url}/parts?name=bolt`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: unknown[] }).data).toEqual([
        { code: 'a-1', name: 'bolt' },
      ]);
    } finally {
      await mock.close();
    }
  });
});
