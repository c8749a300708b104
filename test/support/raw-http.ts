/**
 * A raw TCP exchange with a test server, for what `fetch` and `ws` refuse to send or hide:
 * malformed or incomplete HTTP, a WebSocket handshake whose answer the client library would reject,
 * frames no client library writes (see `ws-frames.ts`).
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /** Stops reading once this returns true for what arrived so far (default: read until the server closes). */
  readonly enough?: (received: Buffer) => boolean;
  /** Fails when the server neither closes nor says enough within this many milliseconds (default 10 000). */
  readonly timeout?: number;
}

/** Writes `request` to the server at `url` and returns every byte the server sent back. */
export function rawExchange(url: string, request: string | Buffer, options: RawExchangeOptions = {}): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, options.timeout ?? 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (options.enough?.(Buffer.concat(chunks))) socket.destroy();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The JSON body of a raw HTTP answer (what follows the blank line). */
export function rawBody(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

/** The request of a WebSocket handshake for `path`, offering `protocols`. */
export function upgradeRequest(path: string, protocols: readonly string[] = [], headers: Readonly<Record<string, string>> = {}): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    'Host: localhost',
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
  ];
  if (protocols.length > 0) lines.push(`Sec-WebSocket-Protocol: ${protocols.join(', ')}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A WebSocket opened over a plain TCP socket: the handshake is done, every later byte is the test's. */
export interface RawWebSocket {
  /** The TCP socket; write frames to it (`encodeFrame`), end or destroy it at will. */
  readonly socket: Socket;
  /** Every byte the server sent after its 101 answer, so far. */
  received(): Buffer;
  /** Settles with everything received after the 101 once the server (or the test) has closed the connection. */
  readonly closed: Promise<Buffer>;
}

/**
 * Opens a WebSocket on `path` of the server at `url` over raw TCP; resolves once the 101 has
 * arrived. Rejects with the server's answer when it is not 101, or after `timeout` ms (default 10 000).
 */
export function rawWebSocket(
  url: string,
  path: string,
  options: { protocols?: readonly string[]; headers?: Readonly<Record<string, string>>; timeout?: number } = {},
): Promise<RawWebSocket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = Buffer.alloc(0);
    let after: Buffer[] | undefined;
    const socket = connect(Number(port), hostname, () => socket.write(upgradeRequest(path, options.protocols, options.headers)));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to the upgrade of ${path}`));
    }, options.timeout ?? 10_000);
    const closed = new Promise<Buffer>((settle) => socket.once('close', () => settle(Buffer.concat(after ?? []))));
    // A reset while the test writes garbage is an expected outcome, not a test failure.
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (after) {
        after.push(chunk);
        return;
      }
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(timer);
      const head = answer.subarray(0, end).toString('latin1');
      if (!head.startsWith('HTTP/1.1 101 ')) {
        socket.destroy();
        reject(new Error(`the upgrade of ${path} was answered ${answer.toString('latin1')}`));
        return;
      }
      after = [answer.subarray(end + 4)];
      resolve({ socket, received: () => Buffer.concat(after ?? []), closed });
    });
    socket.once('close', () => {
      clearTimeout(timer);
      if (!after) reject(new Error(`the server closed the connection during the upgrade of ${path}: ${answer.toString('latin1')}`));
    });
  });
}
