/**
 * What WebSocket clients may hold (docs/hostile-input.md §16): sockets per client address and per
 * caller (a principal), with anonymous sockets in a smaller share of their address's places
 * (runtime/http/places.ts), running subscriptions per caller across all its sockets, and the bytes
 * a socket may have waiting for its client. Each socket's memory is then bounded by the buffer
 * limit plus one message, and each caller's by its sockets and subscriptions, whatever it opens.
 *
 * A socket takes its place once its caller is known: at the handshake when the upgrade says who it
 * is (a gateway's token, or none: anonymous), else when its transport learns it (graphql-ws, at
 * `connection_init`). Until then it waits in its address's waiting room, which holds as many
 * sockets as the address has places; one more sends the longest waiting one away. So sockets that
 * never say who they are cannot keep a member's new socket out: it waits beside them for the moment
 * it takes to send its `connection_init`, and only a flood of new sockets within that moment
 * could send it away.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import type { Principal } from '../auth/ability.js';
import { type AddressReading, clientGroup } from '../http/client-address.js';
import { anonymousPlaces, callerKey, Counts, type PlaceRefusal, Places } from '../http/places.js';

/**
 * The limits (from `APP_HTTP__MAX_SOCKETS_PER_ADDRESS`, `…_PER_CALLER`, `APP_HTTP__ANONYMOUS_SHARE`,
 * `APP_HTTP__SOCKET_BUFFER_BYTES`, `APP_GRAPHQL__MAX_SUBSCRIPTIONS_PER_CALLER`).
 */
export interface SocketLimits {
  readonly perAddress: number;
  readonly perCaller: number;
  /** The fraction of an address's places its anonymous sockets may hold together. */
  readonly anonymousShare: number;
  readonly subscriptionsPerCaller: number;
  readonly bufferBytes: number;
  /** How a socket's client address is read and grouped (`APP_HTTP__TRUST_PROXY`, `APP_HTTP__IPV6_PREFIX`). */
  readonly addresses: AddressReading;
}

/** The quotas of one server process (module docstring). */
export class SocketQuotas {
  private readonly places: Places;
  /** Sockets whose caller is not known yet, by address, in the order they came. */
  private readonly waiting = new Map<string, Set<WebSocket>>();
  private readonly subscriptions = new Counts();

  constructor(readonly limits: SocketLimits) {
    this.places = new Places({
      perAddress: limits.perAddress,
      anonymousPerAddress: anonymousPlaces(limits.perAddress, limits.anonymousShare),
      perCaller: limits.perCaller,
    });
  }

  /** The anonymous sockets one address may hold together. */
  get anonymousPerAddress(): number {
    return this.places.limits.anonymousPerAddress;
  }

  /**
   * Lets `client`, opened by `request`, wait in its address's waiting room until {@link place}
   * (module docstring). Returns the socket it sends away when the room was full — the longest
   * waiting one, which the caller closes with 1008 — or undefined.
   */
  wait(client: WebSocket, request: IncomingMessage): WebSocket | undefined {
    const group = clientGroup(request, this.limits.addresses);
    let room = this.waiting.get(group);
    if (!room) {
      room = new Set();
      this.waiting.set(group, room);
    }
    let evicted: WebSocket | undefined;
    if (room.size >= this.limits.perAddress) {
      evicted = room.values().next().value;
      if (evicted) this.leave(group, evicted);
    }
    room.add(client);
    client.once('close', () => this.leave(group, client));
    return evicted;
  }

  /**
   * Places `client`, opened by `request`, in its address's places until it closes: in `principal`'s
   * share, or the anonymous share when `principal` is undefined; it stops waiting. Returns undefined
   * when it holds a place, else the reason to close it with (1008), naming the setting; nothing is
   * counted then. A socket no longer open is refused too (it would never release its place).
   */
  place(client: WebSocket, request: IncomingMessage, principal: Principal | undefined): string | undefined {
    const group = clientGroup(request, this.limits.addresses);
    this.leave(group, client);
    if (client.readyState !== WebSocket.OPEN) return 'the socket is closing';
    const taken = this.places.take(group, principal);
    if (taken.refused !== undefined) return this.refusal(taken.refused);
    client.once('close', taken.release);
    return undefined;
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

  /** Takes `client` out of the waiting room of `group`, if it is there. */
  private leave(group: string, client: WebSocket): void {
    const room = this.waiting.get(group);
    if (!room?.delete(client)) return;
    if (room.size === 0) this.waiting.delete(group);
  }

  /** What a socket refused by `limit` is told (at most the 123 bytes of a close reason). */
  private refusal(limit: PlaceRefusal): string {
    switch (limit) {
      case 'address':
        return `this address holds ${String(this.limits.perAddress)} WebSockets already (APP_HTTP__MAX_SOCKETS_PER_ADDRESS)`;
      case 'anonymous':
        return `anonymous callers of this address hold ${String(this.anonymousPerAddress)} WebSockets already (APP_HTTP__ANONYMOUS_SHARE); sign in`;
      case 'caller':
        return `you hold ${String(this.limits.perCaller)} WebSockets already (APP_HTTP__MAX_SOCKETS_PER_CALLER)`;
    }
  }
}

/** The reason a socket sent away from a full waiting room is closed with (1008). */
export const WAITED_TOO_LONG =
  'more WebSockets of this address wait to say who they are than it has places (APP_HTTP__MAX_SOCKETS_PER_ADDRESS)';
