/**
 * `npm run bench`: stockmock against a bare Fastify server, measured in the same run.
 *
 * For each catalogue size it starts stockmock and a bare server that answers a precomputed body of
 * the size of a stockmock page, drives both with wrk (same connections, duration and warm-up), and
 * reports req/s, p50, p99 and the ratio to the bare server; then start-up time and memory.
 * Absolute numbers drift on shared machines; the ratios are what to compare between runs.
 *
 * Each workload is measured in rounds that alternate the bare server and stockmock, so both see
 * the same machine: on shared machines throughput drifts by a third within a minute, and the
 * ratio of two runs taken minutes apart would say more about the neighbours than about stockmock.
 * A row reports the medians over its rounds. Before the first row, every workload runs for a
 * second, so that the JIT has seen all code paths.
 *
 * Each workload has two rows: at the default `logLevel: info` against a bare Fastify that logs
 * its requests at info into the same kind of sink (both write to a discarded standard output),
 * and at `warn` against a bare Fastify without a logger. Single ids, name needles and pages are
 * drawn from the whole catalogue, as real clients ask, not from a hot set.
 *
 * Settings (environment): BENCH_SIZES (default 1000,100000,1000000), BENCH_SECONDS (2, per
 * round), BENCH_ROUNDS (3), BENCH_WARMUP (2), BENCH_CONNECTIONS (32), BENCH_NESTED_SIZES (the
 * nested tickets' sizes, 100000,1000000), BENCH_WORKLOADS (names to
 * keep, separated by `;` (names hold commas), such as `single product;name, cold mix`; default all), BENCH_PREVIOUS (the
 * root of another stockmock build, such as a worktree of an earlier commit after `npm install`:
 * it is measured in the same rounds, and each row gains its ratio to it). Needs `wrk` (Debian:
 * apt-get install wrk).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_HEADER, formatFixtureLine } from '../src/generate/format-fixture.ts';
import { generateProducts } from '../src/generate/generate-products.ts';
import { seededRandom } from '../src/util/seeded-random.ts';
import { freshNeedles, sampleNames, warmNeedles } from './needles.ts';
import { measureQueryEngine, type QueryRow } from './query-bench.ts';
import { prepareLoad, type LoadOptions, type LoadResult, type Workload } from './wrk.ts';
import { freePort } from './free-port.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const SIZES = (process.env['BENCH_SIZES'] ?? '1000,100000,1000000').split(',').map(Number);
const OPTIONS = {
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 32),
  seconds: Number(process.env['BENCH_SECONDS'] ?? 2),
  rounds: Number(process.env['BENCH_ROUNDS'] ?? 3),
  warmupSeconds: Number(process.env['BENCH_WARMUP'] ?? 2),
};
/** Workloads to run, by name; all when unset. */
const ONLY = process.env['BENCH_WORKLOADS']?.split(';').map((name) => name.trim());
/** Another build, measured in the same rounds: how a change moves each workload. */
const PREVIOUS = process.env['BENCH_PREVIOUS'];
const TOKENS = { status: 'bench-status-token', quantity: 'bench-quantity-token' } as const;
/** The two settings each workload is measured at: stockmock's default, and a quiet one. */
const LOG_LEVELS = ['info', 'warn'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
/** The workloads of the example resources, beside the stock list's `status filter`. */
const DECLARED_WORKLOAD = 'warehouses, region filter';
const BILLING_WORKLOAD = 'billing, filtered and sorted';
const CURSOR_WORKLOAD = 'events, nested tickets by cursor';
const NUMBER_WORKLOAD = 'events, nested tickets by page number';
/** The event whose tickets the nested workloads walk: it holds most of them. */
const BIG_EVENT = 'evt_bench000';
/** Pages deep into the big event's tickets the nested workloads ask for, 20 tickets a page. */
const NESTED_PAGES = 2_000;
/** The example resource is measured at the largest size up to this. */
const LARGEST_DECLARED = 100_000;
/** The nested list's sizes: a cursor must cost what a page number costs, at any depth. */
const NESTED_SIZES = (process.env['BENCH_NESTED_SIZES'] ?? '100000,1000000').split(',').map(Number);
/** Start-ups through `npx stockmock serve` per size; the median is reported. */
const STARTS = 3;
/** Names fresh needles are cut from, spread over the whole catalogue (see freshNeedles). */
const FRESH_NEEDLE_NAMES = 50_000;

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  readonly startupMs: number;
}

interface Row {
  readonly size: number;
  /** stockmock's logLevel; the bare server logs its requests at info too, or has no logger. */
  readonly log: LogLevel;
  readonly workload: string;
  readonly level: string;
  readonly mock: LoadResult;
  readonly bare: LoadResult;
  /** Median of the rounds' mock/bare req/s ratios. */
  readonly ratio: number;
  /**
   * Another server measured in the same rounds: the previous build on the same workload
   * (BENCH_PREVIOUS), or another workload this one must cost no more than.
   */
  readonly against?: Against;
}

/** This row's server over another measured in the same rounds. */
interface Against {
  readonly workload: string;
  /** Median of the rounds' req/s ratios. */
  readonly ratio: number;
  /**
   * Median of the rounds' CPU-per-request ratios: steadier than req/s on a shared machine, where
   * a neighbour moves throughput more than the server's own work does.
   */
  readonly cpuRatio: number;
  /** The other server's median CPU per request, in µs. */
  readonly cpuMicrosPerRequest: number;
}

try {
  execFileSync('wrk', ['--version'], { stdio: 'ignore' });
} catch (error) {
  // wrk prints its version and exits 1; only a missing binary is a problem.
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    process.stderr.write('npm run bench needs wrk: apt-get install wrk\n');
    process.exit(2);
  }
}

const scratch = await mkdtemp(join(tmpdir(), 'stockmock-bench-'));
// Every server started here keeps its load cache in the scratch folder, which goes at the end:
// the first start on each catalogue builds it, the later ones read it back.
process.env['STOCKMOCK_LOAD_CACHE'] = join(scratch, 'load-cache');
const loadOptions: LoadOptions = {
  connections: OPTIONS.connections,
  seconds: OPTIONS.seconds,
  scratch,
};
const rows: Row[] = [];
interface Startup {
  size: number;
  source: string;
  /**
   * `npx stockmock serve`, default settings, to the first 200 of /v1/stock (median): with the
   * load cache (the catalogue was loaded before), and without it (`STOCKMOCK_LOAD_CACHE=false`).
   */
  npxMs: number;
  npxColdMs: number;
  /** `node bin/stockmock.js serve`, the first start on the catalogue, to the first answer of /healthz. */
  directMs: number;
  /** Of the median npx start with the cache, right after its first answer. */
  rssMb: number;
  peakMb: number;
  /** Of the median npx start without it. */
  coldPeakMb: number;
  /** After every workload ran (default settings): caches, scratch buffers and a grown young generation included. */
  servingMb?: number;
}
const startups: Startup[] = [];
let contractMs: number | undefined;
const queryRows: QueryRow[] = [];

try {
  for (const size of SIZES) {
    log(`\n${size.toLocaleString('en')} products: the query engine alone, in process`);
    for (const row of await measureQueryEngine(size)) {
      queryRows.push(row);
      log(
        `  ${row.workload}: mean ${row.meanMicros.toFixed(1)} µs, p99 ${row.p99Micros.toFixed(1)} µs`,
      );
    }
    let plan: NamedWorkload[] | undefined;
    for (const logLevel of LOG_LEVELS) {
      const { configFile, fixture, source } = await prepare(size, logLevel);
      const port = await freePort();
      const mock = await startServer(
        ['bin/stockmock.js', 'serve', '--config', configFile, '--port', String(port)],
        `http://127.0.0.1:${String(port)}`,
      );
      // Start-up and memory once per size, at the default settings, as a user starts it.
      let startup: Startup | undefined;
      if (logLevel === 'info') {
        const { startupMs, rssMb, peakMb } = await measureStartThroughNpx(size, fixture);
        const cold = await measureStartThroughNpx(size, fixture, { STOCKMOCK_LOAD_CACHE: 'false' });
        startup = {
          size,
          source,
          directMs: mock.startupMs,
          npxMs: startupMs,
          npxColdMs: cold.startupMs,
          rssMb,
          peakMb,
          coldPeakMb: cold.peakMb,
        };
      }
      if (startup !== undefined) startups.push(startup);
      const previousPort = await freePort();
      const previous =
        PREVIOUS === undefined
          ? undefined
          : await startServer(
              [
                join(PREVIOUS, 'bin/stockmock.js'),
                ...['serve', '--config', configFile, '--port', String(previousPort)],
              ],
              `http://127.0.0.1:${String(previousPort)}`,
              PREVIOUS,
            );
      plan ??= await workloads(size, mock.url);
      // The bare server answers, for each workload, a body stockmock gave for that workload.
      const bodiesFile = join(scratch, `bodies-${String(size)}.json`);
      await writeFile(
        bodiesFile,
        JSON.stringify(await Promise.all(plan.map((w) => sampleBody(mock.url, w)))),
      );
      const bare = await startBare(bodiesFile, logLevel);
      try {
        log(
          `\n${size.toLocaleString('en')} products (${source}), logLevel ${logLevel}: started in ${String(mock.startupMs)} ms`,
        );
        // The JIT first: a second of every workload, so that no row pays for the code paths of
        // the ones after it.
        for (const workload of plan) {
          const warm = await prepareLoad(mock.url, workload, mock.child.pid ?? 0, loadOptions);
          await warm.run(1);
        }
        for (const [index, workload] of plan.entries()) {
          const row = await compare(
            workload,
            mock,
            `/${String(index)}`,
            bare,
            previous === undefined ? undefined : { server: previous, workload },
          );
          rows.push({ size, log: logLevel, ...row });
          log(
            `  ${workload.name} (${workload.level}): ${String(Math.round(row.mock.requestsPerSecond))} req/s, ${percent(row.ratio)} of bare, p99 ${row.mock.p99Ms.toFixed(2)} ms, ${row.mock.cpuMicrosPerRequest.toFixed(0)} µs CPU/req (bare ${row.bare.cpuMicrosPerRequest.toFixed(0)})${row.against === undefined ? '' : `, ${percent(row.against.ratio)} of previous (CPU ${percent(row.against.cpuRatio)})`}${row.mock.errors > 0 ? `, ${String(row.mock.errors)} errors` : ''}`,
          );
        }
        if (startup !== undefined) startup.servingMb = memoryOf(mock.child.pid ?? 0).rssMb;
        if (size === SIZES[0] && logLevel === 'info') contractMs = await timeContract(mock.url);
      } finally {
        mock.child.kill('SIGTERM');
        bare.child.kill('SIGTERM');
        previous?.child.kill('SIGTERM');
      }
    }
  }
  const declaredSize = Math.max(...SIZES.filter((size) => size <= LARGEST_DECLARED));
  for (const example of [warehousesExample(), billingExample()]) {
    const name = example.workload.name;
    if (Number.isFinite(declaredSize) && (ONLY === undefined || ONLY.includes(name))) {
      await measureDeclaredResource(example, declaredSize);
    }
  }
  for (const size of NESTED_SIZES) {
    const [cursor, number] = [eventsExample('cursor'), eventsExample('number')];
    const wanted = (example: DeclaredExample) =>
      ONLY === undefined || ONLY.includes(example.workload.name);
    // The cursor in the same rounds as the page number: it must cost no more.
    if (wanted(cursor)) await measureDeclaredResource(cursor, size, number);
    if (wanted(number)) await measureDeclaredResource(number, size);
  }
  const markdown = renderMarkdown();
  process.stdout.write(`\n${markdown}`);
  await writeFile(join(root, 'bench/results.md'), markdown);
  log('\nWritten to bench/results.md');
} finally {
  await rm(scratch, { recursive: true, force: true });
}

/** An example served from its spec alone: its data at a size, and its workload. */
interface DeclaredExample {
  /** The spec, or a function that writes one (a variant of an example) and says where. */
  readonly spec: string | (() => Promise<string>);
  readonly workload: NamedWorkload;
  /** Writes `size` records of its data, and says where. */
  fixture(size: number): Promise<string>;
  /** The workload's paths, where they come from the running server (cursors it gives). */
  paths?(url: string): Promise<readonly string[]>;
}

/** examples/warehouses/: a region filter, paged as the stock list's status filter is. */
function warehousesExample(): DeclaredExample {
  return {
    spec: join(root, 'examples/warehouses/openapi.yaml'),
    workload: {
      name: DECLARED_WORKLOAD,
      level: 'staff',
      token: 'bench-staff-token',
      paths: ['north', 'south', 'east', 'west'].map(
        (region) => `/v1/warehouses?region=${region}&page=2`,
      ),
    },
    async fixture(size) {
      const fixture = join(scratch, `warehouses-${String(size)}.yaml`);
      const regions = ['north', 'south', 'east', 'west'];
      const cities = ['Oslo', 'Bergen', 'Málaga', 'Lyon', 'Kraków', 'Gdańsk', 'Nantes', 'Sevilla'];
      const kinds = ['Central', 'Harbour', 'Airport', 'Rail', 'Cold Store', 'Cross-dock'];
      const random = seededRandom(5);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      let text = 'warehouses:\n';
      for (let id = 1; id <= size; id++) {
        const city = pick(cities);
        text += formatFixtureLine({
          id,
          name: `${city} ${pick(kinds)} ${String(id)}`,
          city,
          region: pick(regions),
          capacity: Math.floor(random() * 9000),
          manager: pick(['A. Berg', 'M. Nowak', 'L. García']),
        });
      }
      await writeFile(fixture, text);
      return fixture;
    },
  };
}

/**
 * examples/billing/: string keys, its own envelope, any of two statuses, a decimal range, and a
 * sort of one or two keys, on pages drawn from the first thousand; the data from `fixtures generate --spec` (invoices and
 * customers, `size` of each).
 */
function billingExample(): DeclaredExample {
  return {
    spec: join(root, 'examples/billing/openapi.yaml'),
    workload: {
      name: BILLING_WORKLOAD,
      level: 'support',
      token: 'bench-support-token',
      // 10 000 paths, pages drawn from the first thousand of each query, so that the kept
      // answers rarely hold one: each request sorts, as the stock list's status filter filters.
      paths: Array.from({ length: 10_000 }, (_, index) => {
        const queries = [
          'status=open,paid&sort=-amount',
          'status=void&sort=due_on,-issued_at',
          'amount_min=100&amount_max=900.5&sort=issued_at',
          'recurring=true&sort=-amount,issued_at',
        ];
        const page = 1 + Math.floor(seededRandom(index + 1)() * 1000);
        return `/v1/invoices?${queries[index % queries.length] ?? ''}&page=${String(page)}`;
      }),
    },
    async fixture(size) {
      const fixture = join(scratch, `billing-${String(size)}.yaml`);
      execFileSync(process.execPath, [
        join(root, 'bin/stockmock.js'),
        ...['fixtures', 'generate', '--spec', join(root, 'examples/billing/openapi.yaml')],
        ...['--count', String(size), '--seed', '3', '--out', fixture],
      ]);
      return fixture;
    },
  };
}

/**
 * examples/events/: one event's tickets, a nested list, walked by the cursors it gives
 * (`cursor`), or, in a variant of the spec that pages the same list by `page` and `limit`, by
 * page number (`number`), over the same depths. `size` tickets, most of them the big event's.
 */
function eventsExample(paging: 'cursor' | 'number'): DeclaredExample {
  const list = `/v1/events/${BIG_EVENT}/tickets`;
  const source = join(root, 'examples/events/openapi.yaml');
  return {
    spec:
      paging === 'cursor'
        ? source
        : async () => {
            // The same list, paged by number: its cursor parameter becomes `page`.
            const text = readFileSync(source, 'utf8')
              .replace(
                /- name: cursor\n(\s+)in: query\n\s+description: [^\n]*\n\s+schema: [^\n]*/,
                '- name: page\n$1in: query\n$1schema: { type: integer, minimum: 1, maximum: 100000000 }',
              )
              .replace(
                /nextCursor: next_cursor\n(\s+)previousCursor: prev_cursor\n\s+hasMore: has_more/,
                'total: total\n$1page: page',
              )
              .replace(
                /required: \[data, next_cursor, has_more\]([\s\S]*?)next_cursor: \{ type: \[string, 'null'\] \}\n(\s+)prev_cursor:[\s\S]*?has_more: \{ type: boolean \}/,
                'required: [data, total, page]$1total: { type: integer }\n$2page: { type: integer }',
              );
            const file = join(scratch, 'events-by-number.yaml');
            await writeFile(file, text);
            return file;
          },
    workload: {
      name: paging === 'cursor' ? CURSOR_WORKLOAD : NUMBER_WORKLOAD,
      level: 'organizer',
      token: 'bench-organizer-token',
      paths:
        paging === 'number'
          ? Array.from(
              { length: NESTED_PAGES },
              (_, index) => `${list}?limit=20&page=${String(index + 2)}`,
            )
          : [],
    },
    async fixture(size) {
      const fixture = join(scratch, `events-${String(size)}.yaml`);
      const random = seededRandom(49);
      const hex = () =>
        Math.floor(random() * 0x1_0000_0000)
          .toString(16)
          .padStart(8, '0');
      const events = Array.from({ length: 1000 }, (_, index) =>
        index === 0 ? BIG_EVENT : `evt_b${String(index).padStart(7, '0')}`,
      );
      let text = 'venues:\n';
      text += formatFixtureLine({
        slug: 'bench-hall',
        name: 'Bench Hall',
        city: 'Oslo',
        capacity: 900,
      });
      text += 'events:\n';
      for (const id of events) {
        text += formatFixtureLine({
          id,
          name: `Bench night ${id}`,
          venueSlug: 'bench-hall',
          status: 'on_sale',
          startsAt: '2026-12-01T20:00:00Z',
          priceFrom: 10,
        });
      }
      text += 'tickets:\n';
      for (let index = 0; index < size; index++) {
        // Nine tickets in ten are the big event's; the rest spread over the others.
        const eventId = random() < 0.9 ? BIG_EVENT : (events[1 + (index % 999)] ?? BIG_EVENT);
        text += formatFixtureLine({
          id: `${hex()}-${hex().slice(0, 4)}-4${hex().slice(0, 3)}-a${hex().slice(0, 3)}-${hex()}${hex().slice(0, 4)}`,
          eventId,
          section: ['floor', 'balcony', 'box'][index % 3] ?? 'floor',
          price: 20 + (index % 80),
          status: ['available', 'held', 'sold'][index % 3] ?? 'sold',
        });
      }
      await writeFile(fixture, text);
      return fixture;
    },
    ...(paging === 'cursor'
      ? {
          // The cursors of the first pages, walked once: each request asks for a page deep in
          // the list by the cursor the page before gave, as a client walking it does.
          async paths(url: string) {
            const paths: string[] = [];
            let next: string | null = `${list}?limit=20`;
            for (let page = 0; page <= NESTED_PAGES && next !== null; page++) {
              if (page > 0) paths.push(next);
              const response = await fetch(`${url}${next}`, {
                headers: { authorization: 'Bearer bench-organizer-token' },
              });
              const body = (await response.json()) as { next_cursor: string | null };
              next =
                body.next_cursor === null
                  ? null
                  : `${list}?limit=20&cursor=${encodeURIComponent(body.next_cursor)}`;
            }
            return paths;
          },
        }
      : {}),
  };
}

/**
 * An example resource, declared in its spec alone, at `size` records: its workload against the
 * bare server in the same rounds, and against another example's where given (on the same data).
 * Builds before declared resources cannot serve it: no previous column.
 */
async function measureDeclaredResource(
  example: DeclaredExample,
  size: number,
  against?: DeclaredExample,
): Promise<void> {
  const fixture = await example.fixture(size);
  for (const logLevel of LOG_LEVELS) {
    const { mock, workload } = await startExample(example, fixture, logLevel);
    const other =
      against === undefined ? undefined : await startExample(against, fixture, logLevel);
    const slug = slugOf(workload.name);
    const bodiesFile = join(scratch, `bodies-${slug}.json`);
    await writeFile(bodiesFile, JSON.stringify([await sampleBody(mock.url, workload)]));
    const bare = await startBare(bodiesFile, logLevel);
    try {
      for (const { mock: server, workload: load } of [
        { mock, workload },
        ...(other ? [other] : []),
      ]) {
        const warm = await prepareLoad(server.url, load, server.child.pid ?? 0, loadOptions);
        await warm.run(1);
      }
      const row = await compare(
        workload,
        mock,
        '/0',
        bare,
        other === undefined ? undefined : { server: other.mock, workload: other.workload },
      );
      rows.push({ size, log: logLevel, ...row });
      log(
        `\n${size.toLocaleString('en')} records, ${workload.name}, logLevel ${logLevel}: ${String(Math.round(row.mock.requestsPerSecond))} req/s, ${percent(row.ratio)} of bare${row.against === undefined ? '' : `; CPU ${percent(row.against.cpuRatio)} of ${row.against.workload}`}`,
      );
    } finally {
      mock.child.kill('SIGTERM');
      other?.mock.child.kill('SIGTERM');
      bare.child.kill('SIGTERM');
    }
  }
}

/** An example's server on `fixture`, and its workload with the paths the server gave. */
async function startExample(
  example: DeclaredExample,
  fixture: string,
  logLevel: LogLevel,
): Promise<{ mock: Server; workload: NamedWorkload }> {
  const spec = typeof example.spec === 'string' ? example.spec : await example.spec();
  const { workload } = example;
  const configFile = join(scratch, `${slugOf(workload.name)}-${logLevel}.yaml`);
  await writeFile(
    configFile,
    `spec: ${spec}\nfixtures: ${fixture}\nlogLevel: ${logLevel}\ntokens:\n  - { token: ${workload.token}, level: ${workload.level} }\n`,
  );
  const port = await freePort();
  const mock = await startServer(
    ['bin/stockmock.js', 'serve', '--config', configFile, '--port', String(port)],
    `http://127.0.0.1:${String(port)}`,
    root,
    () => true,
  );
  return {
    mock,
    workload:
      example.paths === undefined
        ? workload
        : { ...workload, paths: await example.paths(mock.url) },
  };
}

function slugOf(name: string): string {
  return name.replace(/[^a-z]+/g, '-');
}

/** The bare server, answering the bodies of a file, logging its requests at `info`. */
async function startBare(bodiesFile: string, logLevel: LogLevel): Promise<Server> {
  const port = await freePort();
  return startServer(
    ['bench/bare-server.ts', bodiesFile, String(port), ...(logLevel === 'info' ? ['--log'] : [])],
    `http://127.0.0.1:${String(port)}`,
  );
}

/**
 * Warms the servers up, then alternates them for OPTIONS.rounds rounds; medians per figure.
 * `against`, where given, is measured in the same rounds, before stockmock in every other round
 * and after it in the rest, so that neither always follows the bare server.
 */
async function compare(
  workload: NamedWorkload,
  mock: Server,
  /** The bare server's path for this workload's body. */
  barePath: string,
  bare: Server,
  against: { readonly server: Server; readonly workload: NamedWorkload } | undefined,
): Promise<Omit<Row, 'size' | 'log'>> {
  const mockLoad = await prepareLoad(mock.url, workload, mock.child.pid ?? 0, loadOptions);
  // wrk asks each path as the script gives it, whatever path its URL holds.
  const bareLoad = await prepareLoad(
    bare.url,
    { paths: [barePath] },
    bare.child.pid ?? 0,
    loadOptions,
  );
  const againstLoad =
    against === undefined
      ? undefined
      : await prepareLoad(
          against.server.url,
          against.workload,
          against.server.child.pid ?? 0,
          loadOptions,
        );
  await bareLoad.run(OPTIONS.warmupSeconds);
  await mockLoad.run(OPTIONS.warmupSeconds);
  await againstLoad?.run(OPTIONS.warmupSeconds);
  const mocks: LoadResult[] = [];
  const bares: LoadResult[] = [];
  const others: LoadResult[] = [];
  for (let round = 0; round < OPTIONS.rounds; round++) {
    bares.push(await bareLoad.measure());
    if (againstLoad !== undefined && round % 2 === 1) others.push(await againstLoad.measure());
    mocks.push(await mockLoad.measure());
    if (againstLoad !== undefined && round % 2 === 0) others.push(await againstLoad.measure());
  }
  const ratioTo = (results: readonly LoadResult[]) =>
    median(mocks.map((m, i) => m.requestsPerSecond / (results[i]?.requestsPerSecond ?? 1)));
  return {
    workload: workload.name,
    level: workload.level,
    mock: medianResult(mocks),
    bare: medianResult(bares),
    ratio: ratioTo(bares),
    ...(against === undefined
      ? {}
      : {
          against: {
            workload: against.workload.name,
            ratio: ratioTo(others),
            cpuRatio: median(
              mocks.map((m, i) => m.cpuMicrosPerRequest / (others[i]?.cpuMicrosPerRequest ?? 1)),
            ),
            cpuMicrosPerRequest: medianResult(others).cpuMicrosPerRequest,
          },
        }),
  };
}

function medianResult(results: readonly LoadResult[]): LoadResult {
  const of = (pick: (result: LoadResult) => number) => median(results.map(pick));
  return {
    requestsPerSecond: of((r) => r.requestsPerSecond),
    p50Ms: of((r) => r.p50Ms),
    p99Ms: of((r) => r.p99Ms),
    cpuMicrosPerRequest: of((r) => r.cpuMicrosPerRequest),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * A body stockmock answers for the workload: its first path, or a fresh name for a cold mix or
 * fresh needles.
 */
async function sampleBody(url: string, workload: NamedWorkload): Promise<string> {
  const name = workload.freshNeedles?.(url, 1)[0] ?? workload.coldNames?.[0]?.slice(0, 4);
  const path =
    name === undefined
      ? (workload.paths[0] ?? '/v1/stock')
      : `/v1/stock?name=${encodeURIComponent(name)}`;
  const response = await fetch(`${url}${path}`, {
    headers: { authorization: `Bearer ${workload.token}` },
  });
  if (!response.ok) throw new Error(`${path} answered ${String(response.status)}`);
  return response.text();
}

function percent(ratio: number): string {
  return `${String(Math.round(100 * ratio))} %`;
}

/** A YAML fixture in the generator's layout, and a config, for a catalogue of `size` products. */
async function prepare(
  size: number,
  logLevel: LogLevel,
): Promise<{ configFile: string; fixture: string; source: string }> {
  const tokens = `tokens:\n  - { token: ${TOKENS.status}, level: status }\n  - { token: ${TOKENS.quantity}, level: quantity }\n`;
  const configFile = join(scratch, `config-${String(size)}-${logLevel}.yaml`);
  const fixture = join(scratch, `products-${String(size)}.yaml`);
  const bytes = await stat(fixture).then(
    (found) => found.size,
    async () => {
      const lines: string[] = [FIXTURE_HEADER];
      for (const product of generateProducts({ count: size, seed: 1 })) {
        lines.push(formatFixtureLine(product));
      }
      const text = lines.join('');
      await writeFile(fixture, text);
      return Buffer.byteLength(text);
    },
  );
  await writeFile(configFile, `fixtures: ${fixture}\nlogLevel: ${logLevel}\n${tokens}`);
  return { configFile, fixture, source: `YAML file, ${(bytes / 1e6).toFixed(1)} MB` };
}

/**
 * Start-up as a user has it: `npx stockmock serve --fixtures FILE` in a project that has
 * stockmock installed (here linked to this clone), at the default settings, from spawn to the
 * first 200 of /v1/stock; the median of STARTS runs, with the memory of that run's server.
 */
async function measureStartThroughNpx(
  size: number,
  fixture: string,
  env: Readonly<Record<string, string>> = {},
): Promise<{ startupMs: number; rssMb: number; peakMb: number }> {
  const project = join(scratch, 'project');
  await mkdir(join(project, 'node_modules/.bin'), { recursive: true });
  await writeFile(join(project, 'package.json'), '{"private": true}\n');
  await symlink(root, join(project, 'node_modules/stockmock')).catch(() => undefined);
  await symlink(
    '../stockmock/bin/stockmock.js',
    join(project, 'node_modules/.bin/stockmock'),
  ).catch(() => undefined);
  const runs: { startupMs: number; rssMb: number; peakMb: number }[] = [];
  for (let run = 0; run < STARTS; run++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(
      'npx',
      ['stockmock', 'serve', '--fixtures', fixture, '--port', String(port)],
      {
        cwd: project,
        env: { ...process.env, ...env },
        stdio: 'ignore',
        detached: true,
      },
    );
    let peakMb = 0;
    for (;;) {
      peakMb = Math.max(peakMb, serverMemory(child.pid ?? 0).peakMb);
      try {
        const response = await fetch(`http://127.0.0.1:${String(port)}/v1/stock`, {
          headers: { authorization: 'Bearer status-demo-token' },
        });
        if (response.status === 200) break;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const startupMs = Math.round(performance.now() - started);
    const { rssMb } = serverMemory(child.pid ?? 0);
    runs.push({ startupMs, rssMb, peakMb: Math.max(peakMb, serverMemory(child.pid ?? 0).peakMb) });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-(child.pid ?? 0), 'SIGTERM');
    await exited;
    log(
      `  ${size.toLocaleString('en')} products: npx stockmock serve answered in ${String(startupMs)} ms${env['STOCKMOCK_LOAD_CACHE'] === 'false' ? ' (no load cache)' : ''}`,
    );
  }
  return runs.sort((a, b) => a.startupMs - b.startupMs)[
    Math.floor(runs.length / 2)
  ] as (typeof runs)[number];
}

/** The memory of the server under a process (npx starts it as a descendant): the largest one. */
function serverMemory(pid: number): { rssMb: number; peakMb: number } {
  const descendants = (of: number): number[] => {
    try {
      const children = readFileSync(`/proc/${String(of)}/task/${String(of)}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
      return [of, ...children.flatMap(descendants)];
    } catch {
      return [];
    }
  };
  const measured = descendants(pid).map((one) => {
    try {
      return memoryOf(one);
    } catch {
      return { rssMb: 0, peakMb: 0 };
    }
  });
  return measured.reduce((a, b) => (b.rssMb > a.rssMb ? b : a), { rssMb: 0, peakMb: 0 });
}

interface NamedWorkload extends Workload {
  readonly name: string;
  readonly level: string;
  readonly token: string;
}

/** The request mixes, built from the catalogue's own ids and words, for both access levels. */
async function workloads(size: number, url: string): Promise<NamedWorkload[]> {
  const names = sampleNames(size);
  const statuses = ['available', 'incoming', 'on_request', 'out_of_stock'];
  // How many pages each status fills, as the server counts them.
  const statusPages = new Map<string, number>();
  for (const status of statuses) {
    const response = await fetch(`${url}/v1/stock?status=${status}`, {
      headers: { authorization: `Bearer ${TOKENS.status}` },
    });
    const { links } = (await response.json()) as { links: { last: string } };
    statusPages.set(status, Number(new URL(links.last).searchParams.get('page')));
  }
  const random = seededRandom(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const lastPage = Math.ceil(size / 10);
  const substrings = warmNeedles(names, random).map(encodeURIComponent);
  const fresh = freshNeedles(sampleNames(size, FRESH_NEEDLE_NAMES), seededRandom(13));
  const mixes: Omit<NamedWorkload, 'level' | 'token'>[] = [
    {
      // Ids across the whole catalogue: up to 100 000 distinct paths, so that a repeat is rare.
      name: 'single product',
      paths: Array.from(
        { length: Math.min(size, 100_000) },
        () => `/v1/stock/${String(1 + Math.floor(random() * size))}`,
      ),
    },
    { name: 'first page', paths: ['/v1/stock'] },
    {
      name: 'deep page',
      paths: Array.from(
        { length: 100 },
        () => `/v1/stock?page=${String(Math.max(1, lastPage - Math.floor(random() * 50)))}`,
      ),
    },
    {
      // Pages from the whole of each status's result: 10 000 paths, so that a repeat is rare.
      name: 'status filter',
      paths: Array.from({ length: 10_000 }, () => {
        const [status, pages] = pick([...statusPages]);
        return `/v1/stock?status=${status}&page=${String(1 + Math.floor(random() * pages))}`;
      }),
    },
    {
      name: 'name, warm mix',
      paths: substrings.map(
        (needle) => `/v1/stock?name=${needle}&page=${String(1 + Math.floor(random() * 3))}`,
      ),
    },
    { name: 'name, cold mix', paths: ['/v1/stock'], coldNames: names },
    // One feed for both levels: the engine's caches are the data's, whichever level asks.
    { name: 'name, fresh needles', paths: ['/v1/stock'], freshNeedles: fresh },
    {
      name: 'name + status',
      paths: substrings.map((needle) => `/v1/stock?name=${needle}&status=${pick(statuses)}`),
    },
  ];
  const levels = (['status', 'quantity'] as const).flatMap((level) =>
    mixes.map((mix) => ({ ...mix, level, token: TOKENS[level] })),
  );
  const all: NamedWorkload[] = [
    ...levels,
    {
      name: '/v1/products',
      level: 'status',
      token: TOKENS.status,
      paths: Array.from(
        { length: Math.min(lastPage, 10_000) },
        () => `/v1/products?page=${String(1 + Math.floor(random() * lastPage))}`,
      ),
    },
  ];
  return ONLY === undefined ? all : all.filter((workload) => ONLY.includes(workload.name));
}

/** Spawns a server, and measures the time from spawn to its first answer on /healthz. */
/**
 * Starts a server and waits until it answers: its `/healthz` (the shipped spec's), or, for a spec
 * without one, any answer at all (it listens once its data is loaded).
 */
async function startServer(
  args: readonly string[],
  url: string,
  cwd = root,
  ready: (response: Response) => boolean = (response) => response.ok,
): Promise<Server> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const state = { exited: false };
  child.on('exit', () => {
    state.exited = true;
  });
  for (;;) {
    if (state.exited) throw new Error(`${args.join(' ')} exited before it answered`);
    try {
      if (ready(await fetch(`${url}/healthz`))) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { url, child, startupMs: Math.round(performance.now() - started) };
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

async function timeContract(url: string): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      'bin/stockmock.js',
      'contract',
      url,
      '--token',
      `status=${TOKENS.status}`,
      '--token',
      `quantity=${TOKENS.quantity}`,
      '--seed',
      '1',
    ],
    { cwd: root, stdio: 'ignore' },
  );
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) log(`  contract run exited ${String(code)}`);
  return Math.round(performance.now() - started);
}

function renderMarkdown(): string {
  const machine = `${String(cpus().length)} × ${cpus()[0]?.model ?? 'CPU'}, ${String(Math.round(totalmem() / 2 ** 30))} GiB, Node ${process.version}`;
  const lines = [
    '# Benchmark',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${machine}. wrk, 1 thread, ${String(OPTIONS.connections)} connections, on loopback. Per workload: ${String(OPTIONS.warmupSeconds)} s of warm-up, then ${String(OPTIONS.rounds)} rounds of ${String(OPTIONS.seconds)} s that alternate the bare server and stockmock; each figure is the median over the rounds. The bare server is Fastify answering, for each workload, a precomputed body that stockmock gave for it. CPU is the server's user + system time per request. Before the first row of a size, every workload runs for 1 s to warm the JIT.`,
    '',
    "Each workload has two rows: `info` (stockmock's default; the bare server logs its requests at info too) and `warn` (the bare server has no logger). Single ids, needles and pages are drawn from the whole catalogue.",
    '',
    PREVIOUS === undefined
      ? ''
      : 'The last two columns compare with another build (BENCH_PREVIOUS), measured in the same rounds: its req/s, and its CPU per request (over 100 % is more CPU than that build).\n',
    `| products | log | workload | level | req/s | bare req/s | ratio | p50 ms | p99 ms | bare p99 ms | CPU µs/req | bare CPU µs/req | errors |${PREVIOUS === undefined ? '' : ' vs previous | CPU vs previous |'}`,
    `|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|${PREVIOUS === undefined ? '' : '---:|---:|'}`,
    ...rows.map(
      (row) =>
        `| ${row.size.toLocaleString('en')} | ${row.log} | ${row.workload} | ${row.level} | ${String(Math.round(row.mock.requestsPerSecond))} | ${String(Math.round(row.bare.requestsPerSecond))} | ${percent(row.ratio)} | ${row.mock.p50Ms.toFixed(2)} | ${row.mock.p99Ms.toFixed(2)} | ${row.bare.p99Ms.toFixed(2)} | ${row.mock.cpuMicrosPerRequest.toFixed(0)} | ${row.bare.cpuMicrosPerRequest.toFixed(0)} | ${String(row.mock.errors)} |${PREVIOUS === undefined ? '' : ` ${row.against === undefined || row.against.workload !== row.workload ? ' | ' : `${percent(row.against.ratio)} | ${percent(row.against.cpuRatio)}`} |`}`,
    ),
    '',
    ...renderAgainst(),
    `Start-up at the default settings: \`npx stockmock serve --fixtures FILE\` in a project that has stockmock installed, spawn to the first 200 of /v1/stock, median of ${String(STARTS)}, with that server's memory: with the load cache (the catalogue was loaded before), and without it (\`STOCKMOCK_LOAD_CACHE=false\`); and \`node bin/stockmock.js serve\`, the first start on the catalogue, to the first answer of /healthz.`,
    '',
    '| products | data | npx start-up ms, load cache | npx start-up ms, no cache | node start-up ms, first start | RSS after load, MB | peak RSS during load, MB (cache / no cache) | RSS after the workloads, MB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...startups.map(
      (s) =>
        `| ${s.size.toLocaleString('en')} | ${s.source} | ${String(s.npxMs)} | ${String(s.npxColdMs)} | ${String(s.directMs)} | ${String(s.rssMb)} | ${String(s.peakMb)} / ${String(s.coldPeakMb)} | ${String(s.servingMb ?? '')} |`,
    ),
    '',
    'The query engine alone, in the benchmark process (select, then one page of 10; no HTTP): µs per query over 18 000 queries after 2 000 of warm-up.',
    '',
    '| products | workload | mean µs | p99 µs |',
    '|---:|---|---:|---:|',
    ...queryRows.map(
      (row) =>
        `| ${row.size.toLocaleString('en')} | ${row.workload} | ${row.meanMicros.toFixed(1)} | ${row.p99Micros.toFixed(1)} |`,
    ),
    '',
    contractMs === undefined
      ? ''
      : `\`stockmock contract\` with default settings against stockmock with ${(SIZES[0] ?? 0).toLocaleString('en')} products: ${String(contractMs)} ms.`,
    '',
  ];
  return lines.join('\n');
}

/** Rows measured in the same rounds as another workload, which they must cost no more than. */
function renderAgainst(): string[] {
  const paired = rows.filter(
    (row) => row.against !== undefined && row.against.workload !== row.workload,
  );
  if (paired.length === 0) return [];
  return [
    "Workloads measured in the same rounds as another, which they must cost no more than (the two servers alternate their turns; CPU ratio: the median of the rounds' ratios; over 100 % is more CPU).",
    '',
    '| records | log | workload | against | CPU µs/req | against CPU µs/req | CPU ratio |',
    '|---:|---|---|---|---:|---:|---:|',
    ...paired.map(
      (row) =>
        `| ${row.size.toLocaleString('en')} | ${row.log} | ${row.workload} | ${row.against?.workload ?? ''} | ${row.mock.cpuMicrosPerRequest.toFixed(1)} | ${row.against?.cpuMicrosPerRequest.toFixed(1) ?? ''} | ${percent(row.against?.cpuRatio ?? 0)} |`,
    ),
    '',
  ];
}

function log(text: string): void {
  process.stderr.write(`${text}\n`);
}
