/**
 * Shares of on-CPU samples by where they were spent: each sample of `perf script` goes to the
 * innermost of its frames that holds one of the named markers (the first marker that matches,
 * from the leaf out), or to `other`.
 *
 * Usage: perf script -i FILE | node bench/perf-shares.ts NAME=TEXT ...
 * e.g. `write=StreamBase::WriteString route=operation-route.js security=route-security`.
 */
import { createInterface } from 'node:readline';

const markers = process.argv.slice(2).map((argument) => {
  const at = argument.indexOf('=');
  if (at < 1) throw new Error(`A marker is NAME=TEXT: ${argument}`);
  return { name: argument.slice(0, at), text: argument.slice(at + 1) };
});
const counts = new Map<string, number>();
let samples = 0;
let frames: string[] = [];

function count(): void {
  if (frames.length === 0) return;
  samples += 1;
  const frame = frames.find((one) => markers.some(({ text }) => one.includes(text)));
  const name = markers.find(({ text }) => frame?.includes(text) === true)?.name ?? 'other';
  counts.set(name, (counts.get(name) ?? 0) + 1);
  frames = [];
}

for await (const line of createInterface({ input: process.stdin })) {
  // A sample is a header line, then one indented line a frame, leaf first; a blank line ends it.
  if (line.trim() === '') count();
  else if (/^\s/.test(line)) frames.push(line.trim());
}
count();
for (const [name, n] of [...counts].sort((x, y) => y[1] - x[1])) {
  console.log(`${((100 * n) / samples).toFixed(1).padStart(5)} %  ${name}`);
}
console.log(`${String(samples)} samples`);
