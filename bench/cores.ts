/**
 * CPU pinning for load runs (the benchmark and the soak): the server on core 0, the load
 * generator — the calling process — on core 1, with `taskset` where it exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';

const hasTaskset = (): boolean => ['/usr/bin/taskset', '/bin/taskset'].some((file) => existsSync(file));

/** Pins this process to core 1 and returns the command prefix that pins a server to core 0, and a note saying what was done. */
export function pinCores(): { prefix: string[]; note: string } {
  if (os.cpus().length < 2 || !hasTaskset())
    return { prefix: [], note: `not pinned (${hasTaskset() ? 'one core' : 'no taskset'}): servers and load generator share the cores` };
  execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  return {
    prefix: ['taskset', '-c', '0'],
    note: 'each server pinned to core 0, the load generator (this process) to core 1, with taskset',
  };
}

/** Lets this process (and what it spawns) use every core again. */
export function unpinCores(): void {
  if (os.cpus().length >= 2 && hasTaskset())
    execFileSync('taskset', ['-cp', `0-${os.cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
}
