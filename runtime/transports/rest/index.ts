/**
 * REST routes (docs/behaviour.md §4.2, §4.3, §9): the generated controllers' routes behind one version router
 * (runtime/http/versioning.ts), which resolves each request's version by the configured strategy
 * and answers refusals as problem documents. Its placement is `versioned`: it is mounted after
 * every self-mounted transport, so those stay neutral to any stated version (docs/behaviour.md §9.3.3). JSON
 * bodies are parsed only for the routes that take one, within `APP_HTTP__BODY_LIMIT`; a body in any
 * other media type (or none named), or JSON in a charset other than UTF-8, is 415
 * `UNSUPPORTED_MEDIA_TYPE`, as GraphQL answers it (runtime/http/media-type.ts). At boot it
 * logs one line per mounted route at debug (controller, method, address, handler, and the version
 * as its own field under header / media-type versioning; docs/behaviour.md §9.1, docs/decisions.md §4).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { promisify } from 'node:util';
import express, { type Express, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { refuseNulText } from '../../data/text-input.js';
import { ConfigError, type AppConfig } from '../../server/config.js';
import { type AnswerBudget, answerBudget, isTooLarge } from '../../http/answer.js';
import { namesUtf8OrNoCharset, unsupportedBodyDetail } from '../../http/media-type.js';
import { answerError } from '../../http/pipeline.js';
import { problem, sendError, sendProblem } from '../../http/problem.js';
import { type RequestState, stateOf } from '../../http/request-state.js';
import { NEXT_CURSOR_HEADER, refuseUnreadQuery, type RouteDefinition, sendReply } from '../../http/routes.js';
import {
  routeTemplate,
  setVersionHeaders,
  variesOn,
  type VersioningOptions,
  VersionRouter,
  versionedRoutes,
} from '../../http/versioning.js';
import { defineTransport, type DirectRoute, type Transport, type TransportFactory } from '../index.js';

/**
 * The REST transport of `createRoutes(container)` (the generated `http/routes.ts`). Throws
 * `ConfigError` when `APP_HTTP__DEFAULT_VERSION` names a version no controller declares.
 */
export function restRoutes<Container>(createRoutes: (container: Container) => readonly RouteDefinition[]): TransportFactory<Container> {
  return defineTransport('rest', ({ config, logger, versioning, container, rateLimit }): Transport => {
    const router = new VersionRouter(createRoutes(container), versioning);
    const answers = answerBudget(config.http.maxResponseBytes, rateLimit);
    if (versioning.defaultVersion !== undefined && !router.versions().includes(versioning.defaultVersion)) {
      throw new ConfigError([
        {
          variable: 'APP_HTTP__DEFAULT_VERSION',
          message: `names version ${versioning.defaultVersion}, which no controller declares; the declared versions are ${router.versions().join(', ') || 'none'}`,
        },
      ]);
    }
    return {
      name: 'rest',
      http: {
        placement: 'versioned',
        paths: [],
        mount: (app) => mountRoutes(app, config, router, versioning, logger, answers),
        direct: [directRest(router, versioning, logger, answers)],
        // A page's next cursor (docs/behaviour.md §2.5), and the Deprecation and Sunset of a version its policy retires (§9).
        exposedHeaders: [NEXT_CURSOR_HEADER, 'Deprecation', 'Sunset'],
      },
    };
  });
}

/** One routed request, however it reached the transport. */
interface RoutedRequest {
  readonly route: RouteDefinition;
  /** The request's path (named in a 404's detail). */
  readonly path: string;
  readonly params: Record<string, string>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly state: RequestState;
}

/**
 * Runs a routed request's route and sends its reply; what the route throws is answered as a
 * problem document (`sendError`: a failure with its status, anything else 500, logged). A query
 * parameter the route does not read, or one it reads given twice, is refused first (400
 * `BAD_USER_INPUT`, docs/behaviour.md §4.2), as a body that is not JSON is before the gate; so is a
 * NUL character in any path or query parameter or anywhere in the body, whatever the route reads it
 * as (docs/hostile-input.md §17), named by its parameter or its path under `body`.
 */
async function runRoute(routed: RoutedRequest, response: ServerResponse, logger: Logger, answers: AnswerBudget): Promise<void> {
  try {
    const { route, params, query, body, state } = routed;
    refuseUnreadQuery(route, query);
    refuseNulText([...Object.entries(params), ...Object.entries(query), ['body', body]]);
    const value = await route.handle({ params, query, body, request: state.request, authentication: state.authentication });
    sendReply(routed.path, response, route, value, answers.maxBytes);
  } catch (error) {
    if (isTooLarge(error)) await answers.refused(response.req);
    sendError(response, error, logger);
  }
}

/**
 * Whether a request carries a body: a chunked one, or a `Content-Length` above 0 (a POST with no
 * body at all, `Content-Length: 0`, carries none: a route that needs one says "required", 400).
 */
function carriesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Mounts the version router's middleware and logs every mounted route (at debug). */
function mountRoutes(
  app: Express,
  config: AppConfig,
  router: VersionRouter,
  versioning: VersioningOptions,
  logger: Logger,
  answers: AnswerBudget,
): void {
  const json = express.json({ limit: config.http.bodyLimit });
  const parseBody: (request: Request, response: Response) => Promise<void> = promisify(json);
  app.use(
    versionedRoutes(router, versioning, {
      run: async (route, request, response, params) => {
        if (route.takesBody && carriesBody(request)) {
          // A JSON body in UTF-8 only (runtime/http/media-type.ts): another charset is 415, as another type is.
          const json = Boolean(request.is('application/json'));
          const contentType = request.get('content-type');
          if (!json || !namesUtf8OrNoCharset(contentType)) {
            sendProblem(response, problem(415, 'UNSUPPORTED_MEDIA_TYPE', unsupportedBodyDetail('the body', contentType, json)));
            return;
          }
        }
        try {
          if (route.takesBody) await parseBody(request, response);
        } catch (error) {
          // 413 past APP_HTTP__BODY_LIMIT, 400 for JSON that does not parse.
          answerError(response, error, config, logger);
          return;
        }
        await runRoute(
          { route, path: request.path, params, query: request.query, body: request.body, state: stateOf(response) },
          response,
          logger,
          answers,
        );
      },
      refuse: (response, status, code, detail, extensions, headers) =>
        sendProblem(response, problem(status, code, detail, extensions), headers),
    }),
  );
  for (const mounted of router.mounted()) {
    const versionField = versioning.strategy !== 'uri' && mounted.version !== undefined ? { version: mounted.version } : {};
    logger.debug(
      {
        controller: mounted.route.controller,
        method: mounted.method,
        address: mounted.address,
        handler: `${mounted.route.controller}.${mounted.route.handler}`,
        ...versionField,
      },
      `mounted ${mounted.method} ${mounted.address}${mounted.version !== undefined && versioning.strategy !== 'uri' ? ` (version ${mounted.version})` : ''}`,
    );
  }
}

/**
 * The REST routes answered before the Express chain (runtime/http/direct.ts, docs/decisions.md §6):
 * a `GET` or `HEAD` the version router sends to a route that reads no body. Refusals (404, 405,
 * 400 for a malformed version), the landing answer at `/`, and every other method take the chain,
 * which answers them as before. The query string is parsed as the app's `simple` query parser
 * parses it (node:querystring).
 */
function directRest(router: VersionRouter, versioning: VersioningOptions, logger: Logger, answers: AnswerBudget): DirectRoute {
  const varies = variesOn(versioning);
  return {
    match: (request, path) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const resolved = router.lookup(request.method, path, router.statedIn(request.headers));
      if (resolved?.decision.kind !== 'route' || resolved.decision.route.takesBody) return undefined;
      const { decision, params } = resolved;
      return {
        route: routeTemplate(versioning, decision),
        handle: async (incoming: IncomingMessage, response: ServerResponse, state: RequestState) => {
          if (varies) response.setHeader('Vary', varies);
          setVersionHeaders(response, versioning, decision);
          const url = incoming.url ?? '';
          const mark = url.indexOf('?');
          const query = mark < 0 ? {} : parseQuery(url.slice(mark + 1));
          await runRoute({ route: decision.route, path, params, query, body: undefined, state }, response, logger, answers);
        },
      };
    },
  };
}
