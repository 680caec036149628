/**
 * Writes and sessions under load (`npm run bench:writes`, and at the end of `npm run bench`):
 * the events example (examples/events) over a generated list of events, served by
 * `stockmock serve` in a process of its own, asked over keep-alive HTTP from this one.
 *
 * - writes per second and the server's CPU per write, for creates, merges and deletes;
 * - filtered lists read in a session that holds writes (half creates, half merges and deletes of
 *   loaded events) against the same reads without one, in alternating rounds: CPU per request,
 *   p99, and the first read after the writes (which indexes the session's records);
 * - memory added by many sessions of writes each, before and after each session reads.
 *
 * Settings: BENCH_WRITE_SIZES (events, default `1000,100000`), BENCH_WRITES (writes per kind,
 * default 2000), BENCH_SESSION_WRITES (default 10000), BENCH_SESSION_READS (reads per round of
 * each workload, default 2000), BENCH_SESSION_ROUNDS (timed rounds of each, default 2),
 * BENCH_SESSION_WORKLOADS (only the read workloads whose names hold it), BENCH_SESSIONS (default
 * 1000, each with 100 writes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatFixtureLine } from '../src/generate/format-fixture.ts';
import { CLOCK_TICKS, cpuTicks } from './cpu-time.ts';
import { freePort } from './free-port.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const numbers = (name: string, fallback: string) =>
  (process.env[name] ?? fallback).split(',').map(Number);
const SIZES = numbers('BENCH_WRITE_SIZES', '1000,100000');
const [WRITES = 2000] = numbers('BENCH_WRITES', '2000');
const [SESSION_WRITES = 10_000] = numbers('BENCH_SESSION_WRITES', '10000');
const [SESSIONS = 1000] = numbers('BENCH_SESSIONS', '1000');
const [READS = 2000] = numbers('BENCH_SESSION_READS', '2000');
const [ROUNDS = 2] = numbers('BENCH_SESSION_ROUNDS', '2');
/** Runs only the read workloads whose names hold this (BENCH_SESSION_WORKLOADS). */
const ONLY = process.env['BENCH_SESSION_WORKLOADS'] ?? '';
const PLAIN_FIRST = ['plain', 'session'] as const;
const SESSION_FIRST = ['session', 'plain'] as const;
const CONCURRENCY = 8;

/** The reads of a session against the same without one: a request path for the n-th read. */
const READ_WORKLOADS: readonly (readonly [string, (n: number) => string])[] = [
  [
    'status filter, pages 1–50',
    (n) => `/v1/events?status=on_sale&pageSize=20&page=${String((n % 50) + 1)}`,
  ],
  [
    'name needle and status',
    (n) => `/v1/events?q=night%20${String(n % 97)}&status=scheduled&pageSize=20`,
  ],
  [
    'price filter sorted by price',
    (n) =>
      `/v1/events?price_max=${String(100 + (n % 7))}&sort=priceFrom&pageSize=20&page=${String((n % 20) + 1)}`,
  ],
];
const TOKEN = 'bench-organizer-token';
const ADMIN = 'bench-admin-token-1';

interface Served {
  readonly url: string;
  readonly child: ChildProcess;
}

async function serve(folder: string, size: number): Promise<Served> {
  const fixture = join(folder, `events-${String(size)}.yaml`);
  let text = `venues:\n${formatFixtureLine({ slug: 'bench-hall', name: 'Bench Hall', city: 'Oslo', capacity: 900 })}events:\n`;
  for (let index = 0; index < size; index++) {
    text += formatFixtureLine({
      id: `evt_${index.toString(36).padStart(8, '0')}`,
      name: `Bench night ${String(index)}`,
      venueSlug: 'bench-hall',
      status: ['scheduled', 'on_sale', 'sold_out', 'cancelled'][index % 4],
      startsAt: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000)
        .toISOString()
        .replace('.000Z', 'Z'),
      priceFrom: (index % 500) + 0.5,
    });
  }
  text += 'tickets: []\n';
  await writeFile(fixture, text);
  const config = join(folder, 'config.yaml');
  await writeFile(
    config,
    `spec: ${join(root, 'examples/events/openapi.yaml')}\nfixtures: ${fixture}\nlogLevel: warn\nloadCache: false\ntokens:\n  - { token: ${TOKEN}, level: organizer }\nadmin: { token: ${ADMIN} }\n`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${String(port)}`;
  const child = spawn(
    process.execPath,
    ['bin/stockmock.js', 'serve', '--config', config, '--port', String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (;;) {
    try {
      if ((await fetch(`${url}/__stockmock/health`)).ok) return { url, child };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Request {
  readonly method: string;
  readonly path: string;
  readonly session?: string;
  readonly body?: unknown;
}

/** Sends each request, CONCURRENCY at a time; each answer's status must be the one wanted. */
async function load(
  served: Served,
  requests: readonly Request[],
  wanted: (status: number) => boolean,
): Promise<{ seconds: number; cpuMicros: number; latencies: number[]; bodies: string[] }> {
  const pid = served.child.pid as number;
  const ticks = await cpuTicks(pid);
  const started = performance.now();
  const latencies: number[] = [];
  const bodies: string[] = new Array<string>(requests.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < requests.length; index = next++) {
      const request = requests[index] as Request;
      const sent = performance.now();
      const response = await fetch(`${served.url}${request.path}`, {
        method: request.method,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(request.session === undefined ? {} : { 'stockmock-session': request.session }),
          ...(request.body === undefined
            ? {}
            : {
                'content-type':
                  request.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
              }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
      bodies[index] = await response.text();
      latencies.push(performance.now() - sent);
      if (!wanted(response.status)) {
        throw new Error(
          `${request.method} ${request.path}: ${String(response.status)} ${bodies[index]}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpuMicros = (((await cpuTicks(pid)) - ticks) / CLOCK_TICKS) * 1e6;
  return { seconds, cpuMicros, latencies, bodies };
}

function p99(latencies: readonly number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.99)] ?? 0;
}

function rssMb(pid: number): Promise<number> {
  return readFile(`/proc/${String(pid)}/status`, 'utf8').then((status) =>
    Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024),
  );
}

const event = (n: number) => ({
  name: `Written ${String(n)}`,
  venueSlug: 'bench-hall',
  startsAt: '2027-01-01T20:00:00Z',
  priceFrom: n % 400,
});

const rows: string[] = [];
const row = (...cells: (string | number)[]) => {
  rows.push(`| ${cells.join(' | ')} |`);
  console.error(cells.join('  '));
};

const folder = await mkdtemp(join(tmpdir(), 'stockmock-writes-bench-'));
try {
  for (const size of SIZES) {
    const served = await serve(folder, size);
    try {
      // Writes per second: creates, then merges and deletes of what was created.
      const created = await load(
        served,
        Array.from({ length: WRITES }, (_, n) => ({
          method: 'POST',
          path: '/v1/events',
          session: 'w',
          body: event(n),
        })),
        (status) => status === 201,
      );
      const ids = created.bodies.map((body) => (JSON.parse(body) as { id: string }).id);
      const merged = await load(
        served,
        ids.map((id) => ({
          method: 'PATCH',
          path: `/v1/events/${id}`,
          session: 'w',
          body: { status: 'on_sale' },
        })),
        (status) => status === 200,
      );
      const deleted = await load(
        served,
        ids.map((id) => ({ method: 'DELETE', path: `/v1/events/${id}`, session: 'w' })),
        (status) => status === 204,
      );
      for (const [kind, result] of [
        ['create', created],
        ['merge', merged],
        ['delete', deleted],
      ] as const) {
        row(
          size,
          `${kind} (POST/PATCH/DELETE)`,
          Math.round(WRITES / result.seconds),
          Math.round(result.cpuMicros / WRITES),
          p99(result.latencies).toFixed(1),
        );
      }

      // Reads in a session that holds writes, against the same reads without one. The writes
      // are half creates, and half merges and deletes of loaded events spread through the list.
      const touched = Math.min(Math.floor(SESSION_WRITES / 2), Math.floor(size / 2));
      const loadedId = (n: number) =>
        `evt_${(Math.floor((n * size) / touched) % size).toString(36).padStart(8, '0')}`;
      await load(
        served,
        Array.from({ length: SESSION_WRITES }, (_, n): Request => {
          if (n >= touched) {
            return { method: 'POST', path: '/v1/events', session: 'r', body: event(n) };
          }
          const path = `/v1/events/${loadedId(n)}`;
          return n % 2 === 0
            ? {
                method: 'PATCH',
                path,
                session: 'r',
                body: { status: 'on_sale', priceFrom: n % 300 },
              }
            : { method: 'DELETE', path, session: 'r' };
        }),
        (status) => status === 201 || status === 200 || status === 204,
      );
      const first = await load(
        served,
        [{ method: 'GET', path: '/v1/events?status=on_sale&pageSize=20', session: 'r' }],
        (status) => status === 200,
      );
      row(
        size,
        `first read after ${String(SESSION_WRITES)} writes (indexes the session's records)`,
        '',
        Math.round(first.cpuMicros),
        first.latencies[0]?.toFixed(1) ?? '',
      );
      for (const [workload, pathOf] of READ_WORKLOADS.filter(([name]) => name.includes(ONLY))) {
        const reads = (session?: string): Request[] =>
          Array.from({ length: READS }, (_, n) => ({
            method: 'GET',
            path: pathOf(n),
            ...(session === undefined ? {} : { session }),
          }));
        // A first round of each asks every list once (its p99 counts: a session places its
        // records in each list on first asking), then timed rounds alternate which goes first,
        // so that the machine's drift falls on both alike.
        const latencies = { plain: [] as number[], session: [] as number[] };
        const cpu = { plain: 0, session: 0 };
        let seconds = 0;
        for (let round = 0; round <= ROUNDS; round++) {
          for (const which of round % 2 === 0 ? PLAIN_FIRST : SESSION_FIRST) {
            const result = await load(
              served,
              reads(which === 'session' ? 'r' : undefined),
              (status) => status === 200,
            );
            latencies[which].push(...result.latencies);
            console.error(
              `  ${workload}, round ${String(round)}, ${which}: ${String(Math.round(result.cpuMicros / READS))} µs`,
            );
            if (round === 0) continue;
            cpu[which] += result.cpuMicros;
            if (which === 'session') seconds += result.seconds;
          }
        }
        const each = (micros: number) => Math.round(micros / (READS * ROUNDS));
        row(size, `${workload}, no session`, '', each(cpu.plain), p99(latencies.plain).toFixed(1));
        row(
          size,
          `${workload}, session of ${String(SESSION_WRITES)} writes (CPU ${String(Math.round((100 * cpu.session) / cpu.plain))} %)`,
          Math.round((READS * ROUNDS) / seconds),
          each(cpu.session),
          p99(latencies.session).toFixed(1),
        );
      }
      await fetch(`${served.url}/__admin/sessions`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${ADMIN}` },
      });

      // Memory: many sessions of 100 writes each, then one read in each.
      const pid = served.child.pid as number;
      const before = await rssMb(pid);
      const each = 100;
      await load(
        served,
        Array.from({ length: SESSIONS * each }, (_, n) => ({
          method: 'POST',
          path: '/v1/events',
          session: `m${String(Math.floor(n / each))}`,
          body: event(n),
        })),
        (status) => status === 201,
      );
      const written = await rssMb(pid);
      await load(
        served,
        Array.from({ length: SESSIONS }, (_, n) => ({
          method: 'GET',
          path: '/v1/events?pageSize=1',
          session: `m${String(n)}`,
        })),
        (status) => status === 200,
      );
      const read = await rssMb(pid);
      row(
        size,
        `${String(SESSIONS)} sessions × ${String(each)} writes: RSS added (MB)`,
        '',
        '',
        String(written - before),
      );
      row(size, `…after one read in each (MB)`, '', '', String(read - before));
    } finally {
      served.child.kill('SIGTERM');
    }
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}

console.log(
  [
    '| events | what | per second | server CPU µs each | p99 ms (or MB) |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n'),
);
