/**
 * API versioning of HTTP routes (spec §4.3, §9). Versions are decided at boot: one route table
 * holds every route under every version it is mounted for. Per request the router resolves the
 * caller's version — from the URI (`/v2/posts`), a header (`X-API-Version: 2`) or the media type
 * (`Accept: application/json; version=2`) — and looks the route up in that table; under header and
 * media-type versioning the version is folded into the mounted path, so one table serves every
 * strategy.
 *
 * Decisions (spec §9.3), per address and per route, never per prefix:
 * - an address no versioned route answers is served whatever version is stated;
 * - a stated version beats an unversioned route at the same address; the default version
 *   (`APP_HTTP__DEFAULT_VERSION`) answers only callers who state none, and yields to an
 *   unversioned route;
 * - a version nothing declares at that address is 404 (never a fallback); a declared version the
 *   route is not mounted for, or a method not served, is 405 with `Allow`;
 * - a malformed version is 400; the URI form under header / media-type versioning is 404;
 * - 404 and 400 answers are problem+json naming the versions the address serves.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import type { HttpMethod, RouteDefinition } from './routes.js';

/** Valid version tokens (spec §8): alphanumerics, `.` and `-`, at most 32 bytes. */
export const VERSION_TOKEN = /^[A-Za-z0-9.-]{1,32}$/;

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

/** One address (a path pattern) and every route mounted at it. */
interface Address {
  readonly pattern: string;
  readonly match: MatchFunction<Record<string, string>>;
  /** Routes by version, then method. */
  readonly versioned: Map<string, Map<HttpMethod, RouteDefinition>>;
  readonly unversioned: Map<HttpMethod, RouteDefinition>;
  /** Versions the owning controllers declare at this address (a route may be mounted for fewer). */
  readonly declared: Set<string>;
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
export function versionFromAccept(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  for (const range of accept.split(',')) {
    for (const parameter of range.split(';').slice(1)) {
      const [name, value] = parameter.split('=').map((part) => part.trim());
      if (name?.toLowerCase() === 'version' && value !== undefined) return value.replace(/^"|"$/g, '');
    }
  }
  return undefined;
}

/** The route table of all versions, and the per-request dispatch. */
export class VersionRouter {
  private readonly addresses: Address[] = [];

  constructor(
    routes: readonly RouteDefinition[],
    private readonly options: VersioningOptions,
  ) {
    const byPattern = new Map<string, Address>();
    for (const route of routes) {
      let address = byPattern.get(route.path);
      if (!address) {
        address = { pattern: route.path, match: match(route.path, { decode: decodeURIComponent }), versioned: new Map(), unversioned: new Map(), declared: new Set(), specificity: specificityOf(route.path), served: [] };
        byPattern.set(route.path, address);
        this.addresses.push(address);
      }
      for (const version of route.controllerVersions) address.declared.add(version);
      if (route.versions.length === 0) address.unversioned.set(route.method, route);
      for (const version of route.versions) {
        const methods = address.versioned.get(version) ?? new Map<HttpMethod, RouteDefinition>();
        methods.set(route.method, route);
        address.versioned.set(version, methods);
      }
    }
    this.addresses.sort((a, b) => b.specificity - a.specificity);
    for (const address of this.addresses) address.served = [...address.versioned.keys()].sort(compareVersions);
  }

  /** Every version some route is mounted for, in order. */
  versions(): string[] {
    return [...new Set(this.addresses.flatMap((address) => [...address.versioned.keys()]))].sort(compareVersions);
  }

  /** Every route as clients address it under the configured strategy (boot logs). */
  mounted(): MountedRoute[] {
    const { prefix, strategy } = this.options;
    const out: MountedRoute[] = [];
    for (const address of [...this.addresses].sort((a, b) => a.pattern.localeCompare(b.pattern))) {
      for (const [method, route] of address.unversioned) out.push({ route, method, address: clientAddress(prefix, undefined, address.pattern), version: undefined });
      for (const [version, methods] of [...address.versioned].sort(([a], [b]) => compareVersions(a, b))) {
        for (const [method, route] of methods) out.push({ route, method, address: clientAddress(prefix, strategy === 'uri' ? version : undefined, address.pattern), version });
      }
    }
    return out;
  }

  private find(path: string): { address: Address; params: Record<string, string> } | undefined {
    for (const address of this.addresses) {
      const found = address.match(path);
      if (found) return { address, params: { ...found.params } };
    }
    return undefined;
  }

  /** Versions serving an address (named in 404 / 400 answers so a caller can correct itself). */
  private served(address: Address): readonly string[] {
    return address.served;
  }

  /**
   * The decision for `method` at `address` with `stated` (undefined: the caller stated none).
   * Pure: the whole of spec §9.3 per address.
   */
  decide(address: Address, method: HttpMethod, stated: string | undefined): Decision {
    const versions = this.served(address);
    const hasVersions = address.versioned.size > 0;
    if (stated !== undefined && hasVersions) {
      if (!VERSION_TOKEN.test(stated)) return { kind: 'bad-version', detail: `${JSON.stringify(stated)} is not a valid version: use alphanumerics, "." and "-", at most 32 bytes`, versions };
      const routes = address.versioned.get(stated);
      if (!routes) {
        if (address.declared.has(stated)) return { kind: 'method-not-allowed', allow: [], version: stated };
        return { kind: 'not-found', detail: `version ${stated} does not serve ${address.pattern}`, versions };
      }
      const route = routes.get(method);
      return route ? { kind: 'route', route, version: stated } : { kind: 'method-not-allowed', allow: [...routes.keys()].sort(), version: stated };
    }
    const unversioned = address.unversioned.get(method);
    if (unversioned) return { kind: 'route', route: unversioned, version: undefined };
    const fallback = stated === undefined && this.options.defaultVersion !== undefined ? address.versioned.get(this.options.defaultVersion) : undefined;
    const defaulted = fallback?.get(method);
    if (defaulted) return { kind: 'route', route: defaulted, version: this.options.defaultVersion };
    const allow = new Set([...address.unversioned.keys(), ...(fallback?.keys() ?? [])]);
    if (allow.size > 0) return { kind: 'method-not-allowed', allow: [...allow].sort(), version: undefined };
    return { kind: 'not-found', detail: `${address.pattern} is versioned: state one of the versions it serves`, versions };
  }

  /**
   * Resolves one request: strips the prefix, reads the stated version by the strategy, finds the
   * address. Returns undefined when no route of the table is at that path (the request goes on to
   * the next handler), or the decision with the path parameters.
   */
  resolve(request: Request): { decision: Decision; params: Record<string, string> } | undefined {
    const { prefix, strategy } = this.options;
    let path = request.path;
    if (prefix) {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined;
      path = path.slice(prefix.length) || '/';
    }
    const method = (request.method === 'HEAD' ? 'GET' : request.method) as HttpMethod;
    const uriForm = /^\/v([^/]+)(\/.*)?$/.exec(path);
    const versionedTarget = uriForm ? this.find(uriForm[2] ?? '/') : undefined;
    if (strategy === 'uri') {
      if (uriForm && versionedTarget && versionedTarget.address.versioned.size > 0) {
        return { decision: this.decide(versionedTarget.address, method, uriForm[1] ?? ''), params: versionedTarget.params };
      }
      const target = this.find(path);
      return target ? { decision: this.decide(target.address, method, undefined), params: target.params } : undefined;
    }
    const target = this.find(path);
    if (!target && uriForm && versionedTarget && versionedTarget.address.versioned.size > 0) {
      const how = strategy === 'header' ? `send the ${this.options.header} header` : 'send Accept: application/json; version=<version>';
      return { decision: { kind: 'not-found', detail: `versions are not stated in the URI here: request ${prefix}${uriForm[2] ?? '/'} and ${how}`, versions: this.served(versionedTarget.address) }, params: {} };
    }
    if (!target) return undefined;
    const stated = strategy === 'header' ? request.get(this.options.header)?.trim() : versionFromAccept(request.get('accept'));
    return { decision: this.decide(target.address, method, stated === '' ? undefined : stated), params: target.params };
  }
}

/** Lifecycle headers per policy object, computed once. */
const lifecycleCache = new WeakMap<VersionPolicy, Readonly<Record<string, string>>>();

/** Headers of a response served under a version with a lifecycle policy (RFC 9745, RFC 8594). */
export function lifecycleHeaders(policy: VersionPolicy | undefined): Readonly<Record<string, string>> {
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

/** What the Express middleware does with a decision. */
export interface VersionedDispatch {
  /** Runs a route (parses the body when it takes one, calls it, replies). */
  run(route: RouteDefinition, request: Request, response: Response, params: Record<string, string>): Promise<void>;
  /** Answers a refusal as problem+json. */
  refuse(response: Response, status: number, code: string, detail: string, extensions: Record<string, unknown>, headers: Record<string, string>): void;
}

/** The Express middleware in front of all REST routes. */
export function versionedRoutes(router: VersionRouter, options: VersioningOptions, dispatch: VersionedDispatch): RequestHandler {
  const vary = options.strategy === 'header' ? options.header : options.strategy === 'media_type' ? 'Accept' : undefined;
  return (request: Request, response: Response, next: NextFunction) => {
    const resolved = router.resolve(request);
    if (!resolved) {
      next();
      return;
    }
    if (vary) response.vary(vary);
    const { decision, params } = resolved;
    switch (decision.kind) {
      case 'route': {
        const policy = decision.version === undefined ? undefined : options.policies[decision.version];
        for (const [name, value] of Object.entries(lifecycleHeaders(policy))) response.setHeader(name, value);
        dispatch.run(decision.route, request, response, params).catch(next);
        return;
      }
      case 'not-found':
        dispatch.refuse(response, 404, 'NOT_FOUND', decision.detail, { versions: decision.versions }, {});
        return;
      case 'bad-version':
        dispatch.refuse(response, 400, 'BAD_USER_INPUT', decision.detail, { versions: decision.versions }, {});
        return;
      case 'method-not-allowed': {
        const detail = decision.version === undefined ? `${request.method} is not served at ${request.path}` : `${request.method} is not served at ${request.path} under version ${decision.version}`;
        dispatch.refuse(response, 405, 'METHOD_NOT_ALLOWED', detail, { allow: decision.allow }, { Allow: decision.allow.join(', ') });
        return;
      }
    }
  };
}
