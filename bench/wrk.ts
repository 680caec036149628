/** @module Drives a server with wrk (a C load generator: it leaves the server the CPU it needs). */
import { execFile } from 'node:child_process';
import { cpuTicks, CLOCK_TICKS } from './cpu-time.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NeedleFeed } from './needles.ts';

const run = promisify(execFile);

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers other than 2xx/3xx: a workload is only measured if it was served. */
  readonly errors: number;
  /**
   * The server's CPU time (user + system) per answered request, in µs. Unlike req/s it does not
   * fall when a shared machine's hypervisor takes the CPU away (steal), so it is the steadier
   * figure for comparing two runs.
   */
  readonly cpuMicrosPerRequest: number;
}

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly scratch: string;
}

export interface Workload {
  readonly paths: readonly string[];
  readonly token?: string;
  readonly coldNames?: readonly string[];
  /**
   * Needles never asked before (see needles.ts): each run of wrk asks its own, a fixed number
   * of them, rather than for a time, since the catalogue holds only so many.
   */
  readonly freshNeedles?: NeedleFeed;
}

/** A prepared load: warm it up once, then measure it as often as wanted. */
export interface Load {
  run(seconds: number): Promise<void>;
  measure(): Promise<LoadResult>;
}

/**
 * wrk with a Lua script that picks each request's path: `paths` at random (seeded), or, for a
 * cold mix, a fresh substring of a random name on every request. `pid` is the server's process,
 * whose CPU time is read around each measurement.
 */
export async function prepareLoad(
  url: string,
  workload: Workload,
  pid: number,
  options: LoadOptions,
): Promise<Load> {
  const script = join(
    options.scratch,
    `wrk-${String(Date.now())}-${String(Math.random()).slice(2)}.lua`,
  );
  const needleFile = `${script}.needles`;
  await writeFile(script, luaScript(workload, needleFile));
  const fresh = workload.freshNeedles;
  const wrk = async (seconds: number) => {
    if (fresh !== undefined) {
      // The requests still in flight when wrk stops take a few more.
      const needles = fresh(url, FRESH_REQUESTS_PER_RUN + options.connections);
      await writeFile(needleFile, `${needles.map(encodeURIComponent).join('\n')}\n`);
    }
    return run(
      'wrk',
      [
        '-t1',
        `-c${String(options.connections)}`,
        `-d${String(fresh === undefined ? seconds : FRESH_RUN_LIMIT_SECONDS)}s`,
        '--latency',
        '-s',
        script,
        url,
      ],
      { maxBuffer: 1 << 24 },
    );
  };
  return {
    async run(seconds) {
      await wrk(seconds);
    },
    async measure() {
      const before = await cpuTicks(pid);
      const { stdout } = await wrk(options.seconds);
      const ticks = (await cpuTicks(pid)) - before;
      const result = parseWrk(stdout);
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
      return {
        ...result,
        cpuMicrosPerRequest: requests === 0 ? 0 : (ticks * 1e6) / CLOCK_TICKS / requests,
      };
    },
  };
}

/**
 * Requests a run of fresh needles makes: ten runs a server (warm-ups and rounds, at two levels)
 * take 15 000 of the catalogue's 20 000 needles.
 */
export const FRESH_REQUESTS_PER_RUN = 1500;
/** How long such a run may take at most; it ends by its count. */
const FRESH_RUN_LIMIT_SECONDS = 60;

function luaScript(workload: Workload, needleFile: string): string {
  const list = (items: readonly string[]) =>
    `{${items.map((item) => JSON.stringify(item)).join(',')}}`;
  const auth =
    workload.token === undefined ? '' : `headers["Authorization"] = "Bearer ${workload.token}"`;
  const cold =
    workload.coldNames === undefined
      ? ''
      : `
local names = ${list(workload.coldNames)}
local function cold()
  local name = names[math.random(#names)]
  local length = math.random(3, 7)
  local start = math.random(1, math.max(1, #name - length + 1))
  local needle = string.sub(name, start, start + length - 1)
  needle = string.gsub(needle, "[^%w]", function(c) return string.format("%%%02X", string.byte(c)) end)
  return "/v1/stock?name=" .. needle .. "&page=" .. math.random(1, 3)
end`;
  const fresh =
    workload.freshNeedles === undefined
      ? ''
      : `
local needles = {}
for line in io.lines(${JSON.stringify(needleFile)}) do needles[#needles + 1] = line end
local taken = 0
local function fresh()
  taken = taken % #needles + 1
  return "/v1/stock?name=" .. needles[taken]
end
local answered = 0
response = function()
  answered = answered + 1
  -- wrk sleeps out its duration whatever its threads do; SIGINT ends it, with its figures
  -- over the time it ran. Sent from the background: os.execute's system() ignores SIGINT
  -- until its shell ends. The shell's parent is wrk.
  if answered == ${String(FRESH_REQUESTS_PER_RUN)} then
    wrk.thread:stop()
    os.execute("(sleep 0.01; kill -INT $PPID) &")
  end
end`;
  const pick =
    workload.freshNeedles !== undefined
      ? 'fresh()'
      : workload.coldNames !== undefined
        ? 'cold()'
        : 'paths[math.random(#paths)]';
  return `
math.randomseed(42)
local paths = ${list(workload.paths)}
local headers = {}
${auth}
${cold}
${fresh}
request = function()
  local path = ${pick}
  return wrk.format("GET", path, headers)
end
`;
}

function parseWrk(output: string): Omit<LoadResult, 'cpuMicrosPerRequest'> {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(output);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(output);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1];
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  if (rps === undefined || p50 === null || p99 === null)
    throw new Error(`cannot read wrk's output:\n${output}`);
  const toMs = (match: RegExpExecArray) => {
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  const errors =
    Number(non2xx ?? 0) +
    (socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0));
  return { requestsPerSecond: Number(rps), p50Ms: toMs(p50), p99Ms: toMs(p99), errors };
}
