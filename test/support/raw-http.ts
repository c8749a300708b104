/**
 * A raw TCP exchange with a test server, for what `fetch` and `ws` refuse to send or hide:
 * malformed or incomplete HTTP, a WebSocket handshake whose answer the client library would reject.
 */
import { connect } from 'node:net';

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /** Stops reading once this returns true for what arrived so far (default: read until the server closes). */
  readonly enough?: (received: Buffer) => boolean;
  /** Fails when the server neither closes nor says enough within this many milliseconds (default 10 000). */
  readonly timeout?: number;
}

/** Writes `request` to the server at `url` and returns every byte the server sent back. */
export function rawExchange(url: string, request: string, options: RawExchangeOptions = {}): Promise<Buffer> {
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
