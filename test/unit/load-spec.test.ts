import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SourceError } from '../../src/problems/source-error.ts';
import { ADMIN_SPEC, loadSpec, SHIPPED_SPEC } from '../../src/spec/load-spec.ts';
import { MAX_SPEC_BYTES } from '../../src/spec/spec-references.ts';

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

describe('a spec the OpenAPI schema refuses', () => {
  const refused = async (name: string, text: string, extra: Record<string, string> = {}) => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-spec-'));
    for (const [file, content] of Object.entries(extra)) await writeFile(join(dir, file), content);
    const file = join(dir, name);
    await writeFile(file, text);
    const failure: unknown = await loadSpec(file).catch((error: unknown) => error);
    if (!(failure instanceof Error)) throw new Error(`${name} was loaded`);
    return { file, failure };
  };

  it.each(['3.0.3', '3.1.0'])(
    'names the file, the line and the field of each fault, in OpenAPI %s',
    async (version) => {
      const { file, failure } = await refused(
        'spec.yaml',
        `openapi: ${version}\ninfo:\n  title: t\npaths:\n  /a:\n    get:\n      responses:\n        '200': { content: {} }\n`,
      );
      if (!(failure instanceof SourceError)) throw failure;
      const lines = failure.issues.map(
        (issue) => `${String(issue.at?.line)} ${issue.field}: ${issue.message}`,
      );
      // Where `info` begins, which lacks its version; the response lacks its description.
      expect(lines).toContain('3 info.version: is required');
      expect(lines).toContain('8 paths./a.get.responses[200].description: is required');
      expect(failure.issues.every((issue) => issue.file === file)).toBe(true);
    },
  );

  it('accepts what only the written form breaks: a 3.1 path item by $ref, which its schema omits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stockmock-spec-'));
    const file = join(dir, 'spec.yaml');
    await writeFile(
      file,
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a: { $ref: '#/components/pathItems/a' }\ncomponents:\n  pathItems:\n    a:\n      get:\n        responses:\n          '200': { description: ok }\n",
    );
    const loaded = await loadSpec(file);
    expect(loaded.dereferenced.paths?.['/a']?.get?.responses['200']).toEqual({
      description: 'ok',
    });
  });

  it.each([
    ["'#/components/schemas/Missing'", /Token "components" does not exist/],
    ["'./defs.yaml#/Missing'", /Token "Missing" does not exist/],
    ["'./absent.yaml#/X'", /names no file below the spec/],
  ])('names the file, line and pointer of a $ref that leads nowhere: %s', async (ref, why) => {
    const { file, failure } = await refused(
      'spec.yaml',
      `openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: ${ref} }\n`,
      { 'defs.yaml': 'X: { type: string }\n' },
    );
    if (!(failure instanceof SourceError)) throw failure;
    const [issue] = failure.issues;
    expect(issue?.file).toBe(file);
    expect(issue?.at?.line).toBe(11);
    expect(issue?.field).toMatch(/schema\.\$ref$/);
    expect(issue?.message).toContain(ref.slice(1, -1));
    expect(issue?.message).toMatch(why);
  });

  it('still refuses a fault in a file the spec refers to', async () => {
    const { failure } = await refused(
      'spec.yaml',
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    $ref: './path.yaml'\n",
      { 'path.yaml': 'get:\n  responses:\n    "200": { content: {} }\n' },
    );
    expect(failure.message).toMatch(/description/);
  });
});

/** A spec whose one answer's schema is `$ref: reference`. */
function specReferring(reference: string): string {
  return `openapi: 3.1.0
info: { title: refs, version: '1' }
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '${reference}'
`;
}

async function specFolder(reference: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-refs-'));
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, specReferring(reference));
  return { dir, file };
}

const refusal = (file: string) =>
  loadSpec(file).then(
    () => 'loaded',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('members beside a $ref', () => {
  const withSibling = (version: string) => ({
    openapi: version,
    info: { title: 'Siblings', version: '1' },
    paths: {
      '/things': {
        get: {
          parameters: [{ $ref: '#/components/parameters/Tenant', type: 'string' }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: {
      parameters: { Tenant: { name: 'tenant', in: 'header', schema: { type: 'string' } } },
    },
  });

  it('are ignored in OpenAPI 3.0, as it says, and kept in the document served', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'stockmock-spec-')), 'openapi.json');
    await writeFile(file, JSON.stringify(withSibling('3.0.3')));
    const spec = await loadSpec(file);
    expect(spec.dereferenced.paths?.['/things']?.get?.parameters).toStrictEqual([
      { name: 'tenant', in: 'header', schema: { type: 'string' } },
    ]);
    expect(spec.document.paths?.['/things']?.get?.parameters).toStrictEqual([
      { $ref: '#/components/parameters/Tenant', type: 'string' },
    ]);
  });
});

describe('where a local spec’s $refs may lead', () => {
  it('resolves a file below the spec’s own folder, relative to the spec (not to the working directory), whatever its folder is called', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'stockmock-refs-')), 'my specs #1 100%');
    await mkdir(dir);
    const file = join(dir, 'openapi.yaml');
    await writeFile(file, specReferring('schemas/thing.yaml'));
    await mkdir(join(dir, 'schemas'));
    await writeFile(join(dir, 'schemas', 'thing.yaml'), 'type: object\nrequired: [id]\n');
    const loaded = await loadSpec(file);
    const schema = (
      loaded.dereferenced.paths?.['/things']?.get?.responses['200'] as {
        content: Record<string, { schema: unknown } | undefined>;
      }
    ).content['application/json']?.schema;
    expect(schema).toEqual({ type: 'object', required: ['id'] });
  });

  it.each([
    ['/etc/passwd#/x'],
    ['/etc/no-such-file-anywhere#/x'],
    ['/dev/zero'],
    ['../outside.yaml'],
    ['file:///etc/passwd'],
    ['http://169.254.169.254/latest/meta-data'],
  ])('refuses %s unread, and the same way whether or not it exists', async (reference) => {
    const { file } = await specFolder(reference);
    const message = await refusal(file);
    expect(message).toMatch(/\$ref: ".*": (is not below|a local spec resolves only files below)/);
    expect(message).not.toMatch(/root:|Token|does not exist|ENOENT/);
  });

  it('refuses a link below the folder that leads out of it', async () => {
    const { dir, file } = await specFolder('thing.yaml');
    await symlink('/etc/passwd', join(dir, 'thing.yaml'));
    expect(await refusal(file)).toMatch(/\$ref: ".*thing\.yaml": leads out of .* through a link/);
  });

  it('refuses a FIFO below the folder at once, without waiting for a writer', async () => {
    const { dir, file } = await specFolder('thing.yaml');
    execFileSync('mkfifo', [join(dir, 'thing.yaml')]);
    expect(await refusal(file)).toMatch(/\$ref: ".*thing\.yaml": is not a regular file/);
  });
});

describe('a spec fetched from a URL', () => {
  async function serve(body: Buffer, headers: Record<string, string> = {}) {
    const server = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'application/yaml', ...headers }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${String(port)}/openapi.yaml`, close: () => server.close() };
  }

  it.each([['/dev/zero'], ['/etc/passwd#/x'], ['other.yaml'], ['file:///etc/hostname']])(
    'resolves no reference outside itself: %s',
    async (reference) => {
      const served = await serve(Buffer.from(specReferring(reference)));
      try {
        expect(await refusal(served.url)).toMatch(
          /\$ref: ".*": a spec fetched from a URL resolves only references inside itself/,
        );
      } finally {
        served.close();
      }
    },
  );

  it('is refused past its size once decoded, as it arrives', async () => {
    const served = await serve(gzipSync(Buffer.alloc(MAX_SPEC_BYTES + 1, ' ')), {
      'content-encoding': 'gzip',
    });
    try {
      expect(await refusal(served.url)).toBe(
        `${served.url} sent more than ${String(MAX_SPEC_BYTES)} bytes, not a spec`,
      );
    } finally {
      served.close();
    }
  });
});
