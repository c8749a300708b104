/**
 * One server running at a time (BENCHMARKS.md, "Method"): every benchmarked server is pinned to the
 * same core, and a server left idle is not idle for long — V8's memory reducer runs full collections
 * some seconds after its load stops, job pollers and pg-boss's maintenance wake, a tracing server
 * exports its last spans. On the shared core that work was taken from whichever server was being
 * timed: about one timed run in eight lost 20–30% of its rate to it. So before a server is sent any
 * request, every other one is stopped (SIGSTOP, with its child processes: a cluster's workers) and
 * it is continued (SIGCONT); {@link FocusedServers.resumeAll} lets them all run again.
 */
import { readFileSync } from 'node:fs';

/** The child processes of `pid` (Linux `/proc`), none where that cannot be read. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** `pid` and every process below it (a cluster primary and its workers). */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) tree.push(...childrenOf(tree[index] ?? 0));
  return tree;
}

/** Sends `signal` to a process, ignoring one that has already exited. */
function signal(pid: number, name: 'SIGSTOP' | 'SIGCONT'): void {
  try {
    process.kill(pid, name);
  } catch {
    // Exited: nothing to stop or continue.
  }
}

/** The servers of one benchmark pass, of which {@link focus} lets exactly one run. */
export class FocusedServers {
  private readonly pids = new Set<number>();
  private focused: number | undefined;

  /** Adds the server whose process is `pid` (running). */
  add(pid: number): void {
    if (pid > 0) this.pids.add(pid);
  }

  /** Stops every server but the one of `pid`, and continues that one if it was stopped. */
  focus(pid: number): void {
    if (this.focused === pid) return;
    for (const other of this.pids) if (other !== pid) for (const member of processTree(other)) signal(member, 'SIGSTOP');
    for (const member of processTree(pid)) signal(member, 'SIGCONT');
    this.focused = pid;
  }

  /** Lets every server run again (to read idle memory, to measure something else, to stop them). */
  resumeAll(): void {
    for (const pid of this.pids) for (const member of processTree(pid)) signal(member, 'SIGCONT');
    this.focused = undefined;
  }
}
