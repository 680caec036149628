/** @module Drives a server with wrk (a C load generator: it leaves the server the CPU it needs). */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers other than 2xx/3xx: a workload is only measured if it was served. */
  readonly errors: number;
}

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly scratch: string;
}

/**
 * Runs wrk with a Lua script that picks each request's path: `paths` at random (seeded), or, for
 * a cold mix, a fresh substring of a random name on every request.
 */
export async function load(
  url: string,
  workload: { paths: readonly string[]; token?: string; coldNames?: readonly string[] },
  options: LoadOptions,
): Promise<LoadResult> {
  const script = join(
    options.scratch,
    `wrk-${String(Date.now())}-${String(Math.random()).slice(2)}.lua`,
  );
  await writeFile(script, luaScript(workload));
  const args = (seconds: number) => [
    '-t1',
    `-c${String(options.connections)}`,
    `-d${String(seconds)}s`,
    '--latency',
    '-s',
    script,
    url,
  ];
  if (options.warmupSeconds > 0)
    await run('wrk', args(options.warmupSeconds), { maxBuffer: 1 << 24 });
  const { stdout } = await run('wrk', args(options.seconds), { maxBuffer: 1 << 24 });
  return parseWrk(stdout);
}

function luaScript(workload: {
  paths: readonly string[];
  token?: string;
  coldNames?: readonly string[];
}): string {
  const list = (items: readonly string[]) =>
    `{${items.map((item) => JSON.stringify(item)).join(',')}}`;
  const auth =
    workload.token === undefined ? '' : `headers["Authorization"] = "Bearer ${workload.token}"`;
  const cold =
    workload.coldNames === undefined
      ? ''
      : `
local names = ${list(workload.coldNames)}
local function fresh()
  local name = names[math.random(#names)]
  local length = math.random(3, 7)
  local start = math.random(1, math.max(1, #name - length + 1))
  local needle = string.sub(name, start, start + length - 1)
  needle = string.gsub(needle, "[^%w]", function(c) return string.format("%%%02X", string.byte(c)) end)
  return "/v1/stock?name=" .. needle .. "&page=" .. math.random(1, 3)
end`;
  return `
math.randomseed(42)
local paths = ${list(workload.paths)}
local headers = {}
${auth}
${cold}
request = function()
  local path = ${workload.coldNames === undefined ? 'paths[math.random(#paths)]' : 'fresh()'}
  return wrk.format("GET", path, headers)
end
`;
}

function parseWrk(output: string): LoadResult {
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
