/**
 * A spec is refused only for what stops it being served (issue 49, item 6): a fault of one
 * schema or one path template is loaded with file, line and field, warned of, and refused by
 * --strict; any other fault is refused as before. Lines and columns are found in the test's own
 * text.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatSourceIssue, SourceError } from '../../src/problems/source-error.ts';
import { readDeclarations } from '../../src/resources/declarations.ts';
import { loadSpec } from '../../src/spec/load-spec.ts';
import { faultWarnings, strictRefusals } from '../../src/spec/served-faults.ts';
import { positionIn } from '../helpers/text-position.ts';

async function written(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'stockmock-faults-')), 'openapi.yaml');
  await writeFile(file, text);
  return file;
}

const FIXTURE = fileURLToPath(
  new URL('../fixtures/specs/faults-of-one-schema.yaml', import.meta.url),
);

/** The fixture, as OpenAPI `version`. */
async function fixtureAs(version: string): Promise<{ file: string; text: string }> {
  const text = (await readFile(FIXTURE, 'utf8')).replace('openapi: 3.0.3', `openapi: ${version}`);
  return { file: await written(text), text };
}

describe.each(['3.0.3', '3.1.0'])(
  'a spec with the three faults of the corpus, OpenAPI %s',
  (version) => {
    it('is loaded, each fault with file, line and field, and the schemas read without them', async () => {
      const { file, text } = await fixtureAs(version);
      const spec = await loadSpec(file);
      const where = (needle: string) => positionIn(file, text, needle);
      // Schemas in document order, then path templates.
      expect(spec.faults.map(formatSourceIssue)).toEqual([
        `${where('123')} paths./codes.get.parameters[0].schema.pattern: must be a string`,
        where('5 } } }') +
          ' paths./codes.get.responses[200].content.application/json.schema.properties.code.pattern: must be a string',
        `${where('xmlns')} components.schemas.Thing.xml: holds a member that an XML object does not define (name, namespace, prefix, attribute, wrapped; an extension starts x-)`,
        `${where("'8'")} components.schemas.Thing.properties.code.maxLength: must be a whole number, 0 or more`,
        `${where('/things/{thing-id}')} paths./things/{thing-id}: {thing-id} names a parameter with - or ~, outside RFC 6570 level 1 (letters, digits, _ and inner dots)`,
      ]);
      const codes = spec.dereferenced.paths?.['/codes']?.get?.parameters?.[0];
      expect(codes).toMatchObject({ schema: { type: 'string' } });
      expect(codes).not.toHaveProperty('schema.pattern');
      // What /openapi.json serves says what is validated: the same schema.
      expect(spec.document.components?.schemas?.['Thing']).toEqual({
        type: 'object',
        xml: { name: 'thing' },
        properties: { id: { type: 'string' }, code: { type: 'string' } },
      });
    });

    it('warns of each, saying what is served; --strict refuses each', async () => {
      const spec = await loadSpec((await fixtureAs(version)).file);
      expect(faultWarnings(spec.faults).map((issue) => issue.message)).toEqual([
        expect.stringMatching(/; the schema is served without it \(--strict refuses it\)$/),
        expect.stringMatching(/; the schema is served without it \(--strict refuses it\)$/),
        expect.stringMatching(/; ignored \(--strict refuses it\)$/),
        expect.stringMatching(/; the schema is served without it \(--strict refuses it\)$/),
        expect.stringMatching(
          /; served, the parameter read under this name \(--strict refuses it\)$/,
        ),
      ]);
      expect(() => readDeclarations(spec)).not.toThrow();
      const refusal = (() => {
        try {
          readDeclarations(spec, { strict: true });
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      if (!(refusal instanceof SourceError)) throw new Error('--strict did not refuse the spec');
      const refused = refusal.issues.filter((issue) =>
        issue.message.includes('--strict refuses it'),
      );
      expect(refused.map(({ field }) => field)).toEqual([
        'paths./codes.get.parameters[0].schema.pattern',
        'paths./codes.get.responses[200].content.application/json.schema.properties.code.pattern',
        'components.schemas.Thing.xml',
        'components.schemas.Thing.properties.code.maxLength',
        'paths./things/{thing-id}',
      ]);
    });
  },
);

describe('faults that stay refused', () => {
  it.each([
    ['a response without its description', "'200': { content: {} }", /description: is required/],
    [
      'a media type whose schema is no object (a fault of the media type, not inside a schema)',
      "'200': { description: ok, content: { application/json: { schema: string } } }",
      /application\/json\.schema: must be object/,
    ],
  ])('%s', async (_name, response, message) => {
    const file = await written(
      `openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        ${response}\n`,
    );
    const failure = await loadSpec(file).catch((error: unknown) => error);
    if (!(failure instanceof SourceError)) throw new Error('the spec was loaded');
    expect(failure.message).toMatch(message);
  });

  it.each([['{i d}'], ['{a/b}'], ['{a..b}'], ['{a{b}}'], ['{a:b}'], ['{}']])(
    'a path parameter named %s, in any mode',
    async (name) => {
      const file = await written(
        `openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  '/a/${name}':\n    get:\n      responses: { '200': { description: ok } }\n`,
      );
      const spec = await loadSpec(file);
      expect(spec.faults).toEqual([]);
      expect(() => readDeclarations(spec)).toThrow(
        /is not a path parameter a template may name|unmatched \{ or \}/,
      );
    },
  );
});

describe('warnings at start', () => {
  it('tells the first 20 one by one, and counts the rest', async () => {
    const properties = Array.from(
      { length: 25 },
      (_, index) => `        p${String(index)}: { type: string, pattern: ${String(index)} }`,
    ).join('\n');
    const spec = await loadSpec(
      await written(
        `openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths: {}\ncomponents:\n  schemas:\n    S:\n      properties:\n${properties}\n`,
      ),
    );
    expect(spec.faults).toHaveLength(25);
    const told = faultWarnings(spec.faults);
    expect(told).toHaveLength(21);
    expect(told[20]?.message).toBe(
      'and 5 more faults served around (`stockmock validate` names each)',
    );
    expect(strictRefusals(spec.faults)).toHaveLength(25);
  });
});
