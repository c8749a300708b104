/**
 * WebSocket gateways (spec §4.4, §9.5): a gateway owns its socket path, versioned by the URL
 * (`/v1/ws`) and neutral to header / media-type version selection. The bearer token comes with the
 * upgrade request (`Authorization` header, or `?token=` for browsers); each message
 * `{ "event", "data" }` runs its handler in the caller's ambient context and is answered with
 * `{ "event", "data" }` or `{ "event", "error": { "code", "message" } }`.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AbilityCache } from './ability.js';
import type { Authentication, TokenVerifier } from './auth.js';
import { type RequestContext, runInContext } from './context.js';
import { classifyError, DATABASE_ERROR_MESSAGE, INTERNAL_ERROR_MESSAGE } from './errors.js';

/** What a gateway handler runs with. */
export interface GatewayCall {
  readonly request: RequestContext;
  readonly authentication: Authentication;
}

/** One message handler, as generated. */
export interface GatewayHandler {
  readonly event: string;
  /** Runs the handler (posture gate included); the value is sent back as `data`. */
  readonly handle: (data: unknown, call: GatewayCall) => unknown;
}

/** One gateway, as generated. */
export interface GatewayDefinition {
  readonly name: string;
  /** The socket path clients connect to, version included (`/v1/ws`). */
  readonly path: string;
  readonly version: string | undefined;
  readonly handlers: readonly GatewayHandler[];
}

/** Everything gateways need from the server. */
export interface GatewayServices {
  readonly verifier: TokenVerifier;
  readonly abilities: AbilityCache;
  readonly logger: Logger;
  /** Largest message a client may send, bytes (larger: closed with 1009). */
  readonly maxPayload: number;
}

/** The token of an upgrade request: `Authorization: Bearer …`, or `?token=…` (browsers cannot set headers). */
function credentialsOf(request: IncomingMessage): string | undefined {
  if (request.headers.authorization) return request.headers.authorization;
  const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
  return token ? `Bearer ${token}` : undefined;
}

/** A socket server per gateway; `handleUpgrade` routes an upgrade request by path. */
export class GatewayHost {
  private readonly servers = new Map<string, { gateway: GatewayDefinition; server: WebSocketServer }>();

  constructor(
    gateways: readonly GatewayDefinition[],
    private readonly services: GatewayServices,
  ) {
    for (const gateway of gateways) this.servers.set(gateway.path, { gateway, server: new WebSocketServer({ noServer: true, maxPayload: services.maxPayload }) });
  }

  /** The paths gateways own (neutral to version selection). */
  paths(): string[] {
    return [...this.servers.keys()];
  }

  /** Takes over an upgrade request if a gateway owns its path; returns whether it did. */
  handleUpgrade(request: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): boolean {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const entry = this.servers.get(path);
    if (!entry) return false;
    void this.services.verifier.authenticate(credentialsOf(request)).then((authentication) => {
      const principal = authentication.kind === 'authenticated' ? authentication.principal : undefined;
      const context: RequestContext = { principal, ability: principal ? this.services.abilities.for(principal) : undefined, unscoped: false };
      entry.server.handleUpgrade(request, socket, head, (client) => this.serve(entry.gateway, client, { request: context, authentication }));
    });
    return true;
  }

  private serve(gateway: GatewayDefinition, client: WebSocket, call: GatewayCall): void {
    client.on('message', (raw) => {
      let event = '';
      let data: unknown;
      try {
        const message = JSON.parse(raw.toString()) as { event?: unknown; data?: unknown };
        if (typeof message.event !== 'string') throw new Error('no event');
        event = message.event;
        data = message.data;
      } catch {
        client.send(JSON.stringify({ event: 'error', error: { code: 'BAD_USER_INPUT', message: 'messages are JSON objects { "event": string, "data": any }' } }));
        return;
      }
      const handler = gateway.handlers.find((candidate) => candidate.event === event);
      if (!handler) {
        client.send(JSON.stringify({ event, error: { code: 'NOT_FOUND', message: `${gateway.name} answers ${gateway.handlers.map((h) => h.event).join(', ')}` } }));
        return;
      }
      runInContext(call.request, async () => handler.handle(data, call)).then(
        (result) => client.send(JSON.stringify({ event, data: result })),
        (error: unknown) => client.send(JSON.stringify({ event, error: this.describe(error, gateway) })),
      );
    });
  }

  private describe(error: unknown, gateway: GatewayDefinition): { code: string; message: string } {
    const classified = classifyError(error);
    if (classified.kind === 'failure') return { code: classified.failure.code, message: classified.failure.message };
    this.services.logger.error({ err: error, gateway: gateway.name }, 'gateway handler failed');
    return { code: 'INTERNAL_SERVER_ERROR', message: classified.kind === 'database' ? DATABASE_ERROR_MESSAGE : INTERNAL_ERROR_MESSAGE };
  }

  /** Closes every socket with `code` (1001 on shutdown). */
  close(code = 1001): void {
    for (const { server } of this.servers.values()) {
      for (const client of server.clients) client.close(code, 'server shutting down');
      server.close();
    }
  }
}
