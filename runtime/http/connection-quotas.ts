/**
 * HTTP connections per client address and per caller (docs/hostile-input.md §15): what one client
 * can make the server hold in answers. A connection answers one request at a time
 * (./listener.ts), and from the moment its caller is known until its answer has been taken — handed
 * to the network in full — or the connection is gone, it holds a place of its address and of its
 * caller (./places.ts): at most `APP_HTTP__MAX_CONNECTIONS_PER_ADDRESS` per address (anonymous
 * callers together `APP_HTTP__ANONYMOUS_SHARE` of them) and `APP_HTTP__MAX_CONNECTIONS_PER_CALLER`
 * per caller. A connection with no place is answered 429 `TOO_MANY_REQUESTS` with `Retry-After: 1`
 * and closed, before any route runs, so it holds nothing but that small answer. An answer whose
 * client does not take it is released after `APP_HTTP__WRITE_TIMEOUT` (./listener.ts), which frees
 * its place: 200 connections of one caller that never read each held a 5.85 MB page (2.41 GB);
 * now a caller's 17th at once is refused.
 *
 * Idle kept-alive connections hold no place (they hold no answer, and `APP_HTTP__KEEP_ALIVE_TIMEOUT`
 * closes them), and `/health` takes none, as the rate limit spares it: a load balancer's checks,
 * which come from one address, must not be refused for the traffic it forwards.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authentication } from '../auth/authentication.js';
import { type AddressReading, clientGroup } from './client-address.js';
import { anonymousPlaces, type PlaceRefusal, Places } from './places.js';
import { problem, sendProblem } from './problem.js';
import { stateOf } from './request-state.js';

/** The limits (`APP_HTTP__MAX_CONNECTIONS_PER_ADDRESS`, `…_PER_CALLER`, `APP_HTTP__ANONYMOUS_SHARE`). */
export interface ConnectionLimits {
  readonly perAddress: number;
  readonly perCaller: number;
  /** The fraction of an address's places its anonymous callers may hold together. */
  readonly anonymousShare: number;
  /** How a request's client address is read and grouped (`APP_HTTP__TRUST_PROXY`, `APP_HTTP__IPV6_PREFIX`). */
  readonly addresses: AddressReading;
}

/**
 * The seconds a refused client is told to wait: places free as answers are taken, not at the end
 * of a window, so the next second is as good a time as any.
 */
const RETRY_AFTER_SECONDS = 1;

/** The connection quotas of one server process (module docstring). */
export class ConnectionQuotas {
  private readonly places: Places;

  constructor(readonly limits: ConnectionLimits) {
    this.places = new Places({
      perAddress: limits.perAddress,
      anonymousPerAddress: anonymousPlaces(limits.perAddress, limits.anonymousShare),
      perCaller: limits.perCaller,
    });
  }

  /**
   * Takes a place for the connection answering `request` as the caller `authentication` names
   * (anonymous unless authenticated), held until `response` closes — once its answer has been taken,
   * or its connection is gone. Returns true when it holds one; false when there is none, having
   * answered 429 `TOO_MANY_REQUESTS` (naming the setting, `Retry-After`, `Connection: close`).
   */
  admit(request: IncomingMessage, response: ServerResponse, authentication: Authentication): boolean {
    const taken = this.places.take(
      clientGroup(request, this.limits.addresses),
      authentication.kind === 'authenticated' ? authentication.principal : undefined,
    );
    if (taken.refused === undefined) {
      response.once('close', taken.release);
      return true;
    }
    sendProblem(response, problem(429, 'TOO_MANY_REQUESTS', this.refusal(taken.refused)), {
      'Retry-After': String(RETRY_AFTER_SECONDS),
      // The connection goes with its refusal: a client past its places gets no more answers on it.
      Connection: 'close',
    });
    return false;
  }

  /** The Express middleware running {@link admit} after the authentication step (runtime/http/request-state.ts). */
  middleware(): RequestHandler {
    return (request: Request, response: Response, next: NextFunction) => {
      if (this.admit(request, response, stateOf(response).authentication)) next();
    };
  }

  /** What a client refused by `limit` is told. */
  private refusal(limit: PlaceRefusal): string {
    switch (limit) {
      case 'address':
        return `this address has ${String(this.limits.perAddress)} connections being answered already (APP_HTTP__MAX_CONNECTIONS_PER_ADDRESS); retry after the Retry-After delay`;
      case 'anonymous':
        return `anonymous callers of this address have ${String(this.places.limits.anonymousPerAddress)} connections being answered already (APP_HTTP__ANONYMOUS_SHARE); sign in, or retry after the Retry-After delay`;
      case 'caller':
        return `you have ${String(this.limits.perCaller)} connections being answered already (APP_HTTP__MAX_CONNECTIONS_PER_CALLER); take their answers, or retry after the Retry-After delay`;
    }
  }
}
