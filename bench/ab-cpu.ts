/**
 * Two builds and the bare server, CPU per request, in alternating rounds: what a change to the
 * request path costs or saves, without the rest of `npm run bench`.
 *
 * Usage: node bench/ab-cpu.ts ROOT_A ROOT_B, each the root of a built clone (`npm run build`).
 * Settings: AB_SIZE (products, 100000), AB_LOG (warn), AB_LEVEL (quantity), AB_ROUNDS (4),
 * AB_SECONDS (3), AB_WORKLOADS (`status filter;first page;single product`, separated by `;`).
 * With AB_PERF=A or B, it records that server with `perf record -g` instead of measuring, one
 * file a workload in the scratch folder, for `perf script`; AB_NODE_FLAGS are given to both
 * servers' node (`--perf-basic-prof` names the JIT-compiled functions in the samples).
 *
 * A round measures A then B, and the next B then A, so that neither is always first; the bare
 * server answers the body A gave for the workload's first path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_HEADER, formatFixtureLine } from '../src/generate/format-fixture.ts';
import { generateProducts } from '../src/generate/generate-products.ts';
import { seededRandom } from '../src/util/seeded-random.ts';
import { freePort } from './free-port.ts';
import { prepareLoad, type Load } from './wrk.ts';

const [rootA, rootB] = process.argv.slice(2);
if (rootA === undefined || rootB === undefined) throw new Error('usage: ab-cpu.ts ROOT_A ROOT_B');
const setting = (name: string, fallback: string) => process.env[name] ?? fallback;
const size = Number(setting('AB_SIZE', '100000'));
const log = setting('AB_LOG', 'warn');
const level = setting('AB_LEVEL', 'quantity');
const rounds = Number(setting('AB_ROUNDS', '4'));
const seconds = Number(setting('AB_SECONDS', '3'));
const perf = process.env['AB_PERF'];
const nodeFlags = (process.env['AB_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== '');
const here = fileURLToPath(new URL('./', import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), 'stockmock-ab-'));
const token = `ab-${level}-token-0123456789`;

const fixture = join(scratch, 'products.yaml');
const lines = [FIXTURE_HEADER];
for (const product of generateProducts({ count: size, seed: 1 })) {
  lines.push(formatFixtureLine(product));
}
await writeFile(fixture, lines.join(''));
const config = join(scratch, 'config.yaml');
await writeFile(
  config,
  `fixtures: ${fixture}\nlogLevel: ${log}\ntokens:\n  - { token: ${token}, level: ${level} }\n`,
);

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
}

/** A million products load in seconds; a server that has not answered in two minutes will not. */
const START_DEADLINE_MS = 120_000;

/** A server started with the arguments made for its port, once it answers /healthz. */
async function started(argsFor: (port: string) => readonly string[]): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, argsFor(String(port)), {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, STOCKMOCK_LOAD_CACHE: 'false' },
  });
  // However this run ends, no server outlives it.
  process.on('exit', () => child.kill());
  const url = `http://127.0.0.1:${String(port)}`;
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    const up = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error(`${argsFor(String(port)).join(' ')} did not answer /healthz`);
}

const serverOf = (root: string) =>
  started((port) => [
    ...nodeFlags,
    join(root, 'bin/stockmock.js'),
    ...['serve', '--config', config, '--port', port],
  ]);
const a = await serverOf(rootA);
const b = await serverOf(rootB);

const random = seededRandom(7);
const statuses = ['available', 'incoming', 'on_request', 'out_of_stock'];
const statusPaths: string[] = [];
for (const status of statuses) {
  const response = await fetch(`${a.url}/v1/stock?status=${status}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { links } = (await response.json()) as { links: { last: string } };
  const pages = Number(new URL(links.last).searchParams.get('page'));
  for (let n = 0; n < 2_500; n++) {
    statusPaths.push(`/v1/stock?status=${status}&page=${String(1 + Math.floor(random() * pages))}`);
  }
}
const workloads: Readonly<Record<string, readonly string[]>> = {
  'status filter': statusPaths,
  'first page': ['/v1/stock'],
  'single product': Array.from(
    { length: Math.min(size, 100_000) },
    () => `/v1/stock/${String(1 + Math.floor(random() * size))}`,
  ),
};

const options = { connections: 32, seconds, scratch };
const pidOf = (server: Server) => server.child.pid ?? 0;
for (const name of setting('AB_WORKLOADS', 'status filter;first page;single product').split(';')) {
  const paths = workloads[name];
  if (paths === undefined) throw new Error(`No workload is named ${name}`);
  const body = await (
    await fetch(`${a.url}${paths[0] ?? ''}`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const bodies = join(scratch, 'bodies.json');
  await writeFile(bodies, JSON.stringify([body]));
  const bare = await started((port) => [
    join(here, 'bare-server.ts'),
    bodies,
    port,
    ...(log === 'info' ? ['--log'] : []),
  ]);
  const loadA = await prepareLoad(a.url, { paths, token }, pidOf(a), options);
  const loadB = await prepareLoad(b.url, { paths, token }, pidOf(b), options);
  const loadBare = await prepareLoad(bare.url, { paths: ['/0'] }, pidOf(bare), options);
  for (const load of [loadA, loadB, loadBare]) await load.run(2);
  if (perf === 'A' || perf === 'B') {
    await recorded(perf === 'A' ? a : b, perf === 'A' ? loadA : loadB, name);
  } else {
    const cpu: Record<'A' | 'B' | 'bare', number[]> = { A: [], B: [], bare: [] };
    for (let round = 0; round < rounds; round++) {
      const order: ['A' | 'B', Load][] = [
        ['A', loadA],
        ['B', loadB],
      ];
      if (round % 2 === 1) order.reverse();
      for (const [which, load] of [...order, ['bare', loadBare] as const]) {
        cpu[which].push((await load.measure()).cpuMicrosPerRequest);
      }
    }
    const shown = (values: readonly number[]) => values.map((value) => value.toFixed(1)).join(', ');
    console.log(
      `${name} (${log}, ${level}), CPU µs a request: A ${shown(cpu.A)} | B ${shown(cpu.B)} | bare ${shown(cpu.bare)}`,
    );
  }
  bare.child.kill();
}
a.child.kill();
b.child.kill();
if (perf === undefined) await rm(scratch, { recursive: true, force: true });

async function recorded(server: Server, load: Load, name: string): Promise<void> {
  const file = join(scratch, `perf-${name.replaceAll(' ', '-')}.data`);
  const recorder = spawn(
    'perf',
    ['record', '-F', '1999', '-g', '-p', String(pidOf(server)), '-o', file],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  await load.run(seconds);
  recorder.kill('SIGINT');
  await new Promise((resolve) => recorder.on('exit', resolve));
  console.log(`${name}: ${file}`);
}
