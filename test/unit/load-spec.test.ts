import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SourceError } from '../../src/problems/source-error.ts';
import { ADMIN_SPEC, loadSpec, SHIPPED_SPEC } from '../../src/spec/load-spec.ts';

describe('loadSpec', () => {
  it('reads each shipped spec as `yaml` does', async () => {
    for (const file of [SHIPPED_SPEC, ADMIN_SPEC]) {
      const loaded = await loadSpec(file);
      expect(loaded.document).toEqual(parse(await readFile(file, 'utf8')));
    }
  });

  it('reports a YAML syntax error with the file and its line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-spec-'));
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'openapi: 3.1.0\ninfo:\n  title: [unclosed\n  version: "1"\npaths: {}\n');
    const failure = await loadSpec(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SourceError);
    const [issue] = (failure as SourceError).issues;
    expect(issue?.file).toBe(file);
    expect(issue?.at?.line).toBeGreaterThanOrEqual(3);
  });
});
