/**
 * REST routes (docs/behaviour.md §4.2, §4.3, §9): the generated controllers' routes behind one version router
 * (runtime/http/versioning.ts), which resolves each request's version by the configured strategy
 * and answers refusals as problem documents. Its placement is `versioned`: it is mounted after
 * every self-mounted transport, so those stay neutral to any stated version (docs/behaviour.md §9.3.3). JSON
 * bodies are parsed only for the routes that take one, within `APP_HTTP__BODY_LIMIT`. At boot it
 * logs one line per mounted route at debug (controller, method, address, handler, and the version
 * as its own field under header / media-type versioning; docs/behaviour.md §9.1, docs/decisions.md §4).
 */
import { promisify } from 'node:util';
import express, { type Express, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ConfigError, type AppConfig } from '../../server/config.js';
import { problem, sendError, sendProblem } from '../../http/problem.js';
import { stateOf } from '../../http/request-state.js';
import { type RouteDefinition, sendReply } from '../../http/routes.js';
import { type VersioningOptions, VersionRouter, versionedRoutes } from '../../http/versioning.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';

/**
 * The REST transport of `createRoutes(container)` (the generated `http/routes.ts`). Throws
 * `ConfigError` when `APP_HTTP__DEFAULT_VERSION` names a version no controller declares.
 */
export function restRoutes<Container>(createRoutes: (container: Container) => readonly RouteDefinition[]): TransportFactory<Container> {
  return defineTransport('rest', ({ config, logger, versioning, container }): Transport => {
    const router = new VersionRouter(createRoutes(container), versioning);
    if (versioning.defaultVersion !== undefined && !router.versions().includes(versioning.defaultVersion)) {
      throw new ConfigError([{ variable: 'APP_HTTP__DEFAULT_VERSION', message: `names version ${versioning.defaultVersion}, which no controller declares; the declared versions are ${router.versions().join(', ') || 'none'}` }]);
    }
    return {
      name: 'rest',
      http: { placement: 'versioned', paths: [], mount: (app) => mountRoutes(app, config, router, versioning, logger) },
    };
  });
}

/** Mounts the version router's middleware and logs every mounted route (at debug). */
function mountRoutes(app: Express, config: AppConfig, router: VersionRouter, versioning: VersioningOptions, logger: Logger): void {
  const json = express.json({ limit: config.http.bodyLimit });
  const parseBody: (request: Request, response: Response) => Promise<void> = promisify(json);
  app.use(
    versionedRoutes(router, versioning, {
      run: async (route, request, response, params) => {
        const state = stateOf(response);
        try {
          if (route.takesBody) await parseBody(request, response);
          const value = await route.handle({ params, query: request.query, body: request.body, request: state.request, authentication: state.authentication });
          sendReply(request, response, route, value);
        } catch (error) {
          const status = (error as { status?: unknown }).status;
          if (typeof status === 'number' && status >= 400 && status < 500) throw error;
          sendError(response, error, logger);
        }
      },
      refuse: (response, status, code, detail, extensions, headers) => sendProblem(response, problem(status, code, detail, extensions), headers),
    }),
  );
  for (const mounted of router.mounted()) {
    const versionField = versioning.strategy !== 'uri' && mounted.version !== undefined ? { version: mounted.version } : {};
    logger.debug(
      { controller: mounted.route.controller, method: mounted.method, address: mounted.address, handler: `${mounted.route.controller}.${mounted.route.handler}`, ...versionField },
      `mounted ${mounted.method} ${mounted.address}${mounted.version !== undefined && versioning.strategy !== 'uri' ? ` (version ${mounted.version})` : ''}`,
    );
  }
}
