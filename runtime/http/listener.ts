/**
 * The Node HTTP server under the Express app (docs/guide/errors.md "Reliability and security"): request and
 * header timeouts against slow clients, problem documents for requests Node's parser refuses, and
 * every `upgrade` handed to the one {@link SocketAcceptor} (docs/hostile-input.md §1).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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
 * cannot hold sockets); checked 4 times per period. An idle kept-alive connection is closed after
 * `APP_HTTP__KEEP_ALIVE_TIMEOUT`. Upgrades go to `sockets`. What Node's parser
 * refuses is answered by {@link answerClientError} and counted as a refusal by `observability`.
 */
export async function listen(
  app: RequestListener,
  config: AppConfig,
  sockets: SocketAcceptor,
  observability: Observability,
): Promise<Server> {
  const server = createServer(
    {
      requestTimeout: config.http.requestTimeout,
      headersTimeout: Math.min(config.http.requestTimeout, 60_000),
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(config.http.requestTimeout / 4))),
    },
    oneAtATime(app, { writeTimeout: config.http.writeTimeout, maxPipelined: MAX_PIPELINED }),
  );
  server.keepAliveTimeout = config.http.keepAliveTimeout;
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

/** Pipelined requests one connection may have waiting behind the one being answered; one more closes it (docs/hostile-input.md §15). */
const MAX_PIPELINED = 16;

/** What {@link oneAtATime} keeps per connection: whether a request is being answered, and the pipelined ones waiting. */
interface Line {
  busy: boolean;
  readonly waiting: [IncomingMessage, ServerResponse][];
}

/**
 * `app`, answering one request of a connection at a time (docs/hostile-input.md §15). Node parses
 * every request of a pipelined chunk at once and renders each answer into memory while the
 * client may read none: here a request that arrives while an earlier one of its connection is
 * unanswered waits, unread, and a connection with more than `maxPipelined` waiting is closed. An
 * answer still unsent when its writing ends (the client is not taking it) must be taken within
 * `writeTimeout` ms, or the connection is closed and the buffered answer released.
 */
function oneAtATime(app: RequestListener, options: { readonly writeTimeout: number; readonly maxPipelined: number }): RequestListener {
  const lines = new WeakMap<Socket, Line>();
  const serve = (line: Line, request: IncomingMessage, response: ServerResponse): void => {
    line.busy = true;
    const socket = request.socket;
    let finished = false;
    let deadline: NodeJS.Timeout | undefined;
    const done = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      line.busy = false;
      const next = line.waiting.shift();
      if (next) serve(line, next[0], next[1]);
    };
    response.once('prefinish', () => {
      if (socket.writableLength > 0) deadline = setTimeout(() => socket.destroy(), options.writeTimeout).unref();
    });
    response.once('finish', done);
    response.once('close', done);
    app(request, response);
  };
  return (request, response) => {
    const socket = request.socket;
    let line = lines.get(socket);
    if (!line) {
      line = { busy: false, waiting: [] };
      lines.set(socket, line);
    }
    if (!line.busy) {
      serve(line, request, response);
      return;
    }
    if (line.waiting.length >= options.maxPipelined) {
      socket.destroy();
      return;
    }
    line.waiting.push([request, response]);
  };
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
