/**
 * API versioning of HTTP routes (docs/behaviour.md §4.3, §9). Versions are decided at boot: one route table
 * holds every route under every version it is mounted for. Per request the router resolves the
 * caller's version — from the URI (`/v2/posts`), a header (`X-API-Version: 2`) or the media type
 * (`Accept: application/json; version=2`) — and looks the route up in that table; under header and
 * media-type versioning the version is folded into the mounted path, so one table serves every
 * strategy.
 *
 * The path and the method pick an address (a path pattern): the most specific one matching the
 * path (static segments beat parameters) that has a route of the method — `DELETE /posts/recent`
 * reaches `DELETE /posts/:id` beside a `GET /posts/recent`; when none has one, the most specific
 * match, whose answer is then 404 or 405 (`Allow` naming what every matching address answers). A
 * stated version does not move the request to another address. The
 * decision is then taken per route — the request's method at that address — never per address or
 * prefix (docs/behaviour.md §9.3.1). Terms, for an address A and the request's method M:
 * - *versioned(M)*: the versions a versioned route of M at A is mounted for; M is *pinned* when
 *   this is not empty;
 * - *unversioned(M)*: the unversioned route of M at A, if any;
 * - *known*: every version some route at A is mounted for or its controller declares;
 * - *answering(v)*: the methods that would be served at A with version v stated — those pinned to
 *   v, and (header / media type) those not pinned that have an unversioned route; *answering()*
 *   with none stated: those with an unversioned route, or pinned to the default version.
 *
 * | caller states                      | condition, first that holds             | answer                    |
 * |------------------------------------|-----------------------------------------|---------------------------|
 * | version v (header / media type)    | M not pinned, unversioned(M) exists     | unversioned(M), any v     |
 * | version v                          | A has no versioned route at all         | 405, Allow answering(v)   |
 * | version v                          | v malformed                             | 400                       |
 * | version v                          | v in versioned(M)                       | that route                |
 * | version v                          | v known at A                            | 405, Allow answering(v)   |
 * | version v                          | M pinned (v unknown: never a fallback)  | 404                       |
 * | version v                          | answering(v) not empty                  | 405, Allow answering(v)   |
 * | version v                          | otherwise                               | 404                       |
 * | none                               | unversioned(M) exists                   | unversioned(M)            |
 * | none                               | default version in versioned(M)         | that route                |
 * | none                               | M pinned                                | 404: state a version      |
 * | none                               | answering() not empty                   | 405, Allow answering()    |
 * | none                               | otherwise                               | 404                       |
 *
 * One exception sits outside the table, in the Express middleware ({@link versionedRoutes}): a `GET`
 * or `HEAD` of `/` itself stating no version, which the table would refuse (404 "state a version",
 * or 405), goes on to the landing answer instead (docs/behaviour.md §4.8, §9.3.7); with a version
 * stated the table decides as written.
 *
 * So a stated version beats an unversioned route of the same method, while the default version
 * (`APP_HTTP__DEFAULT_VERSION`, which answers only callers who state none) yields to it; an
 * unversioned route of a method no versioned route answers at A (`POST /meta` beside a versioned
 * `GET /meta`) is served whatever version is stated, even a malformed one, since it reads none.
 * Under URI versioning a version is stated only in the URI (`/v2/meta`), where unversioned routes
 * never answer (they live at the address without `/v<version>`): they drop out of the rows and of
 * answering(v). Under header / media-type versioning the URI form (`/v2/posts`) is 404. 404 and
 * 400 answers are problem+json naming the versions the address serves. A path of a route's shape
 * whose parameter is not valid percent-encoding (`/posts/%zz`) is 400 before any of this.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import { observationOf } from '../observability/observation.js';
import type { HttpMethod, RouteDefinition } from './routes.js';
import { VERSION_TOKEN } from './version-token.js';

/** How callers state a version (`APP_HTTP__VERSIONING`). */
export type VersioningStrategy = 'uri' | 'header' | 'media_type';

/** The lifecycle of a version (deprecation and sunset dates). */
export interface VersionPolicy {
  readonly deprecated?: true | string;
  readonly sunset?: string;
}

/** Versioning settings of one server. */
export interface VersioningOptions {
  readonly strategy: VersioningStrategy;
  /** The header carrying the version under `header` versioning. */
  readonly header: string;
  /** Global path prefix (`''` or `/rest`). */
  readonly prefix: string;
  /** The version answering callers who state none. */
  readonly defaultVersion?: string | undefined;
  readonly policies: Readonly<Record<string, VersionPolicy>>;
}

/** The routes of one method at one address. */
interface MethodRoutes {
  /** The unversioned route, if any. */
  unversioned: RouteDefinition | undefined;
  /** Versioned routes by version; empty when no versioned route answers this method here. */
  readonly versioned: Map<string, RouteDefinition>;
}

/** One address (a path pattern) and every route mounted at it, by method. */
interface Address {
  readonly pattern: string;
  readonly match: MatchFunction<Record<string, string>>;
  readonly methods: Map<HttpMethod, MethodRoutes>;
  /** Versions some route here is mounted for, or its controller declares (405, not 404). */
  readonly known: Set<string>;
  /** Static segments first: `/posts/recent` wins over `/posts/:id`. */
  readonly specificity: number;
  /** The versions serving it, in order (computed once the table is built). */
  served: readonly string[];
}

/** What the router decided for one request. */
export type Decision =
  | { readonly kind: 'route'; readonly route: RouteDefinition; readonly version: string | undefined }
  | { readonly kind: 'not-found'; readonly detail: string; readonly versions: readonly string[] }
  | { readonly kind: 'bad-version'; readonly detail: string; readonly versions: readonly string[] }
  /** A path parameter that is not valid percent-encoding (`/posts/%zz`): 400. */
  | { readonly kind: 'bad-path'; readonly detail: string }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[]; readonly version: string | undefined };

/** A route as a client addresses it (for boot logs). */
export interface MountedRoute {
  readonly route: RouteDefinition;
  readonly method: HttpMethod;
  readonly address: string;
  readonly version: string | undefined;
}

const compareVersions = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/**
 * The address a client uses: prefix, then `/v<version>` (URI versioning), then the route path;
 * the root path adds nothing after a prefix or version (`/v1`, not `/v1/`).
 */
export function clientAddress(prefix: string, version: string | undefined, path: string): string {
  const head = `${prefix}${version === undefined ? '' : `/v${version}`}`;
  return head !== '' && path === '/' ? head : `${head}${path}`;
}

function specificityOf(pattern: string): number {
  return pattern.split('/').filter((segment) => segment !== '' && !segment.startsWith(':')).length;
}

/** The version a media type states (`application/json; version=2`), if any. */
function versionFromAccept(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  for (const range of accept.split(',')) {
    for (const parameter of range.split(';').slice(1)) {
      const [name, value] = parameter.split('=').map((part) => part.trim());
      if (name?.toLowerCase() === 'version' && value !== undefined) return value.replace(/^"|"$/g, '');
    }
  }
  return undefined;
}

/** What the router answers for one request: the decision, with the path parameters. */
export interface Resolution {
  readonly decision: Decision;
  readonly params: Record<string, string>;
  /** Whether the caller stated a version (in the URI, a header or the media type). */
  readonly stated: boolean;
}

const malformed = (stated: string): string =>
  `${JSON.stringify(stated)} is not a valid version: use alphanumerics, "." and "-", at most 32 bytes`;

/** A path that has a route's shape but whose parameter is not valid percent-encoding. */
class MalformedPathError extends Error {}

/** The route table of all versions, and the per-request dispatch. */
export class VersionRouter {
  private readonly addresses: Address[] = [];

  /**
   * Builds the table once, at boot.
   * @param routes every route of the application (versioned ones list the versions they mount for)
   * @param options the strategy, header, prefix and default version in force
   */
  constructor(
    routes: readonly RouteDefinition[],
    private readonly options: VersioningOptions,
  ) {
    const byPattern = new Map<string, Address>();
    for (const route of routes) {
      let address = byPattern.get(route.path);
      if (!address) {
        address = {
          pattern: route.path,
          match: match(route.path, { decode: decodeURIComponent }),
          methods: new Map(),
          known: new Set(),
          specificity: specificityOf(route.path),
          served: [],
        };
        byPattern.set(route.path, address);
        this.addresses.push(address);
      }
      let methods = address.methods.get(route.method);
      if (!methods) {
        methods = { unversioned: undefined, versioned: new Map() };
        address.methods.set(route.method, methods);
      }
      for (const version of [...route.controllerVersions, ...route.versions]) address.known.add(version);
      if (route.versions.length === 0) methods.unversioned = route;
      for (const version of route.versions) methods.versioned.set(version, route);
    }
    this.addresses.sort((a, b) => b.specificity - a.specificity);
    for (const address of this.addresses) {
      address.served = [...new Set([...address.methods.values()].flatMap((methods) => [...methods.versioned.keys()]))].sort(
        compareVersions,
      );
    }
  }

  /** Every version some route is mounted for, in order. */
  versions(): string[] {
    return [...new Set(this.addresses.flatMap((address) => address.served))].sort(compareVersions);
  }

  /** Every route as clients address it under the configured strategy (boot logs). */
  mounted(): MountedRoute[] {
    const { prefix, strategy } = this.options;
    const out: MountedRoute[] = [];
    for (const address of [...this.addresses].sort((a, b) => a.pattern.localeCompare(b.pattern))) {
      for (const [method, routes] of address.methods) {
        if (routes.unversioned)
          out.push({ route: routes.unversioned, method, address: clientAddress(prefix, undefined, address.pattern), version: undefined });
      }
      for (const version of address.served) {
        for (const [method, routes] of address.methods) {
          const route = routes.versioned.get(version);
          if (route)
            out.push({ route, method, address: clientAddress(prefix, strategy === 'uri' ? version : undefined, address.pattern), version });
        }
      }
    }
    return out;
  }

  /**
   * The address a request of `method` at `path` is decided at: the most specific match with a
   * route of `method`, else the most specific match; `others`: the other matching addresses.
   */
  private find(path: string, method: HttpMethod): { address: Address; params: Record<string, string>; others: Address[] } | undefined {
    const matched: { address: Address; params: Record<string, string> }[] = [];
    for (const address of this.addresses) {
      let found: ReturnType<Address['match']>;
      try {
        found = address.match(path);
      } catch (error) {
        // The path has this address's shape, but a parameter does not decode.
        if (error instanceof URIError) throw new MalformedPathError(path);
        throw error;
      }
      if (found) matched.push({ address, params: { ...found.params } });
    }
    const chosen = matched.find((candidate) => candidate.address.methods.has(method)) ?? matched[0];
    return chosen
      ? { ...chosen, others: matched.filter((candidate) => candidate !== chosen).map((candidate) => candidate.address) }
      : undefined;
  }

  /**
   * {@link decide}; when no matching address serves `method` at all, a 405's `Allow` is widened to
   * what every other matching address answers.
   */
  private decideAmong(
    target: { address: Address; others: Address[] },
    method: HttpMethod,
    stated: string | undefined,
    inUri: boolean,
  ): Decision {
    const decision = this.decide(target.address, method, stated, inUri);
    if (decision.kind !== 'method-not-allowed' || target.others.length === 0 || target.address.methods.has(method)) return decision;
    const allow = new Set(decision.allow);
    for (const other of target.others) for (const answering of this.answering(other, stated, inUri)) allow.add(answering);
    return { ...decision, allow: [...allow].sort() };
  }

  /**
   * The methods answering at `address` with `stated` (undefined: none stated) — answering(v) of
   * the module's table. `inUri`: the version was stated in the URI, where unversioned routes do
   * not answer.
   */
  private answering(address: Address, stated: string | undefined, inUri: boolean): string[] {
    const { defaultVersion } = this.options;
    const allow: string[] = [];
    for (const [method, routes] of address.methods) {
      const answers =
        stated === undefined
          ? routes.unversioned !== undefined || (defaultVersion !== undefined && routes.versioned.has(defaultVersion))
          : routes.versioned.has(stated) || (!inUri && routes.versioned.size === 0 && routes.unversioned !== undefined);
      if (answers) allow.push(method);
    }
    return allow.sort();
  }

  /**
   * The decision for `method` at `address` with `stated` (undefined: the caller stated none); the
   * module's table, row by row. `inUri`: the version was stated in the URI (URI versioning).
   */
  private decide(address: Address, method: HttpMethod, stated: string | undefined, inUri: boolean): Decision {
    const versions = address.served;
    const routes = address.methods.get(method);
    const pinned = routes !== undefined && routes.versioned.size > 0;
    const refuse = (allow: readonly string[], version: string | undefined): Decision => ({ kind: 'method-not-allowed', allow, version });
    if (stated === undefined) {
      if (routes?.unversioned) return { kind: 'route', route: routes.unversioned, version: undefined };
      const { defaultVersion } = this.options;
      const defaulted = defaultVersion === undefined ? undefined : routes?.versioned.get(defaultVersion);
      if (defaulted) return { kind: 'route', route: defaulted, version: defaultVersion };
      const unstated: Decision = {
        kind: 'not-found',
        detail: `${pinned ? `${method} ` : ''}${address.pattern} is versioned: state one of the versions it serves`,
        versions,
      };
      if (pinned) return unstated;
      const allow = this.answering(address, undefined, inUri);
      return allow.length > 0 ? refuse(allow, undefined) : unstated;
    }
    if (!pinned && routes?.unversioned && !inUri) return { kind: 'route', route: routes.unversioned, version: undefined };
    if (versions.length === 0) return refuse(this.answering(address, undefined, inUri), undefined);
    if (!VERSION_TOKEN.test(stated)) return { kind: 'bad-version', detail: malformed(stated), versions };
    const chosen = routes?.versioned.get(stated);
    if (chosen) return { kind: 'route', route: chosen, version: stated };
    const allow = this.answering(address, stated, inUri);
    if (address.known.has(stated)) return refuse(allow, stated);
    const unknown: Decision = {
      kind: 'not-found',
      detail: `version ${stated} does not serve ${pinned ? `${method} ` : ''}${address.pattern}`,
      versions,
    };
    if (pinned) return unknown;
    return allow.length > 0 ? refuse(allow, stated) : unknown;
  }

  /**
   * The decision for one request, pure (docs/behaviour.md §9.3; the module's table).
   * @param method the request's method (`HEAD` is answered as `GET`)
   * @param path the request's path, with the global prefix
   * @param stated the version the caller states in the header or media type (`''` or undefined:
   *   none); ignored under URI versioning, which reads it from `path`
   * @returns undefined when no route of the table is at that path (the request goes on to the next
   *   handler: self-mounted endpoints), or the decision with the path parameters
   */
  lookup(method: string, path: string, stated: string | undefined): Resolution | undefined {
    try {
      return this.lookupDecoded(method, path, stated);
    } catch (error) {
      if (!(error instanceof MalformedPathError)) throw error;
      return {
        decision: { kind: 'bad-path', detail: `${JSON.stringify(path)} is not valid percent-encoding: escape "%" as %25` },
        params: {},
        stated: stated !== undefined && stated !== '',
      };
    }
  }

  /** {@link lookup}; throws {@link MalformedPathError} for a parameter that does not decode. */
  private lookupDecoded(method: string, path: string, stated: string | undefined): Resolution | undefined {
    const { prefix, strategy } = this.options;
    if (prefix) {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
      path = path.slice(prefix.length) || '/';
    }
    const verb = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    const uriForm = /^\/v([^/]+)(\/.*)?$/.exec(path);
    const versionedTarget = uriForm ? this.find(uriForm[2] ?? '/', verb) : undefined;
    if (strategy === 'uri') {
      if (uriForm && versionedTarget && versionedTarget.address.served.length > 0) {
        return { decision: this.decideAmong(versionedTarget, verb, uriForm[1] ?? '', true), params: versionedTarget.params, stated: true };
      }
      const target = this.find(path, verb);
      return target ? { decision: this.decideAmong(target, verb, undefined, false), params: target.params, stated: false } : undefined;
    }
    const target = this.find(path, verb);
    const statedVersion = stated === '' ? undefined : stated;
    if (!target && uriForm && versionedTarget && versionedTarget.address.served.length > 0) {
      const how = strategy === 'header' ? `send the ${this.options.header} header` : 'send Accept: application/json; version=<version>';
      return {
        decision: {
          kind: 'not-found',
          detail: `versions are not stated in the URI here: request ${prefix}${uriForm[2] ?? '/'} and ${how}`,
          versions: versionedTarget.address.served,
        },
        params: {},
        stated: statedVersion !== undefined,
      };
    }
    if (!target) return undefined;
    return { decision: this.decideAmong(target, verb, statedVersion, false), params: target.params, stated: statedVersion !== undefined };
  }

  /**
   * The version a request's `headers` state under the strategy: the version header's value
   * (trimmed), the media type's `version` parameter, or undefined (none, or URI versioning, which
   * reads it from the path).
   */
  statedIn(headers: IncomingHttpHeaders): string | undefined {
    const { strategy } = this.options;
    if (strategy === 'header') {
      const value = headers[this.options.header.toLowerCase()];
      return (Array.isArray(value) ? value.join(', ') : value)?.trim();
    }
    return strategy === 'media_type' ? versionFromAccept(headers.accept) : undefined;
  }

  /**
   * Resolves one request: reads the stated version by the strategy, then {@link lookup}.
   * @returns undefined when no route of the table is at that path, or the decision with the path
   *   parameters
   */
  resolve(request: Request): Resolution | undefined {
    return this.lookup(request.method, request.path, this.statedIn(request.headers));
  }
}

/** Lifecycle headers per policy object, computed once. */
const lifecycleCache = new WeakMap<VersionPolicy, Readonly<Record<string, string>>>();

/** Headers of a response served under a version with a lifecycle policy (RFC 9745, RFC 8594). */
function lifecycleHeaders(policy: VersionPolicy | undefined): Readonly<Record<string, string>> {
  if (!policy) return {};
  const cached = lifecycleCache.get(policy);
  if (cached) return cached;
  const headers: Record<string, string> = {};
  if (policy.deprecated === true) headers.Deprecation = 'true';
  else if (typeof policy.deprecated === 'string') headers.Deprecation = `@${Math.floor(Date.parse(policy.deprecated) / 1000)}`;
  if (policy.sunset) headers.Sunset = new Date(policy.sunset).toUTCString();
  lifecycleCache.set(policy, headers);
  return headers;
}

/** The request header the answer varies on under `options`' strategy (`Vary`), if any. */
export function variesOn(options: VersioningOptions): string | undefined {
  return options.strategy === 'header' ? options.header : options.strategy === 'media_type' ? 'Accept' : undefined;
}

/** A decision to serve a route. */
export type RouteDecision = Extract<Decision, { kind: 'route' }>;

/**
 * The route template a routed request is named by in access lines and metrics
 * (`/v2/posts/:id`, docs/behaviour.md §12.1): the address of its route under the version it is
 * served at.
 */
export function routeTemplate(options: VersioningOptions, decision: RouteDecision): string {
  return clientAddress(options.prefix, options.strategy === 'uri' ? decision.version : undefined, decision.route.path);
}

/**
 * Sets the lifecycle headers (`Deprecation`, `Sunset`) of the version a routed request is served
 * under (docs/behaviour.md §9.1), whichever way it came: the Express middleware below, or before
 * the chain (runtime/transports/rest/index.ts).
 */
export function setVersionHeaders(response: ServerResponse, options: VersioningOptions, decision: RouteDecision): void {
  const policy = decision.version === undefined ? undefined : options.policies[decision.version];
  for (const [name, value] of Object.entries(lifecycleHeaders(policy))) response.setHeader(name, value);
}

/** What the Express middleware does with a decision. */
export interface VersionedDispatch {
  /** Runs a route (parses the body when it takes one, calls it, replies). */
  run(route: RouteDefinition, request: Request, response: Response, params: Record<string, string>): Promise<void>;
  /** Answers a refusal as problem+json. */
  refuse(
    response: Response,
    status: number,
    code: string,
    detail: string,
    extensions: Record<string, unknown>,
    headers: Record<string, string>,
  ): void;
}

/**
 * Whether the router leaves a request it does not serve to the landing answer (docs/behaviour.md
 * §4.8, §9.3.7): `GET` or `HEAD` of `/` itself, with no version stated, that no route serves.
 */
function leftToLanding(request: Request, resolved: Resolution): boolean {
  return (
    resolved.decision.kind !== 'route' &&
    !resolved.stated &&
    request.path === '/' &&
    (request.method === 'GET' || request.method === 'HEAD')
  );
}

/**
 * The Express middleware in front of all REST routes: runs the route the router decides on, or
 * answers its refusal; what no route is at goes on to the next handler, and so does a `GET /`
 * stating no version that no route serves (the landing answer's, docs/behaviour.md §9.3.7). A
 * route it runs names the request's route template (`/v2/posts/:id`, docs/behaviour.md §12.1).
 */
export function versionedRoutes(router: VersionRouter, options: VersioningOptions, dispatch: VersionedDispatch): RequestHandler {
  const varies = variesOn(options);
  return (request: Request, response: Response, next: NextFunction) => {
    const resolved = router.resolve(request);
    if (!resolved) {
      next();
      return;
    }
    if (varies) response.vary(varies);
    if (leftToLanding(request, resolved)) {
      next();
      return;
    }
    const { decision, params } = resolved;
    switch (decision.kind) {
      case 'route': {
        const observation = observationOf(response);
        if (observation) observation.route = routeTemplate(options, decision);
        setVersionHeaders(response, options, decision);
        dispatch.run(decision.route, request, response, params).catch(next);
        return;
      }
      case 'not-found':
        dispatch.refuse(response, 404, 'NOT_FOUND', decision.detail, { versions: decision.versions }, {});
        return;
      case 'bad-version':
        dispatch.refuse(response, 400, 'BAD_USER_INPUT', decision.detail, { versions: decision.versions }, {});
        return;
      case 'bad-path':
        dispatch.refuse(response, 400, 'BAD_USER_INPUT', decision.detail, {}, {});
        return;
      case 'method-not-allowed': {
        const detail =
          decision.version === undefined
            ? `${request.method} is not served at ${request.path}`
            : `${request.method} is not served at ${request.path} under version ${decision.version}`;
        dispatch.refuse(response, 405, 'METHOD_NOT_ALLOWED', detail, { allow: decision.allow }, { Allow: decision.allow.join(', ') });
        return;
      }
    }
  };
}
