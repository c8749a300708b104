/**
 * GraphQL over HTTP on `APP_GRAPHQL__PATH` (docs/behaviour.md §4.1; docs/guide/graphql.md "GraphQL over HTTP"): `POST` runs
 * operations through graphql-http (./handler.ts), `GET` runs a persisted document named in its
 * query string when trusted documents are on (docs/behaviour.md §4.10) and otherwise serves the
 * playground when `APP_GRAPHQL__PLAYGROUND=true` (./playground.ts), and every other method — or
 * another `GET` with the playground off — is 405. The path is self-mounted and neutral to version selection (docs/behaviour.md §9.3.3).
 *
 * A `POST` in the common form — a JSON body (UTF-8, not compressed) within the body limit, an
 * `Accept` naming a GraphQL media type graphql-http answers, or none — is answered before the
 * Express chain (runtime/http/direct.ts, docs/decisions.md §6), in one pass when its body is in the
 * form graphql-http reads plainly (./handler.ts `answerCommon`): the REST routes' middleware has
 * nothing to do for it. Every other request takes the Express route and graphql-http's handler,
 * which answer the same way and also say why they refuse (415, 406, 413).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import bytes from 'bytes';
import express, { type Express, type Request, type Response } from 'express';
import type { Handler, Response as GraphQLResponse } from 'graphql-http';
import type { Logger } from 'pino';
import type { AppConfig } from '../../server/config.js';
import { namesUtf8OrNoCharset, unsupportedBodyDetail } from '../../http/media-type.js';
import { answerError } from '../../http/pipeline.js';
import { problem, sendError, sendProblem } from '../../http/problem.js';
import { type RequestState, stateOf } from '../../http/request-state.js';
import { defineTransport, type DirectAnswer, type DirectRoute, type Transport, type TransportFactory } from '../index.js';
import { answerBudget } from '../../http/answer.js';
import { acceptedType, createGraphQLHandler, type GraphQLHttpHandler } from './handler.js';
import { mountPlayground } from './playground.js';

/** The GraphQL-over-HTTP transport of the server's GraphQL engine. */
export function graphqlOverHttp<Container>(): TransportFactory<Container> {
  return defineTransport('graphql', ({ config, logger, graphql, observability, rateLimit }): Transport => {
    // The requests answered directly carry their state here; the Express route's in `response.locals`.
    const direct = new WeakMap<IncomingMessage, RequestState>();
    const handler = createGraphQLHandler({
      schema: graphql.schema,
      path: config.graphql.path,
      logger,
      preparer: graphql.preparer,
      stateOf: (request) => direct.get(request) ?? stateOf((request as Request).res as Response),
      observability,
      answers: answerBudget(config.graphql.maxResponseBytes, rateLimit),
      trustedDocuments: config.graphql.trustedDocuments,
    });
    return {
      name: 'graphql',
      entrypoints: [
        { name: 'graphql', path: config.graphql.path, description: 'GraphQL over HTTP (POST)' },
        ...(config.graphql.playground
          ? [{ name: 'playground', path: config.graphql.path, description: 'GraphQL playground (GraphiQL, in a browser)' }]
          : []),
      ],
      http: {
        placement: 'neutral',
        paths: config.graphql.playground ? [config.graphql.path, `${config.graphql.path}/assets/*`] : [config.graphql.path],
        mount: (app) => mountGraphQL(app, config, handler.handle),
        direct: [directGraphQL(config, handler, direct, logger)],
      },
    };
  });
}

/**
 * Writes an answer (graphql-http's `Response`: body and status line) on a Node response, with its
 * `Content-Length` (bytes): in one write with its headers, where a body with no length would be sent chunked.
 */
function send(response: ServerResponse, [text, init]: GraphQLResponse): void {
  const sent = text ?? '';
  response.writeHead(init.status, init.statusText, { ...init.headers, 'content-length': Buffer.byteLength(sent) }).end(sent);
}

/** Answers `request` (its body read: `body`) through graphql-http's handler. */
async function answer(
  handler: Handler<IncomingMessage, undefined>,
  request: IncomingMessage,
  body: string | Record<string, unknown>,
  response: ServerResponse,
): Promise<void> {
  send(
    response,
    await handler({
      method: request.method ?? 'POST',
      url: request.url ?? '/',
      // A POST reaching here was checked to be JSON in UTF-8 (runtime/http/media-type.ts): graphql-http
      // reads the first parameter as the charset and would refuse `; charset="utf-8"` or any other one.
      headers: request.method === 'POST' ? { ...request.headers, 'content-type': 'application/json' } : request.headers,
      body,
      raw: request,
      context: undefined,
    }),
  );
}

/**
 * Mounts `POST <path>` (415 for a body that is not JSON in UTF-8, 406 for an `Accept` naming neither
 * GraphQL media type, 413 past `APP_HTTP__BODY_LIMIT`), with trusted documents a GET naming a
 * persisted document (406 likewise), the playground, and 405 for the rest.
 */
function mountGraphQL(app: Express, config: AppConfig, handler: Handler<IncomingMessage, undefined>): void {
  const path = config.graphql.path;
  // GraphQL over HTTP takes JSON and answers JSON; say so in a problem document (graphql-http
  // would answer 415/406 with no body at all).
  const notAcceptable = (request: Request, response: Response): boolean => {
    if (request.accepts(['application/graphql-response+json', 'application/json'])) return false;
    sendProblem(
      response,
      problem(406, 'NOT_ACCEPTABLE', 'GraphQL answers application/graphql-response+json or application/json; accept one of them'),
    );
    return true;
  };
  app.post(path, (request, response, next) => {
    // A JSON body in UTF-8, as every JSON route takes one (runtime/http/media-type.ts); refused here with a body.
    const json = Boolean(request.is('application/json'));
    const contentType = request.get('content-type');
    if (!json || !namesUtf8OrNoCharset(contentType)) {
      sendProblem(response, problem(415, 'UNSUPPORTED_MEDIA_TYPE', unsupportedBodyDetail('the GraphQL request', contentType, json)));
    } else if (!notAcceptable(request, response)) next();
  });
  // The body is read here, within APP_HTTP__BODY_LIMIT (413 past it), as text: graphql-http parses it.
  app.post(path, express.text({ type: () => true, limit: config.http.bodyLimit }), (request, response, next) => {
    // An empty body leaves nothing for graphql-http to read (the stream is spent): hand it an empty
    // request, which it answers 400 "Missing query".
    const body: unknown = request.body;
    answer(handler, request, typeof body === 'string' && body !== '' ? body : {}, response).catch(next);
  });
  // A persisted document may be asked for over GET (docs/behaviour.md §4.10): a query whose URL a
  // cache can key; queries only (graphql-http answers a mutation over GET 405). Any other GET is
  // the playground's, or 405, as before.
  if (config.graphql.trustedDocuments !== 'off') {
    app.get(path, (request, response, next) => {
      const query = request.query as Record<string, unknown>;
      if (query.documentId === undefined && query.extensions === undefined) {
        next();
        return;
      }
      if (notAcceptable(request, response)) return;
      answer(handler, request, {}, response).catch(next);
    });
  }
  if (config.graphql.playground) mountPlayground(app, path);
  // With trusted documents on, a GET naming a persisted document is answered too: say so.
  const allowed = config.graphql.trustedDocuments === 'off' ? 'POST' : 'GET, POST';
  const detail =
    config.graphql.trustedDocuments === 'off'
      ? `${path} answers POST; the playground is off (APP_GRAPHQL__PLAYGROUND=true serves it on GET)`
      : `${path} answers POST, and GET naming a persisted document (?documentId=sha256:…); the playground is off (APP_GRAPHQL__PLAYGROUND=true serves it on GET)`;
  app.all(path, (_request, response) => {
    sendProblem(response, problem(405, 'METHOD_NOT_ALLOWED', detail), { Allow: allowed });
  });
}

/**
 * Whether a request is in the form the direct route answers: a JSON body in UTF-8, not
 * compressed, announced within the body limit, and an `Accept` that names a GraphQL media type
 * graphql-http answers (or none). Anything else — including every request the Express route refuses (415, 406, 413)
 * — is declined, for the Express route to answer.
 */
function commonForm(request: IncomingMessage, bodyLimit: number): boolean {
  const headers = request.headers;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  if (contentType.split(';', 1)[0]?.trim() !== 'application/json' || !namesUtf8OrNoCharset(contentType)) return false;
  const length = headers['content-length'];
  if (length === undefined ? headers['transfer-encoding'] === undefined : !/^\d+$/.test(length) || Number(length) > bodyLimit) return false;
  const accept = headers.accept;
  // Weights are Express's to read; a type graphql-http would answer 406 is the route's to refuse with a problem document.
  return accept === undefined || (!accept.includes('q=0') && acceptedType(accept) !== undefined);
}

/** Reads a request's body as UTF-8 text; rejects with a 413-status error past `limit` bytes, 400 when it ends early. */
function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (status: number, message: string): void => {
      if (settled) return;
      settled = true;
      request.removeListener('data', onData);
      reject(Object.assign(new Error(message), { status }));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) fail(413, 'request entity too large');
      else chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
    request.once('aborted', () => fail(400, 'request aborted'));
    request.once('error', () => fail(400, 'request error'));
  });
}

/** `POST <path>` in its common form, answered before the Express chain (module docstring). */
function directGraphQL(
  config: AppConfig,
  handler: GraphQLHttpHandler,
  states: WeakMap<IncomingMessage, RequestState>,
  logger: Logger,
): DirectRoute {
  const limit = bytes.parse(config.http.bodyLimit) ?? undefined;
  const path = config.graphql.path;
  const direct: DirectAnswer = {
    route: path,
    handle: async (request: IncomingMessage, response: ServerResponse, state: RequestState) => {
      let text: string;
      try {
        text = await readBody(request, limit ?? 0);
      } catch (error) {
        answerError(response, error, config, logger);
        return;
      }
      try {
        const common = text === '' ? undefined : await handler.answerCommon(request, text, state);
        if (common) send(response, common);
        else {
          states.set(request, state);
          await answer(handler.handle, request, text === '' ? {} : text, response);
        }
      } catch (error) {
        sendError(response, error, logger);
      }
    },
  };
  return {
    match: (request, requestPath) =>
      request.method === 'POST' && requestPath === path && limit !== undefined && commonForm(request, limit) ? direct : undefined,
  };
}
