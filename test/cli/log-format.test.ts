/**
 * `serve`'s log as a person at a terminal and a program each read it: readable lines on a
 * terminal (a real pseudo-terminal, from util-linux's `script`) or with `--log-format pretty`,
 * JSON lines otherwise or with `--log-format json`. Never a token.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/spawn-serve.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'status-demo-token';
const READABLE_REQUEST = /\] INFO: GET \/v1\/stock\/1 200 status \d+(\.\d)? ms\n/;

async function askForStock(url: string): Promise<void> {
  const response = await fetch(`${url}/v1/stock/1`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
}

describe('the log format', () => {
  it('--log-format pretty: one readable line per request, no JSON, no token', async () => {
    const served = await spawnServe(['--log-format', 'pretty']);
    await askForStock(served.url);
    await served.waitForLog(READABLE_REQUEST);
    await served.stop();
    expect(served.log()).toMatch(/\] INFO: serving 100 products on http/);
    expect(served.log()).not.toContain('{"level"');
    expect(served.log()).not.toContain(TOKEN);
  });

  it('auto, not on a terminal: JSON lines, one per request', async () => {
    const served = await spawnServe([]);
    await askForStock(served.url);
    await served.waitForLog(/"msg":"GET \/v1\/stock\/1 200 status/);
    await served.stop();
    const lines = served.log().split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(served.log()).not.toContain(TOKEN);
  });

  it('auto, on a terminal: readable lines', async () => {
    const command = `'${process.execPath}' '${root}bin/stockmock.js' serve --port 0`;
    const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
      env: { ...process.env, STOCKMOCK_LOG_LEVEL: 'info' },
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => {
      // Colours are on at a terminal; the text between them is what is read.
      log += stripVTControlCharacters(chunk.toString());
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no URL in:\n${log}`));
      }, 20_000);
      child.stdout.on('data', () => {
        const found = /listening on (http:\/\/[^\s"]+)/.exec(log)?.[1];
        if (found === undefined) return;
        clearTimeout(timer);
        resolve(found);
      });
    });
    await askForStock(url);
    await expect.poll(() => log, { timeout: 10_000 }).toMatch(/INFO: GET \/v1\/stock\/1 200/);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(log).toMatch(/\] INFO: GET \/v1\/stock\/1 200 status \d+(\.\d)? ms\r?\n/);
    expect(log).not.toContain('{"level"');
    expect(log).not.toContain(TOKEN);
  });
});
