import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, loadConfig } from '../../src/config/load-config.ts';
import { SourceError } from '../../src/problems/source-error.ts';

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-config-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

async function refusal(promise: Promise<unknown>): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('loadConfig', () => {
  it('gives the built-in defaults without any file: shipped data, demo tokens, port 4010', async () => {
    const config = await loadConfig({ cwd: await folderWith({}), env: {} });
    expect(config).toEqual(DEFAULTS);
    expect(config.tokens.map((grant) => grant.level)).toEqual(['status', 'quantity']);
    expect(Object.isFrozen(config.tokens[0])).toBe(true);
  });

  it('layers defaults < file < environment < flags', async () => {
    const cwd = await folderWith({
      'stockmock.config.yaml': 'port: 5000\nhost: 0.0.0.0\nlogLevel: warn\n',
    });
    expect((await loadConfig({ cwd, env: {} })).port).toBe(5000);
    expect((await loadConfig({ cwd, env: { PORT: '5001' } })).port).toBe(5001);
    expect((await loadConfig({ cwd, env: { PORT: '5001', STOCKMOCK_PORT: '5002' } })).port).toBe(
      5002,
    );
    const flagged = await loadConfig({
      cwd,
      env: { STOCKMOCK_PORT: '5002' },
      flags: { port: 5003 },
    });
    expect(flagged).toMatchObject({ port: 5003, host: '0.0.0.0', logLevel: 'warn' });
  });

  it('resolves a config file’s paths against its folder, and --scenario picks the active scenario', async () => {
    const cwd = await folderWith({
      'stockmock.config.yaml': 'fixtures: data/a.yaml\nscenarios:\n  empty: data/empty.yaml\n',
      'data/a.yaml': 'products: []\n',
      'data/empty.yaml': 'products: []\n',
    });
    expect((await loadConfig({ cwd, env: {} })).fixtures).toBe(join(cwd, 'data/a.yaml'));
    const config = await loadConfig({ cwd, env: {}, flags: { scenario: 'empty' } });
    expect(config.scenario).toBe('empty');
    expect(config.scenarios['empty']).toBe(join(cwd, 'data/empty.yaml'));
    expect(config.fixtures).toBe(join(cwd, 'data/a.yaml'));
  });

  it('reads tokens and CORS origins from the environment', async () => {
    const config = await loadConfig({
      cwd: await folderWith({}),
      env: {
        STOCKMOCK_TOKENS: 'status=s1, quantity=q=2',
        STOCKMOCK_CORS_ORIGINS: 'http://a.test,http://b.test',
      },
    });
    expect(config.tokens).toEqual([
      { level: 'status', token: 's1' },
      { level: 'quantity', token: 'q=2' },
    ]);
    expect(config.cors.origins).toEqual(['http://a.test', 'http://b.test']);
  });

  it('refuses a bad config file with file, line and field', async () => {
    const cwd = await folderWith({
      'stockmock.config.yaml': 'port: 4010\ntokens:\n  - token: abc\n    level: "ad min"\n',
    });
    const error = await refusal(loadConfig({ cwd, env: {} }));
    expect(error.issues[0]).toMatchObject({
      file: join(cwd, 'stockmock.config.yaml'),
      at: { line: 4 },
      field: 'tokens[0].level',
    });
  });

  it.each([
    ['at the top', 'port: 4010\nhost: 127.0.0.1\nprot: 4010\n', 3, 'prot', 'port'],
    [
      'in a mapping',
      'port: 4010\ncors:\n  origins: "*"\n  origin: x\n',
      4,
      'cors.origin',
      'origins',
    ],
    ['with a mapping as its value', 'port: 4010\nadmni:\n  token: abcdefgh\n', 2, 'admni', 'admin'],
  ])(
    'refuses a mistyped key %s, at its own line, naming the field meant',
    async (_where, text, line, field, meant) => {
      const cwd = await folderWith({ 'stockmock.config.yaml': text });
      const error = await refusal(loadConfig({ cwd, env: {} }));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]).toMatchObject({
        at: { line },
        field,
        message: `is not a known field (did you mean ${meant}?)`,
      });
    },
  );

  it('never echoes a key that is no typo: a token written as a key, a line of another file', async () => {
    const token = 'quantity-secret-9f8e7d6c5b4a39281706';
    const cwd = await folderWith({
      'stockmock.config.yaml': `port: 4010\ntokens:\n  - ${token}: x\n    level: quantity\nroot:x:0:0:root:/root:/bin/bash:\n`,
    });
    const error = await refusal(loadConfig({ cwd, env: {} }));
    expect(error.issues).toMatchObject([
      {
        at: { line: 5, column: 1 },
        field: '',
        message: expect.stringMatching(
          /^holds a field that is not known here; known: host, port, /,
        ) as string,
      },
      { at: { line: 3 }, field: 'tokens[0].token', message: 'is required' },
      {
        at: { line: 3, column: 5 },
        field: 'tokens[0]',
        message: 'holds a field that is not known here; known: token, level, scheme',
      },
    ]);
    expect(error.message).not.toContain(token);
    expect(error.message).not.toContain('/bin/bash');
  });

  describe('tokens', () => {
    const tokens = (...lines: string[]) => `port: 4010\ntokens:\n${lines.join('\n')}\n`;
    it.each([
      ['at one level', ['status', 'status']],
      ['at two levels', ['status', 'quantity']],
    ])(
      'refuses a token listed twice %s, at the second, without repeating it',
      async (_t, levels) => {
        const cwd = await folderWith({
          'stockmock.config.yaml': tokens(
            '  - token: first-token',
            `    level: ${String(levels[0])}`,
            '  - token: other-token',
            '    level: quantity',
            '  - token: first-token',
            `    level: ${String(levels[1])}`,
          ),
        });
        const error = await refusal(loadConfig({ cwd, env: {} }));
        expect(error.issues).toEqual([
          expect.objectContaining({
            file: join(cwd, 'stockmock.config.yaml'),
            at: { line: 7, column: 12 },
            field: 'tokens[2].token',
          }),
        ]);
        expect(error.message).toContain('tokens[0]');
        expect(error.message).not.toContain('first-token');
      },
    );

    it('refuses a token listed twice in the environment, naming the variable', async () => {
      const error = await refusal(
        loadConfig({
          cwd: await folderWith({}),
          env: { STOCKMOCK_TOKENS: 'status=same-token,quantity=same-token' },
        }),
      );
      expect(error.issues[0]).toMatchObject({
        file: 'environment',
        field: 'STOCKMOCK_TOKENS[1].token',
      });
      expect(error.message).not.toContain('same-token');
    });

    it('refuses an admin token that is also a stock token, at its line, without repeating it', async () => {
      const cwd = await folderWith({
        'stockmock.config.yaml': tokens(
          '  - token: shared-secret',
          '    level: status',
          'admin:',
          '  journalSize: 10',
          '  token: shared-secret',
        ),
      });
      const error = await refusal(loadConfig({ cwd, env: {} }));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]).toMatchObject({ at: { line: 7 }, field: 'admin.token' });
      expect(error.message).not.toContain('shared-secret');
      const fromEnv = await refusal(
        loadConfig({
          cwd: await folderWith({}),
          env: { STOCKMOCK_TOKENS: 'quantity=same-secret', STOCKMOCK_ADMIN_TOKEN: 'same-secret' },
        }),
      );
      expect(fromEnv.issues[0]?.file).toBe('environment');
      expect(fromEnv.issues[0]?.field).toMatch(/^STOCKMOCK_ADMIN_TOKEN/);
    });

    it('refuses an empty token list, at its line', async () => {
      const cwd = await folderWith({ 'stockmock.config.yaml': 'port: 4010\ntokens: []\n' });
      const error = await refusal(loadConfig({ cwd, env: {} }));
      expect(error.issues[0]).toMatchObject({
        at: { line: 2 },
        field: 'tokens',
        message: 'must list at least one',
      });
    });
  });

  describe('files the config names', () => {
    it.each([
      ['the fixtures', 'port: 4010\nfixtures: data/nope.yaml\n', 2, 'fixtures'],
      ['the spec', 'spec: nope/openapi.yaml\n', 1, 'spec'],
      [
        "a scenario's fixtures",
        'port: 4010\nscenarios:\n  empty: data/empty.yaml\n  gone: data/gone.yaml\n',
        4,
        'scenarios.gone',
      ],
    ])(
      'refuses %s missing, with the config file, line and field',
      async (_t, text, line, field) => {
        const cwd = await folderWith({
          'stockmock.config.yaml': text,
          'data/empty.yaml': 'products: []\n',
        });
        const error = await refusal(loadConfig({ cwd, env: {} }));
        expect(error.issues).toHaveLength(1);
        expect(error.issues[0]).toMatchObject({ file: join(cwd, 'stockmock.config.yaml'), field });
        expect(error.issues[0]?.at?.line).toBe(line);
        expect(error.message).toContain('no such file: ');
      },
    );

    it('refuses a folder where a file is named, at its line', async () => {
      const cwd = await folderWith({
        'stockmock.config.yaml': 'port: 4010\nfixtures: data\n',
        'data/empty.yaml': 'products: []\n',
      });
      const error = await refusal(loadConfig({ cwd, env: {} }));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]).toMatchObject({ field: 'fixtures', at: { line: 2 } });
      expect(error.message).toContain(`not a file: ${join(cwd, 'data')}`);
    });

    it('names the variable or the flag that named a missing file', async () => {
      const cwd = await folderWith({});
      const fromEnv = await refusal(loadConfig({ cwd, env: { STOCKMOCK_FIXTURES: 'nope.yaml' } }));
      expect(fromEnv.issues[0]).toMatchObject({ file: 'environment', field: 'STOCKMOCK_FIXTURES' });
      expect(fromEnv.message).toContain(join(cwd, 'nope.yaml'));
      const fromFlag = await refusal(
        loadConfig({ cwd, env: {}, flags: { fixtures: 'nope.yaml' } }),
      );
      expect(fromFlag.issues[0]).toMatchObject({ file: 'command line', field: '--fixtures' });
    });

    it('does not hold a file against a layer whose value a later layer replaced', async () => {
      const cwd = await folderWith({
        'stockmock.config.yaml': 'fixtures: data/nope.yaml\n',
        'data/here.yaml': 'products: []\n',
      });
      const config = await loadConfig({ cwd, env: {}, flags: { fixtures: 'data/here.yaml' } });
      expect(config.fixtures).toBe(join(cwd, 'data/here.yaml'));
    });
  });

  it('refuses a bad environment value, naming the variable', async () => {
    const error = await refusal(
      loadConfig({ cwd: await folderWith({}), env: { STOCKMOCK_PORT: 'http' } }),
    );
    expect(error.issues[0]).toMatchObject({ file: 'environment', field: 'STOCKMOCK_PORT' });
  });

  it('refuses a bad flag, naming the flag', async () => {
    const error = await refusal(
      loadConfig({ cwd: await folderWith({}), env: {}, flags: { port: 70000 } }),
    );
    expect(error.issues[0]).toMatchObject({ file: 'command line', field: '--port' });
  });

  it('refuses an unknown scenario, listing the known ones', async () => {
    const error = await refusal(
      loadConfig({ cwd: await folderWith({}), env: {}, flags: { scenario: 'nope' } }),
    );
    expect(error.message).toContain('unknown scenario "nope"');
  });

  describe('compatibility settings', () => {
    it('each comes from its own environment variable, and a bad value names it', async () => {
      const cwd = await folderWith({});
      const env = {
        STOCKMOCK_ORDER: 'name',
        STOCKMOCK_PAST_THE_END: 'not-found',
        STOCKMOCK_NAME_MATCH: 'case-sensitive',
        STOCKMOCK_ACCEPT: 'ignore',
        STOCKMOCK_PARAMETER_ERRORS: 'omitted',
        STOCKMOCK_LINK_LIMIT: 'always',
        STOCKMOCK_LINK_ENCODING: 'form',
        STOCKMOCK_PROBLEM_TYPES: 'about:blank',
        STOCKMOCK_REALM: 'stock-api',
        STOCKMOCK_UNKNOWN_QUERY_PARAMETERS: 'ignore',
        STOCKMOCK_STOCK_FIELD: 'stock',
      };
      expect((await loadConfig({ cwd, env })).compatibility).toEqual({
        stockField: 'stock',
        productIdType: 'integer',
        unknownQueryParameters: 'ignore',
        pastTheEnd: 'not-found',
        order: 'name',
        nameMatch: 'case-sensitive',
        accept: 'ignore',
        linkLimit: 'always',
        linkEncoding: 'form',
        parameterErrors: 'omitted',
        problemTypes: 'about:blank',
        realm: 'stock-api',
      });
      const error = await refusal(loadConfig({ cwd, env: { STOCKMOCK_ORDER: 'price' } }));
      expect(error.issues).toMatchObject([{ file: 'environment', field: 'STOCKMOCK_ORDER' }]);
    });

    it('a bad value in the file is refused at its line', async () => {
      const cwd = await folderWith({
        'stockmock.config.yaml': 'compatibility:\n  order: id\n  pastTheEnd: sideways\n',
      });
      const error = await refusal(loadConfig({ cwd, env: {} }));
      expect(error.issues).toMatchObject([{ field: 'compatibility.pastTheEnd', at: { line: 3 } }]);
      const realm = await folderWith({
        'stockmock.config.yaml': 'compatibility:\n  realm: \'say "hi"\'\n',
      });
      expect((await refusal(loadConfig({ cwd: realm, env: {} }))).issues).toMatchObject([
        { field: 'compatibility.realm', at: { line: 2 } },
      ]);
    });

    it.each(['constructor', 'toString', 'hasOwnProperty'])(
      'a scenario named %s is unknown unless the config declares it, as serve and validate agree',
      async (name) => {
        const cwd = await folderWith({ 'data/empty.yaml': 'products: []\n' });
        const error = await refusal(loadConfig({ cwd, env: {}, flags: { scenario: name } }));
        expect(error.issues).toMatchObject([
          {
            file: 'command line',
            field: '--scenario',
            message: expect.stringContaining(`unknown scenario "${name}"`) as string,
          },
        ]);
        const declared = await folderWith({
          'data/empty.yaml': 'products: []\n',
          'stockmock.config.yaml': `scenarios:\n  ${name}: data/empty.yaml\nscenario: ${name}\n`,
        });
        expect((await loadConfig({ cwd: declared, env: {} })).scenario).toBe(name);
      },
    );

    it('productIdType takes a type per member, and refuses another type at its line', async () => {
      const cwd = await folderWith({
        'stockmock.config.yaml':
          'compatibility:\n  productIdType:\n    product_id: string\n    id: integer\n',
      });
      expect((await loadConfig({ cwd, env: {} })).compatibility.productIdType).toEqual({
        product_id: 'string',
        id: 'integer',
      });
      const bad = await folderWith({
        'stockmock.config.yaml': 'compatibility:\n  productIdType:\n    product_id: uuid\n',
      });
      const error = await refusal(loadConfig({ cwd: bad, env: {} }));
      expect(error.issues[0]).toMatchObject({ at: { line: 3 } });
      expect(error.message).not.toContain('uuid');
    });

    it('unknownQueryParameters at its old place is still read, with a warning at its line', async () => {
      const cwd = await folderWith({
        'stockmock.config.yaml': 'port: 4010\nunknownQueryParameters: ignore\n',
      });
      const warnings: unknown[] = [];
      const config = await loadConfig({ cwd, env: {}, onWarning: (issue) => warnings.push(issue) });
      expect(config.compatibility.unknownQueryParameters).toBe('ignore');
      expect(config).not.toHaveProperty('unknownQueryParameters');
      expect(warnings).toMatchObject([
        {
          field: 'unknownQueryParameters',
          at: { line: 2 },
          message: 'is deprecated: set compatibility.unknownQueryParameters instead',
        },
      ]);
      // The new place wins where both are set.
      const both = await folderWith({
        'stockmock.config.yaml':
          'unknownQueryParameters: ignore\ncompatibility: { unknownQueryParameters: reject }\n',
      });
      const winner = await loadConfig({ cwd: both, env: {}, onWarning: () => undefined });
      expect(winner.compatibility.unknownQueryParameters).toBe('reject');
    });
  });
});
