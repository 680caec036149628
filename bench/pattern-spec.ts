/**
 * @module What a spec's patterns cost at start: the warehouses example plus N operations
 * answered from examples, each with a query parameter of its own `pattern` (kinds real specs
 * write: codes, slugs, dates; with BENCH_PATTERN_KIND=mixed, one lookahead in ten), timed for `stockmock serve` to its first
 * `/healthz` answer, against the build at BENCH_PREVIOUS when given, in alternating runs.
 *
 * `npm run bench:patterns` (`BENCH_PATTERNS=1000`, `BENCH_PATTERN_RUNS=7`,
 * `BENCH_PREVIOUS=<root of another build>`); the medians go to stdout as a Markdown table.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { freePort } from './free-port.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const example = join(root, 'examples', 'warehouses');
const count = Number(process.env['BENCH_PATTERNS'] ?? '1000');
const runs = Number(process.env['BENCH_PATTERN_RUNS'] ?? '7');
const previous = process.env['BENCH_PREVIOUS'];
// `mixed`: one pattern in ten a lookahead, which start names with its line.
const mixed = process.env['BENCH_PATTERN_KIND'] === 'mixed';

/** The n-th pattern: each distinct, of the shapes real specs hold. */
function patternOf(n: number): string {
  switch (n % 10) {
    case 0:
      return mixed
        ? `^(?=.*\\d)[a-z0-9]{${String(4 + (n % 7))},}$`
        : `^[a-z0-9]{${String(4 + (n % 7))},}-${String(n)}$`;
    case 1:
      return `^[A-Z]{2}\\d{${String(2 + (n % 9))}}$`;
    case 2:
      return `^[a-z0-9]+(-[a-z0-9]+)*-${String(n)}$`;
    case 3:
      return `^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2})?$|^n${String(n)}$`;
    default:
      return `^p${String(n)}_[\\w.-]{1,${String(10 + (n % 50))}}$`;
  }
}

async function specOf(): Promise<string> {
  const document = parse(await readFile(join(example, 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, unknown>;
  };
  for (let n = 0; n < count; n++) {
    document.paths[`/v1/patterned/${String(n)}`] = {
      get: {
        operationId: `patterned${String(n)}`,
        security: [],
        parameters: [
          { name: 'code', in: 'query', schema: { type: 'string', pattern: patternOf(n) } },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { example: { n } } },
          },
        },
      },
    };
  }
  return stringify(document, { aliasDuplicateObjects: false });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function serveMs(build: string, spec: string, config: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(build, 'bin', 'stockmock.js'),
      'serve',
      '--config',
      config,
      '--spec',
      spec,
      '--port',
      String(port),
    ],
    { stdio: 'ignore', cwd: build },
  );
  try {
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${String(port)}/healthz`).catch(() => undefined);
      if (answer?.status === 200) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`serve (${build}) ended before it answered`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'stockmock-pattern-spec-'));
try {
  const config = join(dir, 'stockmock.config.yaml');
  await writeFile(
    config,
    `fixtures: ${join(example, 'warehouses.yaml')}\nloadCache: false\nlogLevel: warn\ntokens:\n  - { token: public-demo-token, level: public }\n`,
  );
  const spec = join(dir, 'openapi.yaml');
  await writeFile(spec, await specOf());
  const builds = previous === undefined ? [root] : [root, previous];
  const times = new Map<string, number[]>(builds.map((build) => [build, []]));
  // Alternating, after one start of each to warm the disk cache and the compile cache.
  for (const build of builds) await serveMs(build, spec, config);
  for (let run = 0; run < runs; run++) {
    for (const build of run % 2 === 0 ? builds : [...builds].reverse()) {
      times.get(build)?.push(await serveMs(build, spec, config));
    }
  }
  console.log(
    `| build | patterns${mixed ? ' (one in ten a lookahead)' : ''} | serve, to the first answer (median of ${String(runs)}) |`,
  );
  console.log('|---|---:|---:|');
  for (const build of builds) {
    const label = build === root ? 'this' : 'previous';
    console.log(
      `| ${label} | ${String(count)} | ${median(times.get(build) ?? []).toFixed(0)} ms |`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
