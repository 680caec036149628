/** @module A CliIo that keeps what a command writes, for tests of runMain. */
import type { CliIo } from '../../src/cli/io.ts';

export function memoryIo(cwd = process.cwd()): CliIo & { out: string; err: string } {
  const io = {
    cwd,
    env: {},
    out: '',
    err: '',
    write(text: string) {
      io.out += text;
    },
    error(text: string) {
      io.err += text;
    },
  };
  return io;
}
