import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, loadConfig } from '../../src/config/load-config.ts';
import { SourceError } from '../../src/problems/source-error.ts';

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-config-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
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
      'stockmock.config.yaml': 'port: 4010\ntokens:\n  - token: abc\n    level: admin\n',
    });
    const error = await refusal(loadConfig({ cwd, env: {} }));
    expect(error.issues[0]).toMatchObject({
      file: join(cwd, 'stockmock.config.yaml'),
      at: { line: 4 },
      field: 'tokens[0].level',
    });
  });

  it('refuses an unknown key in the file, naming it', async () => {
    const cwd = await folderWith({ 'stockmock.config.yaml': 'prot: 4010\n' });
    expect((await refusal(loadConfig({ cwd, env: {} }))).issues[0]).toMatchObject({
      at: { line: 1 },
      field: 'prot',
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
});
