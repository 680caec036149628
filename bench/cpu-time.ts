/** @module A process's CPU time (user + system), read from /proc: what a request costs the server. */
import { readFile } from 'node:fs/promises';

/** Linux's USER_HZ, the unit of /proc/PID/stat's times: 100 on every common architecture. */
export const CLOCK_TICKS = 100;

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat). */
export async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
