/**
 * The interface documents (docs/behaviour.md §4.4): `GET /api-json` (the default version's OpenAPI document, or
 * every version's when no default is configured), `GET /api-json/v<version>`, the same documents
 * as YAML at `GET /api-yaml` and `GET /api-yaml/v<version>` (written by the `yaml` package, as
 * NestJS serves them), and `GET /api`, an
 * interactive documentation UI (Swagger UI from the npm-installed `swagger-ui-dist`, never a CDN)
 * with a picker over the versions. These paths are self-mounted and neutral to version selection
 * (docs/behaviour.md §9.3.3): the transport's placement is `neutral`.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { problem, sendProblem } from '../../http/problem.js';
import { observationOf } from '../../observability/observation.js';
import { type ApiCatalog, buildOpenApiDocument, catalogVersions, type DocumentOptions } from '../../http/openapi.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';

const require = createRequire(import.meta.url);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Resource Service API</title>
  <link rel="stylesheet" href="/api/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/assets/swagger-ui-bundle.js"></script>
  <script src="/api/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/api/init.js"></script>
</body>
</html>
`;

/** The two spellings of every document: JSON at `/api-json…`, YAML at `/api-yaml…`. */
const FORMATS = [
  { base: '/api-json', type: 'application/json', write: (document: unknown): string => JSON.stringify(document) },
  // `aliasDuplicateObjects: false`: a schema used twice is written twice, never as a YAML anchor a reader may not follow.
  // The writer is loaded with the first YAML document asked for, not at every boot.
  {
    base: '/api-yaml',
    type: 'application/yaml',
    write: (document: unknown): string => (require('yaml') as typeof import('yaml')).stringify(document, { aliasDuplicateObjects: false }),
  },
] as const;

/** `build()`, called the first time the answer is asked for and kept from then on. */
function once<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * Mounts `/api-json`, `/api-json/v<version>`, `/api-yaml`, `/api-yaml/v<version>` and `/api` on
 * `app`. Each document is built and written once, when it is first asked for (a boot builds none);
 * an unknown version answers 404 naming the versions.
 */
function mountApiDocs(app: Express, catalog: ApiCatalog, options: DocumentOptions): void {
  const versions = catalogVersions(catalog);
  const built = new Map(versions.map((version) => [version, once(() => buildOpenApiDocument(catalog, version, options))]));
  const main = once(() => buildOpenApiDocument(catalog, options.defaultVersion, options));
  for (const format of FORMATS) {
    const documents = new Map([...built].map(([version, document]) => [version, once(() => format.write(document()))]));
    const mainText = once(() => format.write(main()));
    app.get(format.base, (_request, response) => {
      response.type(format.type).send(mainText());
    });
    app.get(`${format.base}/:version`, (request: Request<{ version: string }>, response: Response) => {
      const version = /^v(.+)$/.exec(request.params.version)?.[1];
      const document = version === undefined ? undefined : documents.get(version);
      if (!document) {
        sendProblem(
          response,
          problem(404, 'NOT_FOUND', `no OpenAPI document at ${request.path}: request ${format.base}/v<version>`, { versions }),
        );
        return;
      }
      response.type(format.type).send(document());
    });
  }
  const urls = [
    { url: '/api-json', name: options.defaultVersion === undefined ? 'all versions' : `v${options.defaultVersion} (default)` },
    ...versions.map((version) => ({ url: `/api-json/v${version}`, name: `v${version}` })),
  ];
  const init = `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(urls)},
  'urls.primaryName': ${JSON.stringify(urls[0]?.name)},
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  deepLinking: true,
});
`;
  app.get('/api', (_request, response) => {
    response.type('html').send(PAGE);
  });
  app.get('/api/init.js', (_request, response) => {
    response.type('application/javascript').send(init);
  });
  // Files under one template (docs/behaviour.md §12.1: never the raw path).
  app.use('/api/assets', (_request, response, next) => {
    const observation = observationOf(response);
    if (observation) observation.route = '/api/assets/*';
    next();
  });
  app.use('/api/assets', express.static(path.dirname(require.resolve('swagger-ui-dist/package.json')), { index: false, maxAge: '1h' }));
}

/**
 * The API documents transport: {@link mountApiDocs} over `catalog` (the generated
 * `openapi/catalog.ts`), for the versioning in force and whether a rate limit is configured
 * (documented as a 429 answer).
 */
export function apiDocs<Container>(catalog: ApiCatalog): TransportFactory<Container> {
  return defineTransport('api-docs', ({ versioning, config }): Transport => ({
    name: 'api-docs',
    entrypoints: [
      { name: 'docs', path: '/api', description: 'REST API documentation (Swagger UI)' },
      { name: 'openapi', path: '/api-json', description: 'OpenAPI 3.1 document' },
      { name: 'openapiYaml', path: '/api-yaml', description: 'OpenAPI 3.1 document (YAML)' },
    ],
    http: {
      placement: 'neutral',
      paths: ['/api', '/api/init.js', '/api/assets/*', '/api-json', '/api-json/*', '/api-yaml', '/api-yaml/*'],
      mount: (app) => mountApiDocs(app, catalog, { ...versioning, rateLimited: config.http.rateLimit > 0 }),
    },
  }));
}
