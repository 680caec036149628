/**
 * @module How start-up grows with the size of a spec: the warehouses example with its list and
 * item copied N times (each pair a new path and operationIds, every one declared), timed for
 * `stockmock validate` and for `stockmock serve` to its first `/healthz` answer.
 *
 * `npm run bench:spec` (`BENCH_SPEC_PAIRS=500,2500,5000`, `BENCH_SPEC_RUNS=3`); the medians go
 * to stdout as a Markdown table.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { freePort } from './free-port.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const example = join(root, 'examples', 'warehouses');
const cli = join(root, 'bin', 'stockmock.js');
const pairsList = (process.env['BENCH_SPEC_PAIRS'] ?? '500,2500,5000').split(',').map(Number);
const runs = Number(process.env['BENCH_SPEC_RUNS'] ?? '3');

type Operation = Record<string, unknown>;
type PathItem = Record<string, Operation>;

/** The example's spec with its list and item copied `pairs` times. */
async function specOf(pairs: number): Promise<string> {
  const document = parse(await readFile(join(example, 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, PathItem>;
  };
  const { '/v1/warehouses': list, '/v1/warehouses/{id}': item, ...others } = document.paths;
  if (list === undefined || item === undefined) throw new Error('the example has changed');
  const copy = (pathItem: PathItem, n: number): PathItem => ({
    get: {
      ...pathItem['get'],
      operationId: `${String(pathItem['get']?.['operationId'])}${String(n)}`,
    },
  });
  const paths: Record<string, PathItem> = {};
  for (let n = 0; n < pairs; n++) {
    paths[`/v1/w${String(n)}/warehouses`] = copy(list, n);
    paths[`/v1/w${String(n)}/warehouses/{id}`] = copy(item, n);
  }
  return stringify(
    { ...document, paths: { ...paths, ...others } },
    { aliasDuplicateObjects: false },
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function validateMs(spec: string, config: string): number {
  const started = performance.now();
  const args = [cli, 'validate', '--config', config, '--spec', spec];
  const done = spawnSync(process.execPath, args, { cwd: dirname(config) });
  if (done.status !== 0) throw new Error(`validate failed: ${done.stdout.toString()}`);
  return performance.now() - started;
}

async function serveMs(spec: string, config: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--config', config, '--spec', spec, '--port', String(port)],
    { stdio: 'ignore', cwd: dirname(config) },
  );
  try {
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${String(port)}/healthz`).catch(() => undefined);
      if (answer?.status === 200) return performance.now() - started;
      if (child.exitCode !== null) throw new Error('serve ended before it answered');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'stockmock-large-spec-'));
try {
  const config = join(dir, 'stockmock.config.yaml');
  await writeFile(
    config,
    `fixtures: ${join(example, 'warehouses.yaml')}\nloadCache: false\nlogLevel: warn\ntokens:\n  - { token: public-demo-token, level: public }\n`,
  );
  console.log(
    '| operations | spec | validate | serve, to the first answer | serve per operation |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  for (const pairs of pairsList) {
    const spec = join(dir, `openapi-${String(pairs)}.yaml`);
    await writeFile(spec, await specOf(pairs));
    const operations = pairs * 2;
    const validate = median(Array.from({ length: runs }, () => validateMs(spec, config)));
    const serves: number[] = [];
    for (let run = 0; run < runs; run++) serves.push(await serveMs(spec, config));
    const serve = median(serves);
    const megabytes = (await stat(spec)).size / 1024 / 1024;
    console.log(
      `| ${String(operations)} | ${megabytes.toFixed(1)} MB | ${(validate / 1000).toFixed(2)} s | ${(serve / 1000).toFixed(2)} s | ${(serve / operations).toFixed(2)} ms |`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
