/**
 * IPv6 addresses on the loopback interface, for suites whose clients must come from several
 * addresses of one network and of others (docs/hostile-input.md §12, §15, §16): loopback has `::1`
 * alone, so a suite adds addresses of the documentation prefix (2001:db8::/32) to `lo` and removes
 * them afterwards. Every address of a run lies in `2001:db8:<pid>::/48`, one /64 per network index,
 * so parallel runs do not collide. Adding addresses needs root and iproute2's `ip`; where either is
 * missing {@link loopbackIpv6Unavailable} says so in one line, and suites skip themselves unless
 * `REQUIRE_HOSTS=1` (which `.ci/run` sets), which turns that skip into a failure.
 */
import { execFileSync } from 'node:child_process';

/** Why addresses cannot be added here, or undefined when they can. */
export function loopbackIpv6Unavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'adding IPv6 addresses to lo needs root';
  try {
    execFileSync('ip', ['-6', 'addr', 'show', 'dev', 'lo'], { stdio: 'ignore' });
  } catch {
    return "iproute2's ip is not on PATH, or lo has no IPv6";
  }
  return undefined;
}

/** Whether a suite must fail rather than skip where addresses cannot be added. */
export function loopbackIpv6Required(): boolean {
  return process.env.REQUIRE_HOSTS === '1';
}

/** Addresses added to `lo`; {@link remove} takes them away again. */
export interface LoopbackIpv6 {
  /** The address of host `host` (from 1) in network `network` (from 0): `2001:db8:<pid>:<network>::<host>`. */
  address(network: number, host: number): string;
  /** Removes every address added (also done when the process exits). */
  remove(): void;
}

/** Adds hosts 1 to `hosts` of networks 0 to `networks - 1` (each a /64) to `lo`. Throws when `ip` refuses. */
export function addLoopbackIpv6(networks: number, hosts: number): LoopbackIpv6 {
  const run = (process.pid & 0xffff).toString(16);
  const address = (network: number, host: number): string => `2001:db8:${run}:${network.toString(16)}::${host.toString(16)}`;
  const added: string[] = [];
  const remove = (): void => {
    for (const each of added.splice(0)) {
      try {
        execFileSync('ip', ['-6', 'addr', 'del', `${each}/64`, 'dev', 'lo'], { stdio: 'ignore' });
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', remove);
  try {
    for (let network = 0; network < networks; network++) {
      for (let host = 1; host <= hosts; host++) {
        const each = address(network, host);
        // `nodad`: usable at once, without duplicate address detection's wait.
        execFileSync('ip', ['-6', 'addr', 'add', `${each}/64`, 'dev', 'lo', 'nodad'], { stdio: 'ignore' });
        added.push(each);
      }
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { address, remove };
}
