/**
 * OpenAPI 3.1 documents per API version (docs/behaviour.md §4.4, §9.4). The generator emits a catalog of every
 * route (version-neutral); this module builds, for the running configuration, one document per
 * version and the document `/api-json` serves: the default version's, or with no default an
 * aggregate of every version in which a contested path goes to the highest version.
 *
 * Under header / media-type versioning paths carry no version prefix and every versioned operation
 * gains a header parameter (the version header, or `Accept` with `version=`) enumerating every
 * version that serves its method and path — whichever controller serves each, so one controller
 * per version sharing a path lists them all — required unless the default version or an
 * unversioned route of that method answers a caller who states none. Operations carry their
 * controller's tags (declared with `@ApiTags`, else its path) and a document lists the tags its
 * operations use, each described by the controllers it describes; entity and input schemas,
 * pagination parameters, the `x-next-cursor` header, problem+json errors and the bearer security
 * scheme are described. A document carries only the components its operations use, names the
 * server (`servers`, the origin it is served from) and the application's license and contact when
 * its package.json gives them, and every operation has a description. Every text is written for
 * the API's callers (docs/guide/declaring.md "Descriptions on the wire"). Keys are written in a fixed order
 * (deterministic output). Documents are typed with `openapi-types`' `OpenAPIV3_1`, so a malformed
 * one does not compile.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { HttpMethod, ReplyKind } from './routes.js';
import { clientAddress, type VersioningStrategy, type VersionPolicy } from './versioning.js';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) or a reference to a component schema. */
export type JsonSchema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

/**
 * An OpenAPI 3.1 parameter. `openapi-types` gives 3.1 the parameter object of 3.0, whose schema is
 * a 3.0 schema (no `type: 'null'`, …); this is the same object with a 3.1 schema.
 */
export type ParameterObject = Omit<OpenAPIV3_1.ParameterObject, 'schema'> & { readonly schema: JsonSchema };

/** An OpenAPI 3.1 operation with 3.1 parameters ({@link ParameterObject}). */
export type OperationObject = Omit<OpenAPIV3_1.OperationObject, 'parameters'> & { readonly parameters: ParameterObject[] };

/**
 * An OpenAPI 3.1 document whose path items hold {@link OperationObject}s: `openapi-types`' 3.1 path
 * item also demands its 3.0 operation object, which no 3.1 operation with a request body satisfies.
 */
export type OpenApiDocument = Omit<OpenAPIV3_1.Document, 'paths'> & {
  readonly paths: Record<string, Partial<Record<Lowercase<HttpMethod>, OperationObject>>>;
};

/** A path or query parameter of an operation. */
export interface CatalogParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description?: string;
  /** The parameter is deprecated (a filter on a deprecated column, docs/behaviour.md §2.7); its description says why. */
  readonly deprecated?: true;
  readonly schema: JsonSchema;
}

/** One route, independent of strategy and prefix. */
export interface CatalogOperation {
  readonly method: HttpMethod;
  /** Express-style path without prefix or version: `/posts/:id/publish`. */
  readonly path: string;
  readonly versions: readonly string[];
  /** The controller class: with `handler`, the operation id; and which tag descriptions apply. */
  readonly controller: string;
  readonly handler: string;
  /** Its controller's tags. */
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  readonly authorized: boolean;
  readonly parameters: readonly CatalogParameter[];
  readonly requestBody?: JsonSchema;
  readonly reply: ReplyKind;
  readonly status: number;
  /** The success body's schema (absent for 204). */
  readonly body?: JsonSchema;
  /** Whether the handler returns a `Result` (may fail with CONFLICT, NOT_FOUND, …). */
  readonly result: boolean;
}

/**
 * A tag as one controller carries it, with that controller's description. A document lists a tag
 * when it describes an operation of such a controller, described by those controllers' texts.
 */
export interface CatalogTag {
  readonly name: string;
  readonly controller: string;
  readonly description?: string;
}

/**
 * What the API calls itself: the title of its OpenAPI documents, of the documentation page and of
 * the landing answer at `/` (docs/behaviour.md §4.4, §4.8).
 */
export const API_TITLE = 'Resource Service API';

/** Everything the documents are built from. */
export interface ApiCatalog {
  readonly title: string;
  /** The application's license, from its package.json `license` (when it names one). */
  readonly license?: OpenAPIV3_1.LicenseObject;
  /** Who to contact about the API, from its package.json `author` / `homepage` / `bugs` (when given). */
  readonly contact?: OpenAPIV3_1.ContactObject;
  /** Sorted by name; a tag several controllers carry appears once per controller. */
  readonly tags: readonly CatalogTag[];
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly operations: readonly CatalogOperation[];
}

/** The configuration a document describes. */
export interface DocumentOptions {
  readonly strategy: VersioningStrategy;
  readonly header: string;
  readonly prefix: string;
  readonly defaultVersion?: string | undefined;
  readonly policies: Readonly<Record<string, VersionPolicy>>;
  /** Rate limiting is on (`APP_HTTP__RATE_LIMIT`): every operation may answer 429. */
  readonly rateLimited?: boolean | undefined;
}

const compareVersions = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

const PROBLEM_SCHEMA: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description: 'An RFC 9457 problem document.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', description: 'The same code GraphQL puts in extensions.code.' },
    requestId: { type: 'string', description: 'The id of the request, as the X-Request-Id header of the answer says.' },
    field: { type: 'string', description: 'FORBIDDEN: the field the grant excludes.' },
    issues: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] },
    },
    versions: { type: 'array', items: { type: 'string' }, description: 'The versions the requested path serves.' },
    allow: { type: 'array', items: { type: 'string' } },
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
};

const ERROR_RESPONSES: Readonly<Record<string, string>> = {
  '400': 'The request is malformed: a parameter, the body or the version (BAD_USER_INPUT).',
  '401': 'A valid bearer token is required (UNAUTHENTICATED).',
  '403': "The caller's grant does not allow this (FORBIDDEN).",
  '404': 'Nothing here for the caller, or not under this version (NOT_FOUND).',
  '405': 'The path exists, not for this method or version (METHOD_NOT_ALLOWED).',
  '409': 'The change conflicts with the current state (CONFLICT).',
  '413': 'The request body is larger than this server accepts (PAYLOAD_TOO_LARGE).',
  '415': 'The request body is not JSON in UTF-8: send it as application/json (UNSUPPORTED_MEDIA_TYPE).',
  '429': 'Too many requests from this address for now (TOO_MANY_REQUESTS); retry after the seconds in Retry-After.',
  '500': 'database error, or an unexpected failure (INTERNAL_SERVER_ERROR).',
  '503':
    'The database is unavailable, or has no room to write (INTERNAL_SERVER_ERROR, detail "database error" or "the database has no room to write").',
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Who else serves an operation's method and path, across every operation of the catalog. */
interface Neighbours {
  /** Every version a route of this method and path is mounted for, in order. */
  readonly versions: readonly string[];
  /** An unversioned route of this method and path exists. */
  readonly unversioned: boolean;
}

/** {@link Neighbours} of every method and path (`GET /posts`), computed once per document. */
function neighboursOf(catalog: ApiCatalog): Map<string, Neighbours> {
  const versions = new Map<string, Set<string>>();
  const unversioned = new Set<string>();
  for (const operation of catalog.operations) {
    const key = `${operation.method} ${operation.path}`;
    const serving = versions.get(key) ?? new Set<string>();
    for (const version of operation.versions) serving.add(version);
    versions.set(key, serving);
    if (operation.versions.length === 0) unversioned.add(key);
  }
  return new Map(
    [...versions].map(([key, serving]) => [key, { versions: [...serving].sort(compareVersions), unversioned: unversioned.has(key) }]),
  );
}

/**
 * A document's entry for `operation` served under `version` (undefined: unversioned); its version
 * parameter enumerates `neighbours.versions` (docs/behaviour.md §9.4).
 */
function operationObject(
  operation: CatalogOperation,
  version: string | undefined,
  options: DocumentOptions,
  aggregate: boolean,
  neighbours: Neighbours,
): OperationObject {
  const parameters: ParameterObject[] = operation.parameters.map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.required,
    ...(parameter.description ? { description: parameter.description } : {}),
    ...(parameter.deprecated ? { deprecated: true } : {}),
    schema: parameter.schema,
  }));
  if (version !== undefined && options.strategy !== 'uri') {
    // Optional when the default version answers a caller who states none, or an unversioned
    // route of the same method and path does (docs/behaviour.md §9.3.2).
    const required =
      !neighbours.unversioned && !(options.defaultVersion !== undefined && neighbours.versions.includes(options.defaultVersion));
    const versions = [...neighbours.versions];
    parameters.push(
      options.strategy === 'header'
        ? {
            name: options.header,
            in: 'header',
            required,
            description: 'The API version to use.',
            schema: { type: 'string', enum: versions },
          }
        : {
            name: 'Accept',
            in: 'header',
            required,
            description: 'The media type with the API version: application/json; version=<version>.',
            schema: { type: 'string', enum: versions.map((v) => `application/json; version=${v}`) },
          },
    );
  }
  const responses: OpenAPIV3_1.ResponsesObject = {};
  const success: OpenAPIV3_1.ResponseObject = { description: operation.reply === 'empty' ? 'Done.' : 'Success.' };
  if (operation.reply === 'page') {
    success.headers = {
      'x-next-cursor': {
        description: 'Present only when more rows remain: pass it as `after` for the next page.',
        schema: { type: 'string', format: 'uuid' },
      },
    };
  }
  if (operation.body) success.content = { 'application/json': { schema: operation.body } };
  responses[String(operation.status)] = success;
  // Every route refuses a query parameter it does not take, so every operation may answer 400.
  const errors = new Set<string>(['400', '500', '503']);
  if (operation.authorized) {
    errors.add('401');
    errors.add('403');
  }
  if (operation.reply === 'value' || operation.result || version !== undefined) errors.add('404');
  if (version !== undefined) errors.add('405');
  if (operation.result) errors.add('409');
  if (operation.requestBody) {
    errors.add('413');
    errors.add('415');
  }
  if (options.rateLimited) errors.add('429');
  for (const status of [...errors].sort()) responses[status] = { $ref: `#/components/responses/Problem${status}` };
  const policy = version === undefined ? undefined : options.policies[version];
  const id = `${operation.controller}_${operation.handler}${aggregate && version !== undefined && options.strategy === 'uri' ? `_v${version.replace(/[^A-Za-z0-9]/g, '_')}` : ''}`;
  // A route whose declaration says only one sentence is described by it; one that says nothing by its address.
  const description = operation.description ?? operation.summary ?? `${operation.method} ${openApiPath(operation.path)}.`;
  return {
    operationId: id,
    tags: [...operation.tags],
    ...(operation.summary ? { summary: operation.summary } : {}),
    description,
    ...(version !== undefined ? { 'x-api-version': version } : {}),
    ...(policy?.deprecated ? { deprecated: true } : {}),
    parameters,
    ...(operation.requestBody
      ? { requestBody: { required: true, content: { 'application/json': { schema: operation.requestBody } } } }
      : {}),
    responses,
    security: operation.authorized ? [{ bearer: [] }] : [],
  };
}

/** The component names `#/components/<kind>/<name>` references anywhere in `value`. */
function referencesIn(value: unknown, kind: 'schemas' | 'responses', into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencesIn(item, kind, into);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith(`#/components/${kind}/`))
      into.add(child.slice(`#/components/${kind}/`.length));
    else referencesIn(child, kind, into);
  }
}

/**
 * The components the `paths` of a document use: the responses they name, and the schemas
 * reachable from the paths and those responses (a schema naming another brings it along).
 */
function usedComponents(
  paths: OpenApiDocument['paths'],
  schemas: Readonly<Record<string, OpenAPIV3_1.SchemaObject>>,
  responses: Readonly<Record<string, OpenAPIV3_1.ResponseObject>>,
): { schemas: Record<string, OpenAPIV3_1.SchemaObject>; responses: Record<string, OpenAPIV3_1.ResponseObject> } {
  const responseNames = new Set<string>();
  referencesIn(paths, 'responses', responseNames);
  const usedResponses = Object.fromEntries(Object.entries(responses).filter(([name]) => responseNames.has(name)));
  const reached = new Set<string>();
  referencesIn([paths, usedResponses], 'schemas', reached);
  const pending = [...reached];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const found = new Set<string>();
    referencesIn(schemas[name], 'schemas', found);
    for (const next of found) {
      if (reached.has(next)) continue;
      reached.add(next);
      pending.push(next);
    }
  }
  return { schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))), responses: usedResponses };
}

/**
 * The tags of a document describing operations of the `described` controllers: each tag one of
 * them carries, once, in catalog order, its description the distinct descriptions those
 * controllers give it, paragraph after paragraph.
 */
function documentTags(tags: readonly CatalogTag[], described: ReadonlySet<string>): { name: string; description?: string }[] {
  const descriptions = new Map<string, string[]>();
  for (const tag of tags) {
    if (!described.has(tag.controller)) continue;
    const texts = descriptions.get(tag.name) ?? [];
    if (tag.description !== undefined && !texts.includes(tag.description)) texts.push(tag.description);
    descriptions.set(tag.name, texts);
  }
  return [...descriptions].map(([name, texts]) => ({ name, ...(texts.length > 0 ? { description: texts.join('\n\n') } : {}) }));
}

/** The versions some operation is mounted for, in order. */
export function catalogVersions(catalog: ApiCatalog): string[] {
  return [...new Set(catalog.operations.flatMap((operation) => operation.versions))].sort(compareVersions);
}

/**
 * The OpenAPI 3.1 document for `version`, or with `version` undefined the aggregate of every
 * version (docs/behaviour.md §4.4: a path served by several versions goes to the highest one). Unversioned
 * operations are in every document. Under header / media-type versioning each versioned
 * operation's version parameter enumerates every version serving its method and path, in any
 * document (docs/behaviour.md §9.4).
 * @param catalog the generated catalog of every route
 * @param version the version to describe, or undefined for the aggregate
 * @param options the strategy, header, prefix, default version and policies in force
 * @returns the document as plain JSON, keys in a fixed order, with only the components it uses
 */
export function buildOpenApiDocument(catalog: ApiCatalog, version: string | undefined, options: DocumentOptions): OpenApiDocument {
  const aggregate = version === undefined;
  const entries: { path: string; method: string; version: string | undefined; operation: CatalogOperation }[] = [];
  for (const operation of catalog.operations) {
    if (operation.versions.length === 0) {
      entries.push({
        path: clientAddress(options.prefix, undefined, openApiPath(operation.path)),
        method: operation.method,
        version: undefined,
        operation,
      });
      continue;
    }
    const chosen = aggregate ? [...operation.versions] : operation.versions.filter((candidate) => candidate === version);
    for (const candidate of chosen) {
      const path = clientAddress(options.prefix, options.strategy === 'uri' ? candidate : undefined, openApiPath(operation.path));
      entries.push({ path, method: operation.method, version: candidate, operation });
    }
  }
  // A contested path and method (several versions, or a version and an unversioned route, at
  // one address) goes to the highest version; its version parameter still lists them all.
  const winners = new Map<string, (typeof entries)[number]>();
  for (const entry of entries) {
    const key = `${entry.method} ${entry.path}`;
    const current = winners.get(key);
    const higher = entry.version !== undefined && (current?.version === undefined || compareVersions(entry.version, current.version) > 0);
    if (!current || higher) winners.set(key, entry);
  }
  const neighbours = neighboursOf(catalog);
  const paths: OpenApiDocument['paths'] = {};
  for (const entry of [...winners.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const item = (paths[entry.path] ??= {});
    const around = neighbours.get(`${entry.operation.method} ${entry.operation.path}`) ?? {
      versions: entry.operation.versions,
      unversioned: false,
    };
    item[entry.method.toLowerCase() as Lowercase<HttpMethod>] = operationObject(entry.operation, entry.version, options, aggregate, around);
  }
  const described = new Set([...winners.values()].map((entry) => entry.operation.controller));
  const versionPolicy = version === undefined ? undefined : options.policies[version];
  const lifecycle = versionPolicy?.deprecated
    ? ` Version ${version} is deprecated${versionPolicy.sunset ? ` and sunsets on ${versionPolicy.sunset}` : ''}.`
    : '';
  const problems: Record<string, OpenAPIV3_1.ResponseObject> = {};
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    problems[`Problem${status}`] = {
      description,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  const used = usedComponents(paths, { ...catalog.schemas, Problem: PROBLEM_SCHEMA }, problems);
  const secured = Object.values(paths).some((item) => Object.values(item).some((operation) => (operation.security?.length ?? 0) > 0));
  return {
    openapi: '3.1.0',
    info: {
      title: catalog.title,
      version: version ?? 'all',
      description: `${version === undefined ? `Every API version; a path several versions serve is described by the highest one${options.strategy === 'uri' ? '' : ', and its version parameter lists every version serving it'}.` : `API version ${version}.`}${lifecycle} Fields a caller's grant excludes are omitted from bodies.`,
      ...(catalog.license ? { license: catalog.license } : {}),
      ...(catalog.contact ? { contact: catalog.contact } : {}),
    },
    // Paths are absolute on the server the document is served from.
    servers: [{ url: '/', description: 'The server this document is served from.' }],
    tags: documentTags(catalog.tags, described),
    paths,
    components: {
      schemas: used.schemas,
      responses: used.responses,
      ...(secured ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } } : {}),
    },
  };
}
