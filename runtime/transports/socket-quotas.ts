/**
 * What WebSocket clients may hold (docs/hostile-input.md §16): sockets per client address and per
 * caller (a principal), running subscriptions per caller across all its sockets, and the bytes a
 * socket may have waiting for its client. Each socket's memory is then bounded by the buffer limit
 * plus one message, and each caller's by its sockets and subscriptions, whatever it opens.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import type { Principal } from '../auth/ability.js';
import { type AddressReading, clientGroup } from '../http/client-address.js';

/** The limits (from `APP_HTTP__MAX_SOCKETS_PER_ADDRESS`, `…_PER_CALLER`, `APP_HTTP__SOCKET_BUFFER_BYTES`, `APP_GRAPHQL__MAX_SUBSCRIPTIONS_PER_CALLER`). */
export interface SocketLimits {
  readonly perAddress: number;
  readonly perCaller: number;
  readonly subscriptionsPerCaller: number;
  readonly bufferBytes: number;
  /** How a socket's client address is read and grouped (`APP_HTTP__TRUST_PROXY`, `APP_HTTP__IPV6_PREFIX`). */
  readonly addresses: AddressReading;
}

/** A caller's key: the principal, by subject and org. */
function callerKey(principal: Principal): string {
  return `${principal.sub}\u0000${principal.org_id}`;
}

/** Counts by key, dropping a key at zero. */
class Counts {
  private readonly counts = new Map<string, number>();

  /** Counts one more of `key` unless it already has `limit`; whether it did. */
  take(key: string, limit: number): boolean {
    const held = this.counts.get(key) ?? 0;
    if (held >= limit) return false;
    this.counts.set(key, held + 1);
    return true;
  }

  release(key: string): void {
    const held = (this.counts.get(key) ?? 0) - 1;
    if (held > 0) this.counts.set(key, held);
    else this.counts.delete(key);
  }
}

/** The quotas of one server process (module docstring). */
export class SocketQuotas {
  private readonly addresses = new Counts();
  private readonly callers = new Counts();
  private readonly subscriptions = new Counts();

  constructor(readonly limits: SocketLimits) {}

  /** Counts `client`, opened by `request`, against its address until it closes; false (nothing counted) when the address holds its limit. */
  holdAddress(client: WebSocket, request: IncomingMessage): boolean {
    const key = clientGroup(request, this.limits.addresses);
    if (!this.addresses.take(key, this.limits.perAddress)) return false;
    client.once('close', () => this.addresses.release(key));
    return true;
  }

  /** Counts `client` against `principal` until it closes; false (nothing counted) when the caller holds its limit. */
  holdCaller(client: WebSocket, principal: Principal): boolean {
    const key = callerKey(principal);
    if (!this.callers.take(key, this.limits.perCaller)) return false;
    client.once('close', () => this.callers.release(key));
    return true;
  }

  /**
   * Counts one running subscription of `principal`; the function ending it, or undefined when the
   * caller already runs its limit. Anonymous subscriptions count under one key.
   */
  startSubscription(principal: Principal | undefined): (() => void) | undefined {
    const key = principal ? callerKey(principal) : 'anonymous';
    if (!this.subscriptions.take(key, this.limits.subscriptionsPerCaller)) return undefined;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.subscriptions.release(key);
    };
  }

  /** Whether `client` has more bytes waiting for its client than a socket may (it is then closed rather than sent more). */
  overBuffered(client: WebSocket): boolean {
    return client.readyState === WebSocket.OPEN && client.bufferedAmount > this.limits.bufferBytes;
  }
}
