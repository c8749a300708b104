/**
 * GraphQL over HTTP on `APP_GRAPHQL__PATH` (docs/behaviour.md §4.1; README "GraphQL over HTTP"): `POST` runs
 * operations through graphql-http (./handler.ts), `GET` serves the playground when
 * `APP_GRAPHQL__PLAYGROUND=true` (./playground.ts), and every other method — or `GET` with the
 * playground off — is 405. The path is self-mounted and neutral to version selection (docs/behaviour.md §9.3.3).
 */
import express, { type Express, type Response } from 'express';
import type { Logger } from 'pino';
import type { AppConfig } from '../../server/config.js';
import type { GraphQLEngine } from '../../graphql/engine.js';
import { problem, sendProblem } from '../../http/problem.js';
import type { Observability } from '../../observability/index.js';
import { stateOf } from '../../http/request-state.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';
import { createGraphQLHandler } from './handler.js';
import { mountPlayground } from './playground.js';

/** The GraphQL-over-HTTP transport of the server's GraphQL engine. */
export function graphqlOverHttp<Container>(): TransportFactory<Container> {
  return defineTransport('graphql', ({ config, logger, graphql, observability }): Transport => ({
    name: 'graphql',
    entrypoints: [
      { name: 'graphql', path: config.graphql.path, description: 'GraphQL over HTTP (POST)' },
      ...(config.graphql.playground ? [{ name: 'playground', path: config.graphql.path, description: 'GraphQL playground (GraphiQL, in a browser)' }] : []),
    ],
    http: {
      placement: 'neutral',
      paths: config.graphql.playground ? [config.graphql.path, `${config.graphql.path}/assets/*`] : [config.graphql.path],
      mount: (app) => mountGraphQL(app, config, graphql, logger, observability),
    },
  }));
}

/**
 * Mounts `POST <path>` (415 for a body that is not JSON, 406 for an `Accept` naming neither
 * GraphQL media type, 413 past `APP_HTTP__BODY_LIMIT`), the playground, and 405 for the rest.
 */
function mountGraphQL(app: Express, config: AppConfig, graphql: GraphQLEngine, logger: Logger, observability: Observability): void {
  const path = config.graphql.path;
  // GraphQL over HTTP takes JSON and answers JSON; say so in a problem document (graphql-http
  // would answer 415/406 with no body at all).
  app.post(path, (request, response, next) => {
    if (!request.is('application/json')) {
      sendProblem(response, problem(415, 'UNSUPPORTED_MEDIA_TYPE', `send the GraphQL request as application/json (got ${request.get('content-type') ?? 'no content type'})`));
    } else if (!request.accepts(['application/graphql-response+json', 'application/json'])) {
      sendProblem(response, problem(406, 'NOT_ACCEPTABLE', 'GraphQL answers application/graphql-response+json or application/json; accept one of them'));
    } else next();
  });
  // The body is read here, within APP_HTTP__BODY_LIMIT (413 past it), as text: graphql-http parses it.
  app.post(path, express.text({ type: () => true, limit: config.http.bodyLimit }), (request, _response, next) => {
    // An empty body leaves nothing for graphql-http to read (the stream is spent): hand it an empty
    // request, which it answers 400 "Missing query".
    if (typeof request.body !== 'string' || request.body === '') request.body = {};
    next();
  });
  app.post(path, createGraphQLHandler({ schema: graphql.schema, path, logger, preparer: graphql.preparer, authenticationOf: (request) => stateOf(request.res as Response).authentication, observability }));
  if (config.graphql.playground) mountPlayground(app, path);
  app.all(path, (_request, response) => {
    sendProblem(response, problem(405, 'METHOD_NOT_ALLOWED', `${path} answers POST; the playground is off (APP_GRAPHQL__PLAYGROUND=true serves it on GET)`), { Allow: 'POST' });
  });
}
