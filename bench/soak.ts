/**
 * `npm run soak`: a tester's minute of churn, as a script.
 *
 * Starts `stockmock serve --watch` (the built package) on a fixture of SOAK_PRODUCTS products in
 * a temporary folder, then for SOAK_SECONDS, at once:
 * - SOAK_CONNECTIONS clients ask for lists, filters and single products, over kept-alive
 *   connections, each answer checked;
 * - a writer rewrites the fixture every second, half the time by renaming a new file over it
 *   (an editor's save), half the time in place, pausing midway through each write,
 *   with two valid variants taking turns and every fifth write invalid (its last line bad);
 * - the admin API asks for a reload every 3 s, and SIGHUP every 5 s;
 * - a probe on a connection of its own asks for /healthz every 20 ms: its longest wait is the
 *   longest stall of the server's event loop, give or take the queue of one request;
 * - the server's RSS is read every second, and once more after it has been idle for 15 s;
 *   bench/loop-monitor.ts, loaded into the server, reports its event loop's longest delay.
 *
 * Every answer is judged: a 5xx, a time-out (10 s), a page whose items come from both variants
 * (mixed), and a list that does not hold the whole catalogue (half-written) are counted.
 * Traffic stays on loopback; every loop is bounded by the duration.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const ADMIN_TOKEN = 'soak-admin-token';
const TOKEN = 'soak-quantity-token';
/** Each variant gives every product one quantity, so a page of both is seen at once. */
const VARIANTS = [5, 7] as const;
const PAGE = 100;
/** How long the server is left idle before its RSS is read the last time. */
const IDLE_SECONDS = 30;

export interface SoakOptions {
  readonly seconds: number;
  readonly products: number;
  readonly connections: number;
  /** How long the server is left idle before its RSS is read the last time; default 15 s. */
  readonly idleSeconds?: number;
  /** Printed as the run goes; silent when not given. */
  readonly log?: (line: string) => void;
}

export interface SoakReport {
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly timeouts: number;
  /** Failed requests other than time-outs: resets, refused connections. */
  readonly errors: number;
  readonly mixed: number;
  readonly halfWritten: number;
  /** The longest delay of the server's event loop, measured inside it (bench/loop-monitor.ts). */
  readonly longestStallMs: number;
  /**
   * The same once the load has ended: the memory reducer's collection runs then
   * (util/idle-memory-return.ts), when no request waits on it.
   */
  readonly longestIdleStallMs: number;
  /** The longest wait of the /healthz probe: the stall, plus queueing and CPU contention. */
  readonly longestProbeMs: number;
  /** Admin API reloads: swapped, or refused (an invalid write, a file that kept changing). */
  readonly reloads: { readonly ok: number; readonly refused: number };
  /** The variants that answers came from: both, once reloads swap data under the load. */
  readonly variantsServed: readonly number[];
  readonly writes: number;
  /** Of the writes, those made by renaming a new file over the fixture. */
  readonly renames: number;
  /** How often the served catalogue changed variant, as one client saw it in time order. */
  readonly switches: number;
  /** RSS in MB: after the first load, the highest seen, at the end, and after the idle time. */
  readonly rssMb: {
    readonly first: number;
    readonly highest: number;
    readonly end: number;
    readonly idle: number;
  };
  /** Every second: seconds since the start and RSS in MB. */
  readonly rssSeries: readonly (readonly [number, number])[];
  /** Every second of the idle time: seconds since the load stopped and RSS in MB. */
  readonly idleSeries: readonly (readonly [number, number])[];
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'stockmock-soak-'));
  const fixture = join(dir, 'products.yaml');
  await writeFile(fixture, fixtureText(options.products, VARIANTS[0], false));
  await writeFile(
    join(dir, 'stockmock.config.yaml'),
    [
      'fixtures: products.yaml',
      'logLevel: warn',
      // The writer pauses 200 ms midway: a window above that keeps half files out.
      'reloadSettleMs: 500',
      'tokens:',
      `  - { token: ${TOKEN}, level: quantity }`,
      `admin: { token: ${ADMIN_TOKEN} }`,
      '',
    ].join('\n'),
  );
  const server = await startServer(dir);
  const counts = {
    requests: 0,
    timeouts: 0,
    errors: 0,
    mixed: 0,
    halfWritten: 0,
    writes: 0,
    renames: 0,
    switches: 0,
    reloadsOk: 0,
    reloadsRefused: 0,
  };
  const statuses: Record<string, number> = {};
  const variantsServed = new Set<number>();
  const rssSeries: [number, number][] = [];
  let longestProbeMs = 0;
  // Start-up's own work (loading modules, the first load) is not a stall of serving: the
  // monitor's reports start to count two seconds after the server first answers.
  await pause(2000);
  const servingFrom = server.monitor.length;
  const longestStall = (from = servingFrom, to = server.monitor.length): number =>
    Math.max(0, ...server.monitor.slice(from, to).map((line) => line['loop-delay-ms']));
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const running = (): boolean => Date.now() < deadline;
  const firstRss = rssMb(server.pid);
  log(`serving ${String(options.products)} products at ${server.url}, RSS ${String(firstRss)} MB`);

  const get = async (path: string, token = TOKEN): Promise<Response | undefined> => {
    counts.requests += 1;
    try {
      const response = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      const key = String(response.status);
      statuses[key] = (statuses[key] ?? 0) + 1;
      return response;
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') counts.timeouts += 1;
      else counts.errors += 1;
      return undefined;
    }
  };

  const client = async (): Promise<void> => {
    for (let i = 0; running(); i++) {
      const kind = i % 4;
      const page = 1 + Math.floor(Math.random() * (options.products / PAGE));
      const path =
        kind === 0
          ? `/v1/stock?limit=${String(PAGE)}&page=${String(page)}`
          : kind === 1
            ? `/v1/stock?status=available&limit=${String(PAGE)}`
            : kind === 2
              ? `/v1/products?limit=20&page=${String(page)}`
              : `/v1/stock/${String(1 + Math.floor(Math.random() * options.products))}`;
      const response = await get(path);
      if (response === undefined) continue;
      const body: unknown = await response.json();
      if (response.status !== 200) continue;
      if (kind === 3) continue;
      const list = body as ListBody;
      judgePage(list, kind === 2, options.products, counts);
      if (kind !== 2) for (const item of list.data) variantsServed.add(item.quantity ?? -1);
    }
  };

  const writer = async (): Promise<void> => {
    for (let n = 1; running(); n++) {
      const invalid = n % 5 === 0;
      const text = fixtureText(options.products, VARIANTS[n % 2] as number, invalid);
      if (n % 4 < 2) {
        // Half the saves as an editor makes them: a new file renamed over the old.
        const next = join(dir, '.products.yaml.tmp');
        await writeFile(next, text);
        await rename(next, fixture);
        counts.renames += 1;
      } else {
        // In place, in two parts with a pause between, as a slow writer or a big copy does.
        const handle = await open(fixture, 'w');
        // At a line's end: the first part alone is then valid YAML with 60 % of the products.
        const cut = text.indexOf('\n', Math.floor(text.length * 0.6)) + 1;
        await handle.write(text.slice(0, cut));
        await pause(200);
        await handle.write(text.slice(cut));
        await handle.close();
      }
      counts.writes += 1;
      await pause(800);
    }
  };

  // The variant served, seen by one client in time order: each change is a switch.
  const switchWatch = async (): Promise<void> => {
    let seen: number | null | undefined;
    while (running()) {
      try {
        const response = await fetch(`${server.url}/v1/stock?limit=1`, {
          headers: { authorization: `Bearer ${TOKEN}` },
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await response.json()) as ListBody;
        const variant = body.data[0]?.quantity;
        if (seen !== undefined && variant !== seen) counts.switches += 1;
        seen = variant;
      } catch {
        // Counted by the clients; this one only watches the data.
      }
      await pause(50);
    }
  };

  const adminReloads = async (): Promise<void> => {
    while (running()) {
      await pause(3000);
      if (!running()) break;
      try {
        const response = await fetch(`${server.url}/__admin/reload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          signal: AbortSignal.timeout(40_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) counts.reloadsOk += 1;
        else counts.reloadsRefused += 1;
      } catch {
        counts.errors += 1;
      }
    }
  };

  const hangups = async (): Promise<void> => {
    while (running()) {
      await pause(5000);
      if (running()) server.child.kill('SIGHUP');
    }
  };

  const probe = async (): Promise<void> => {
    while (running()) {
      const sent = performance.now();
      try {
        const response = await fetch(`${server.url}/healthz`, {
          signal: AbortSignal.timeout(10_000),
        });
        const health = (await response.json()) as { products: number };
        if (health.products !== options.products) counts.halfWritten += 1;
      } catch {
        counts.timeouts += 1;
      }
      longestProbeMs = Math.max(longestProbeMs, performance.now() - sent);
      await pause(20);
    }
  };

  const memory = async (): Promise<void> => {
    while (running()) {
      await pause(1000);
      const seconds = Math.round((Date.now() - started) / 1000);
      rssSeries.push([seconds, rssMb(server.pid)]);
      if (seconds % 10 === 0) {
        log(
          `${String(seconds)} s: ${String(counts.requests)} requests, RSS ${String(rssMb(server.pid))} MB (${describeMemory(server.monitor.at(-1))}), longest stall ${longestStall().toFixed(0)} ms, longest probe ${longestProbeMs.toFixed(0)} ms`,
        );
      }
    }
  };

  try {
    await Promise.all([
      ...Array.from({ length: options.connections }, client),
      writer(),
      switchWatch(),
      adminReloads(),
      hangups(),
      probe(),
      memory(),
    ]);
    const end = rssMb(server.pid);
    const idleFrom = server.monitor.length;
    // Idle: no requests, no writes; the last writes settle and reload, then nothing happens.
    const idleSeries: [number, number][] = [];
    for (let second = 1; second <= (options.idleSeconds ?? IDLE_SECONDS); second++) {
      await pause(1000);
      idleSeries.push([second, rssMb(server.pid)]);
    }
    const idle = rssMb(server.pid);
    return {
      requests: counts.requests,
      statuses,
      timeouts: counts.timeouts,
      errors: counts.errors,
      mixed: counts.mixed,
      halfWritten: counts.halfWritten,
      longestStallMs: Math.round(longestStall(servingFrom, idleFrom)),
      longestIdleStallMs: Math.round(longestStall(idleFrom)),
      longestProbeMs: Math.round(longestProbeMs),
      reloads: { ok: counts.reloadsOk, refused: counts.reloadsRefused },
      variantsServed: [...variantsServed].sort((a, b) => a - b),
      writes: counts.writes,
      renames: counts.renames,
      switches: counts.switches,
      rssMb: {
        first: firstRss,
        highest: Math.max(firstRss, ...rssSeries.map(([, mb]) => mb)),
        end,
        idle,
      },
      rssSeries,
      idleSeries,
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

interface ListBody {
  readonly data: readonly (StockItem & { readonly name?: string })[];
  readonly links: { readonly last: string };
}

interface StockItem {
  readonly quantity?: number | null;
  readonly name?: string;
}

/** A page is mixed if its items come from both variants, half-written if the list is short. */
function judgePage(
  body: ListBody,
  products: boolean,
  size: number,
  counts: { mixed: number; halfWritten: number },
): void {
  const variants = new Set(
    body.data.map((item) => (products ? item.name?.split(' ')[0] : item.quantity)),
  );
  if (variants.size > 1) counts.mixed += 1;
  const last = new URL(body.links.last).searchParams;
  const limit = Number(last.get('limit'));
  const pages = Number(last.get('page'));
  // The status filter keeps every product (all in stock): its list is the whole catalogue too.
  if (pages !== Math.ceil(size / limit)) counts.halfWritten += 1;
}

/**
 * The fixture in the generator's layout; each variant gives every product one quantity and
 * names that say which variant they are. An invalid one has a negative quantity on its last line.
 */
function fixtureText(size: number, quantity: number, invalid: boolean): string {
  const lines = ['products:'];
  for (let id = 1; id <= size; id++) {
    const bad = invalid && id === size;
    lines.push(
      `  - {"id":${String(id)},"name":"V${String(quantity)} product ${String(id)}","quantity":${String(bad ? -1 : quantity)}}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

interface Served {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** What bench/loop-monitor.ts reports from inside the server, a line a second. */
  readonly monitor: readonly MonitorLine[];
}

interface MonitorLine {
  readonly 'loop-delay-ms': number;
  readonly rss: number;
  readonly heap: number;
  readonly external: number;
  readonly buffers: number;
}

/** Starts the built server on a free port and waits until it answers (it logs nothing at warn). */
async function startServer(dir: string): Promise<Served> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(root, 'bench/loop-monitor.ts'),
      join(root, 'bin/stockmock.js'),
      ...['serve', '--watch', '--port', String(port)],
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  const monitor: MonitorLine[] = [];
  child.stderr.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      const fields = /^stockmock-soak (.*)$/.exec(line)?.[1];
      if (fields === undefined) errors += line;
      else
        monitor.push(
          Object.fromEntries(
            fields.split(' ').map((field) => {
              const [name = '', value = ''] = field.split('=');
              return [name, Number(value)];
            }),
          ) as unknown as MonitorLine,
        );
    }
  });
  const url = `http://127.0.0.1:${String(port)}`;
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error(`stockmock exited before listening:\n${errors}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, pid: child.pid ?? 0, child, monitor };
    } catch {
      // Not listening yet.
    }
    await pause(100);
  }
  child.kill('SIGTERM');
  throw new Error(`stockmock did not answer within a minute:\n${errors}`);
}

function describeMemory(line: MonitorLine | undefined): string {
  return line === undefined
    ? 'no report yet'
    : `V8 heap ${String(line.heap)} MB, external ${String(line.external)} MB`;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Run as a script: `npm run soak` (SOAK_SECONDS, SOAK_PRODUCTS, SOAK_CONNECTIONS,
// SOAK_IDLE_SECONDS).
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runSoak({
    seconds: Number(process.env['SOAK_SECONDS'] ?? 60),
    products: Number(process.env['SOAK_PRODUCTS'] ?? 100_000),
    connections: Number(process.env['SOAK_CONNECTIONS'] ?? 32),
    idleSeconds: Number(process.env['SOAK_IDLE_SECONDS'] ?? IDLE_SECONDS),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const { rssSeries, idleSeries, ...summary } = report;
  const series = (points: readonly (readonly [number, number])[]) =>
    points.map(([s, mb]) => `${String(s)}: ${String(mb)}`).join(', ');
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`RSS over time (s: MB): ${series(rssSeries)}\n`);
  process.stdout.write(`RSS once idle (s: MB): ${series(idleSeries)}\n`);
}
