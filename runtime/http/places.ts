/**
 * The places an address and a caller may hold (docs/hostile-input.md §15, §16): one accounting for
 * WebSockets (runtime/transports/socket-quotas.ts) and for HTTP connections being answered
 * (./connection-quotas.ts), each with its own limits.
 *
 * An address (its client group, ./client-address.ts) has `perAddress` places; anonymous
 * holders together may take at most `anonymousPerAddress` of them, and a signed-in caller at most
 * `perCaller`, across addresses. Anonymous holders therefore never take the last
 * `perAddress - anonymousPerAddress` places of an address: a member behind an office NAT or a
 * proxy keeps getting places however many anonymous sockets share its address (63 of them used to
 * fill the 64 places, and every WebSocket of the member was closed with 1008 while they answered
 * pings); only other signed-in callers of the address, or the member's own cap, can refuse it.
 */
import type { Principal } from '../auth/ability.js';

/** The limits of one kind of place. */
export interface PlaceLimits {
  /** Places of one address. */
  readonly perAddress: number;
  /** Of an address's places, the most its anonymous holders may take together. */
  readonly anonymousPerAddress: number;
  /** Places of one caller (a principal), whatever addresses it comes from. */
  readonly perCaller: number;
}

/**
 * The anonymous share of `perAddress` places (`APP_HTTP__ANONYMOUS_SHARE`, a fraction): rounded
 * down, so that a share below 1 always leaves signed-in callers a place of their own.
 */
export function anonymousPlaces(perAddress: number, share: number): number {
  return Math.floor(perAddress * share);
}

/** Which limit refused a place: the address's, its anonymous share, or the caller's. */
export type PlaceRefusal = 'address' | 'anonymous' | 'caller';

/** A place taken (released once, by calling `release`; later calls do nothing), or the limit that refused it. */
export type Taken = { readonly release: () => void; readonly refused?: undefined } | { readonly refused: PlaceRefusal };

/** A caller's key: the principal, by subject and org. */
export function callerKey(principal: Principal): string {
  return `${principal.sub}\u0000${principal.org_id}`;
}

/** Counts by key, dropping a key at zero, so what the map holds is bounded by what is held. */
export class Counts {
  private readonly counts = new Map<string, number>();

  /** How many `key` holds. */
  held(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Counts one more of `key` unless it already has `limit`; whether it did. */
  take(key: string, limit: number): boolean {
    const held = this.held(key);
    if (held >= limit) return false;
    this.counts.set(key, held + 1);
    return true;
  }

  /** Counts one fewer of `key`. */
  release(key: string): void {
    const held = this.held(key) - 1;
    if (held > 0) this.counts.set(key, held);
    else this.counts.delete(key);
  }
}

/** The places of one kind (module docstring). */
export class Places {
  private readonly addresses = new Counts();
  private readonly anonymous = new Counts();
  private readonly callers = new Counts();

  constructor(readonly limits: PlaceLimits) {}

  /**
   * Takes a place of address `group` for `principal` (undefined: an anonymous holder). Refused when
   * the caller holds its limit (`caller`), when anonymous holders of the address hold their share
   * (`anonymous`), or when the address holds all its places (`address`); nothing is counted then.
   */
  take(group: string, principal: Principal | undefined): Taken {
    const caller = principal === undefined ? undefined : callerKey(principal);
    if (caller === undefined) {
      if (this.anonymous.held(group) >= this.limits.anonymousPerAddress) return { refused: 'anonymous' };
    } else if (this.callers.held(caller) >= this.limits.perCaller) return { refused: 'caller' };
    if (!this.addresses.take(group, this.limits.perAddress)) return { refused: 'address' };
    if (caller === undefined) this.anonymous.take(group, Number.POSITIVE_INFINITY);
    else this.callers.take(caller, Number.POSITIVE_INFINITY);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.addresses.release(group);
        if (caller === undefined) this.anonymous.release(group);
        else this.callers.release(caller);
      },
    };
  }
}
