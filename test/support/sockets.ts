/**
 * The WebSocket paths a test server accepts, read from its boot log (one line per registered path,
 * written by `SocketAcceptor.register`), and a well-behaved client for each, to check that a path
 * still serves its other clients after one of them misbehaved. A transport added later is found
 * here without any test naming its path; only its probe has to be written once.
 */
import WebSocket from 'ws';
import { messageText } from '../../runtime/transports/sockets.js';
import type { TestServer } from './server.js';

/** One socket path, as the server logged it at boot. */
export interface SocketPath {
  readonly path: string;
  readonly transport: string;
  readonly protocols: readonly string[];
}

/** Every socket path the server logged, in boot order. */
export function socketPaths(server: Pick<TestServer, 'logs'>): SocketPath[] {
  return server.logs
    .filter((entry) => typeof entry.socket === 'string' && typeof entry.transport === 'string')
    .map((entry) => ({
      path: entry.socket as string,
      transport: entry.transport as string,
      protocols: (entry.protocols as string[] | undefined) ?? [],
    }));
}

/** A connected, well-behaved client of one socket path. */
export interface Probe {
  /** Resolves once the server has answered one more exchange on this client. */
  check(): Promise<void>;
  close(): void;
}

/** Sends `message` and resolves with the next message parsed, failing after 5 s. */
function exchange(socket: WebSocket, message: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(message)}`)), 5_000);
    socket.once('message', (data) => {
      clearTimeout(timer);
      resolve(JSON.parse(messageText(data)) as Record<string, unknown>);
    });
    socket.send(JSON.stringify(message));
  });
}

/**
 * Connects a client to `socket` speaking its transport's protocol. Throws for a transport this
 * helper does not know yet: write its probe here (one exchange any deployment answers).
 */
export async function openProbe(server: Pick<TestServer, 'url'>, socket: SocketPath, token?: string): Promise<Probe> {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const client = new WebSocket(`${server.url.replace(/^http/, 'ws')}${socket.path}${query}`, [...socket.protocols]);
  await new Promise((resolve, reject) => {
    client.once('open', resolve);
    client.once('error', reject);
  });
  const probe = (check: () => Promise<void>): Probe => ({ check, close: () => client.close(1000) });
  if (socket.transport === 'graphql-ws') {
    const ack = await exchange(client, { type: 'connection_init', payload: {} });
    if (ack.type !== 'connection_ack') throw new Error(`graphql-ws answered connection_init with ${JSON.stringify(ack)}`);
    return probe(async () => {
      const pong = await exchange(client, { type: 'ping' });
      if (pong.type !== 'pong') throw new Error(`graphql-ws answered ping with ${JSON.stringify(pong)}`);
    });
  }
  if (socket.transport.startsWith('gateway ')) {
    // Every gateway answers an event it does not handle with NOT_FOUND, whatever its handlers.
    return probe(async () => {
      const reply = await exchange(client, { event: '__probe__' });
      if ((reply.error as { code?: string } | undefined)?.code !== 'NOT_FOUND')
        throw new Error(`${socket.transport} answered ${JSON.stringify(reply)}`);
    });
  }
  client.terminate();
  throw new Error(`no probe for the socket transport "${socket.transport}" at ${socket.path}: add one to test/support/sockets.ts`);
}
