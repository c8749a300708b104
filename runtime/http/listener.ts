/**
 * The Node HTTP server under the Express app (README "Reliability and security"): request and
 * header timeouts against slow clients, problem documents for requests Node's parser refuses, and
 * every `upgrade` handed to the one {@link SocketAcceptor} (docs/hostile-input.md §1).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Observability } from '../observability/index.js';
import { generateRequestId } from '../observability/request-id.js';
import type { AppConfig } from '../server/config.js';
import type { SocketAcceptor } from '../transports/sockets.js';
import { problem, writeRawProblem } from './problem.js';

/**
 * Serves `app` (the Express app, behind any direct routes: runtime/http/direct.ts) on `APP_HTTP__HOST`:`APP_HTTP__PORT` and resolves once it listens; rejects with the
 * listen error (a port in use). A request (headers and body) must arrive within
 * `APP_HTTP__REQUEST_TIMEOUT`, or Node answers 408 and closes the connection (slow-loris clients
 * cannot hold sockets); checked 4 times per period. Upgrades go to `sockets`. What Node's parser
 * refuses is answered by {@link answerClientError} and counted as a refusal by `observability`.
 */
export async function listen(app: RequestListener, config: AppConfig, sockets: SocketAcceptor, observability: Observability): Promise<Server> {
  const server = createServer(
    {
      requestTimeout: config.http.requestTimeout,
      headersTimeout: Math.min(config.http.requestTimeout, 60_000),
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(config.http.requestTimeout / 4))),
    },
    app,
  );
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    const code = answerClientError(error, socket);
    if (code !== undefined) observability.refused(code);
  });
  server.on('upgrade', (request, socket, head) => sockets.accept(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http.port, config.http.host, () => resolve());
  });
  return server;
}

/**
 * Answers a request Node's HTTP parser refused before any route saw it, as a problem document
 * instead of a bare status line: 408 when it did not arrive within APP_HTTP__REQUEST_TIMEOUT,
 * 431 when its headers (the URL included) pass Node's 16 KiB limit, 400 otherwise. The connection
 * is closed after the answer, which carries a new request id (the request's own could not be read).
 * Returns the answer's code, or undefined when the client had gone.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): string | undefined {
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return undefined;
  }
  const [status, code, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'the request did not arrive in full within the request timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', 'the request line and headers exceed 16 KiB; send long values in a body']
        : [400, 'BAD_REQUEST', 'the request is not valid HTTP/1.1'];
  writeRawProblem(socket, problem(status, code, detail), generateRequestId());
  return code;
}
