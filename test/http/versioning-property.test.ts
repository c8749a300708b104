/**
 * Version routing as a property (docs/behaviour.md §9.3, docs/hostile-input.md §5): for random route tables — methods,
 * versioned and unversioned routes at shared addresses, several versions, controllers declaring
 * more versions than a route mounts — and random requests (method, path, a stated version or
 * none, a default version or none, a global prefix or none), the router agrees with a small
 * reference model of the rules of docs/behaviour.md §9 written over the flat list of routes. Checked on the
 * `VersionRouter` directly for many tables, and over real HTTP against the server started with a
 * sample of the tables in place of the demo's routes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMethod, RouteDefinition } from '../../runtime/http/routes.js';
import { type Decision, VersionRouter, type VersioningStrategy } from '../../runtime/http/versioning.js';
import { createTestDatabase } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { restRoutes } from '../../runtime/transports/rest/index.js';
import { startInProcessServer, withTransport } from '../support/server.js';

const SEED = PROPERTY_SEED;
const RUNS = PROPERTY_RUNS;

/** Addresses of the generated tables: `/a/new` and `/a/:id` both match the path `/a/new`. */
const PATTERNS = ['/', '/a', '/b', '/a/:id', '/a/new', '/b/:id/go'] as const;
/** Request paths: one per pattern, and two that match none. */
const PATHS = ['/', '/a', '/b', '/a/x1', '/a/new', '/b/x1/go', '/c', '/a/x1/zz'] as const;
const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'DELETE'];
const VERSIONS = ['1', '2', '10'] as const;
/** What callers state: declared versions, an unknown one, malformed ones (URL-safe), none. */
const STATED = [...VERSIONS, '7', 'a_b', '9'.repeat(33), ''] as const;
const VERSION_TOKEN = /^[A-Za-z0-9.-]{1,32}$/;

/** One route of a generated table, as the model sees it. */
interface TableRoute {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Versions it is mounted for; empty: unversioned. */
  readonly versions: readonly string[];
  /** Versions its controller declares (a superset of `versions`). */
  readonly declared: readonly string[];
}

/** A generated configuration: the table, the strategy and its settings. */
interface Table {
  readonly routes: readonly TableRoute[];
  readonly strategy: VersioningStrategy;
  readonly prefix: '' | '/rest';
  readonly defaultVersion: string | undefined;
}

/** One generated request. */
interface Probe {
  readonly method: HttpMethod | 'HEAD';
  /** The path with prefix and, under URI versioning, perhaps a `/v<version>` segment. */
  readonly path: string;
  /** What the header or media type states (undefined: not sent; `''`: sent empty). */
  readonly stated: string | undefined;
}

/** What the model expects: a route and the version it is served under, a refusal, or no route here. */
type Expected =
  | { readonly status: 200; readonly id: string; readonly version: string | undefined }
  | { readonly status: 400 | 404; readonly versions: readonly string[] }
  | { readonly status: 405; readonly allow: readonly string[] }
  | { readonly status: 'next' }
  | { readonly status: 'landing' }
  | { readonly status: 'unexpected'; readonly code: number };

const matches = (pattern: string, path: string): boolean => {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  return (
    want.length === got.length && want.every((segment, index) => (segment.startsWith(':') ? got[index] !== '' : segment === got[index]))
  );
};

/** The methods of `routes` that answer with `stated` (undefined: none stated): answering(v) of the router's table. */
function answeringByModel(
  routes: readonly TableRoute[],
  stated: string | undefined,
  defaultVersion: string | undefined,
  inUri: boolean,
): string[] {
  return METHODS.filter((method) => {
    const own = routes.filter((route) => route.method === method);
    const unversioned = own.some((route) => route.versions.length === 0);
    const pinned = own.some((route) => route.versions.length > 0);
    if (stated === undefined)
      return unversioned || (defaultVersion !== undefined && own.some((route) => route.versions.includes(defaultVersion)));
    return own.some((route) => route.versions.includes(stated)) || (!inUri && !pinned && unversioned);
  }).sort();
}

/** Static segments of a pattern: more of them is more specific. */
const specificity = (pattern: string): number => pattern.split('/').filter((segment) => segment !== '' && !segment.startsWith(':')).length;

/**
 * The routes a request of `method` at `path` is decided among: those of the most specific
 * address with a route of `method`, else of the most specific address; and the routes of the
 * other matching addresses (a 405 names what they answer too).
 */
function addressOf(table: Table, path: string, method: HttpMethod): { routes: TableRoute[]; others: TableRoute[][] } {
  const candidates = [...PATTERNS]
    .filter((pattern) => matches(pattern, path) && table.routes.some((route) => route.path === pattern))
    .sort((a, b) => specificity(b) - specificity(a))
    .map((pattern) => table.routes.filter((route) => route.path === pattern));
  const chosen = candidates.find((routes) => routes.some((route) => route.method === method)) ?? candidates[0] ?? [];
  return { routes: chosen, others: candidates.filter((routes) => routes !== chosen) };
}

/**
 * {@link decideByModel} at the address of {@link addressOf}; when no matching address has a route
 * of the method, a 405's Allow is widened to the other matching addresses.
 */
function decideAt(
  at: { routes: TableRoute[]; others: TableRoute[][] },
  method: HttpMethod,
  stated: string | undefined,
  defaultVersion: string | undefined,
  inUri: boolean,
): Expected {
  const expected = decideByModel(at.routes, method, stated, defaultVersion, inUri);
  if (expected.status !== 405 || at.others.length === 0 || at.routes.some((route) => route.method === method)) return expected;
  const allow = new Set(expected.allow);
  for (const routes of at.others) for (const answering of answeringByModel(routes, stated, defaultVersion, inUri)) allow.add(answering);
  return { status: 405, allow: [...allow].sort() };
}

/**
 * The reference model: docs/behaviour.md §9.3 over the flat list of routes at the address the path names.
 * `inUri`: the version was stated in the URI (unversioned routes live elsewhere).
 */
function decideByModel(
  routes: readonly TableRoute[],
  method: HttpMethod,
  stated: string | undefined,
  defaultVersion: string | undefined,
  inUri: boolean,
): Expected {
  const served = [...new Set(routes.flatMap((route) => route.versions))];
  const ofMethod = routes.filter((route) => route.method === method);
  const versioned = ofMethod.filter((route) => route.versions.length > 0);
  const unversioned = ofMethod.find((route) => route.versions.length === 0);
  const methodsWhere = (answers: (method: HttpMethod) => boolean): string[] =>
    METHODS.filter((candidate) => routes.some((route) => route.method === candidate) && answers(candidate)).sort();
  const hasVersioned = (candidate: HttpMethod, version: string): boolean =>
    routes.some((route) => route.method === candidate && route.versions.includes(version));
  const hasUnversioned = (candidate: HttpMethod): boolean =>
    routes.some((route) => route.method === candidate && route.versions.length === 0);
  const isPinned = (candidate: HttpMethod): boolean => routes.some((route) => route.method === candidate && route.versions.length > 0);
  if (stated === undefined) {
    // Rule 2: the default version yields to the unversioned route; it answers only callers who state none.
    if (unversioned) return { status: 200, id: unversioned.id, version: undefined };
    const defaulted = defaultVersion === undefined ? undefined : versioned.find((route) => route.versions.includes(defaultVersion));
    if (defaulted) return { status: 200, id: defaulted.id, version: defaultVersion };
    if (versioned.length > 0) return { status: 404, versions: served };
    const allow = methodsWhere(
      (candidate) => hasUnversioned(candidate) || (defaultVersion !== undefined && hasVersioned(candidate, defaultVersion)),
    );
    return allow.length > 0 ? { status: 405, allow } : { status: 404, versions: served };
  }
  // Rule 1, per route: no versioned route of this method here, so any stated version is served.
  if (!inUri && versioned.length === 0 && unversioned) return { status: 200, id: unversioned.id, version: undefined };
  if (served.length === 0) return { status: 405, allow: methodsWhere(hasUnversioned) };
  if (!VERSION_TOKEN.test(stated)) return { status: 400, versions: served };
  const chosen = versioned.find((route) => route.versions.includes(stated));
  if (chosen) return { status: 200, id: chosen.id, version: stated };
  const allow = methodsWhere(
    (candidate) => hasVersioned(candidate, stated) || (!inUri && !isPinned(candidate) && hasUnversioned(candidate)),
  );
  const known = routes.some((route) => route.versions.includes(stated) || route.declared.includes(stated));
  if (known) return { status: 405, allow };
  // Rule 4: an unknown version is 404, never a fallback to the unversioned route.
  if (versioned.length > 0) return { status: 404, versions: served };
  return allow.length > 0 ? { status: 405, allow } : { status: 404, versions: served };
}

/** The model's answer to `probe` under `table`, path parsing included. */
function expectedFor(table: Table, probe: Probe): Expected {
  let path = probe.path;
  if (table.prefix) {
    if (path !== table.prefix && !path.startsWith(`${table.prefix}/`)) return { status: 'next' };
    path = path.slice(table.prefix.length) || '/';
  }
  const method = probe.method === 'HEAD' ? 'GET' : probe.method;
  const uriForm = /^\/v([^/]+)(\/.*)?$/.exec(path);
  const behind = uriForm ? addressOf(table, uriForm[2] ?? '/', method) : { routes: [], others: [] };
  const behindIsVersioned = behind.routes.some((route) => route.versions.length > 0);
  const direct = addressOf(table, path, method);
  if (table.strategy === 'uri') {
    if (uriForm && behindIsVersioned) return decideAt(behind, method, uriForm[1] ?? '', table.defaultVersion, true);
    return direct.routes.length > 0 ? decideAt(direct, method, undefined, table.defaultVersion, false) : { status: 'next' };
  }
  // Rule 5: the URI form is 404 under header and media-type versioning.
  if (direct.routes.length === 0 && behindIsVersioned)
    return { status: 404, versions: [...new Set(behind.routes.flatMap((route) => route.versions))] };
  if (direct.routes.length === 0) return { status: 'next' };
  return decideAt(direct, method, probe.stated === '' ? undefined : probe.stated, table.defaultVersion, false);
}

/** Random tables: per address and method an unversioned route, up to two versioned ones (each mounting some versions), or both. */
const tables: fc.Arbitrary<Table> = fc
  .record({
    slots: fc.array(
      fc.record({
        path: fc.constantFrom(...PATTERNS),
        method: fc.constantFrom(...METHODS),
        mode: fc.constantFrom('unversioned', 'versioned', 'both'),
        // Which of two versioned routes mounts each version (0, 1, or none).
        owners: fc.tuple(...VERSIONS.map(() => fc.constantFrom(0, 1, undefined))),
        extra: fc.tuple(fc.subarray([...VERSIONS]), fc.subarray([...VERSIONS])),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    strategy: fc.constantFrom<VersioningStrategy>('uri', 'header', 'media_type'),
    prefix: fc.constantFrom<'' | '/rest'>('', '/rest'),
    defaultVersion: fc.option(fc.constantFrom(...VERSIONS), { nil: undefined }),
  })
  .map(({ slots, strategy, prefix, defaultVersion }) => {
    const routes: TableRoute[] = [];
    const taken = new Set<string>();
    for (const slot of slots) {
      const key = `${slot.method} ${slot.path}`;
      if (taken.has(key)) continue;
      taken.add(key);
      const name = `${slot.method}${slot.path}`;
      if (slot.mode !== 'versioned')
        routes.push({ id: `${name} unversioned`, method: slot.method, path: slot.path, versions: [], declared: [] });
      for (const owner of slot.mode === 'unversioned' ? [] : ([0, 1] as const)) {
        const versions = VERSIONS.filter((_, index) => slot.owners[index] === owner);
        if (versions.length > 0)
          routes.push({
            id: `${name} #${owner}`,
            method: slot.method,
            path: slot.path,
            versions,
            declared: [...new Set([...versions, ...slot.extra[owner]])],
          });
      }
    }
    const mounted = new Set(routes.flatMap((route) => route.versions));
    // Boot refuses a default version nothing mounts (docs/behaviour.md §7).
    return {
      routes,
      strategy,
      prefix,
      defaultVersion: defaultVersion !== undefined && mounted.has(defaultVersion) ? defaultVersion : undefined,
    };
  });

/** A request path at each address of {@link PATTERNS}. */
const CONCRETE: Readonly<Record<(typeof PATTERNS)[number], string>> = {
  '/': '/',
  '/a': '/a',
  '/b': '/b',
  '/a/:id': '/a/x1',
  '/a/new': '/a/new',
  '/b/:id/go': '/b/x1/go',
};

/** Random requests, mostly at the table's own addresses and under its prefix. */
function probesFor(table: Table, methods: readonly (HttpMethod | 'HEAD')[]): fc.Arbitrary<Probe> {
  const own = [...new Set(table.routes.map((route) => CONCRETE[route.path as (typeof PATTERNS)[number]]))];
  if (own.length === 0) own.push(...PATHS);
  const uriShare = table.strategy === 'uri' ? 7 : 1;
  return fc
    .record({
      method: fc.constantFrom(...methods),
      path: fc.oneof({ arbitrary: fc.constantFrom(...own), weight: 4 }, { arbitrary: fc.constantFrom(...PATHS), weight: 1 }),
      uriVersion: fc.oneof(
        { arbitrary: fc.constantFrom(...STATED.filter((token) => token !== '')), weight: uriShare },
        { arbitrary: fc.constant(undefined), weight: 10 - uriShare },
      ),
      // Mostly under the prefix, sometimes outside it.
      withPrefix: fc.integer({ min: 0, max: 4 }).map((value) => value > 0),
      stated: fc.option(fc.constantFrom(...STATED), { nil: undefined, freq: 4 }),
    })
    .map(({ method, path, uriVersion, withPrefix, stated }) => {
      const versioned = uriVersion === undefined ? path : path === '/' ? `/v${uriVersion}` : `/v${uriVersion}${path}`;
      const prefixed = withPrefix && table.prefix ? (versioned === '/' ? table.prefix : `${table.prefix}${versioned}`) : versioned;
      return { method, path: prefixed, stated: table.strategy === 'uri' ? undefined : stated };
    });
}

const definitionOf = (route: TableRoute): RouteDefinition => ({
  method: route.method,
  path: route.path,
  versions: route.versions,
  controllerVersions: route.declared,
  controller: 'TableController',
  handler: route.id,
  status: 200,
  reply: 'value',
  takesBody: false,
  query: [],
  handle: () => Promise.resolve({ id: route.id }),
});

/** The router's decision in the model's terms. */
function observed(decision: Decision | undefined): Expected {
  if (!decision) return { status: 'next' };
  switch (decision.kind) {
    case 'route':
      return { status: 200, id: decision.route.handler, version: decision.version };
    case 'not-found':
      return { status: 404, versions: decision.versions };
    case 'bad-version':
      return { status: 400, versions: decision.versions };
    case 'bad-path':
      return { status: 400, versions: [] };
    case 'method-not-allowed':
      return { status: 405, allow: decision.allow };
  }
}

/** Version lists compared as sets: their order is not part of the rules. */
const normalized = (expected: Expected): Expected =>
  'versions' in expected ? { ...expected, versions: [...expected.versions].sort() } : expected;

let decisions = 0;
let exchanges = 0;
const outcomes: Record<string, number> = {};

afterAll(() => {
  reportFigures({ suite: 'versioning', seed: SEED, runs: RUNS, decisions, exchanges, outcomes });
});

describe('the VersionRouter agrees with the reference model of docs/behaviour.md §9.3', () => {
  it('for random tables, strategies, defaults, prefixes and requests', () => {
    fc.assert(
      fc.property(
        tables.chain((table) =>
          fc.tuple(fc.constant(table), fc.array(probesFor(table, [...METHODS, 'HEAD']), { minLength: 1, maxLength: 30 })),
        ),
        ([table, probes]) => {
          const router = new VersionRouter(table.routes.map(definitionOf), {
            strategy: table.strategy,
            header: 'X-API-Version',
            prefix: table.prefix,
            defaultVersion: table.defaultVersion,
            policies: {},
          });
          for (const probe of probes) {
            const expected = expectedFor(table, probe);
            expect({ probe, answer: normalized(observed(router.lookup(probe.method, probe.path, probe.stated)?.decision)) }).toEqual({
              probe,
              answer: normalized(expected),
            });
            decisions += 1;
            const kind =
              expected.status === 200 && expected.version === undefined && probe.stated
                ? '200 unversioned, a version stated'
                : String(expected.status);
            outcomes[kind] = (outcomes[kind] ?? 0) + 1;
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator reaches every kind of answer, including the per-route fallback under a stated version.
    expect(Object.keys(outcomes).sort()).toEqual(['200', '200 unversioned, a version stated', '400', '404', '405', 'next']);
  });
});

describe('over real HTTP, for a sample of the tables', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  /** The server's answer in the model's terms. */
  async function exchange(url: string, table: Table, probe: Probe): Promise<Expected> {
    const headers: Record<string, string> = {};
    if (probe.stated !== undefined && table.strategy === 'header') headers['X-API-Version'] = probe.stated;
    if (probe.stated !== undefined && table.strategy === 'media_type') headers.accept = `application/json; version=${probe.stated}`;
    const response = await fetch(`${url}${probe.path}`, { method: probe.method, headers });
    const body = (await response.json().catch(() => undefined)) as
      { id?: string; versions?: string[]; code?: string; graphql?: string } | undefined;
    switch (response.status) {
      case 200:
        if (body?.graphql !== undefined && body.id === undefined) return { status: 'landing' };
        // The demo's policy deprecates version 1: its Deprecation header tells the version served.
        return { status: 200, id: body?.id ?? '', version: response.headers.get('deprecation') ? '1' : undefined };
      case 400:
      case 404:
        return { status: response.status, versions: body?.versions ?? ['(not a version refusal)'] };
      case 405:
        return { status: 405, allow: (response.headers.get('allow') ?? '').split(', ').filter(Boolean) };
      default:
        return { status: 'unexpected', code: response.status };
    }
  }

  /**
   * What the client sees of the model's answer: of the version served, only whether it is the
   * deprecated 1; and at `/` itself, a GET stating no version that no route serves is the landing
   * answer (docs/behaviour.md §4.8, §9.3.7), whose HEAD has no body to tell it from a route's.
   */
  const onTheWire = (table: Table, probe: Probe, expected: Expected): Expected => {
    const stated = table.strategy === 'uri' ? /^\/v[^/]+/.test(probe.path.slice(table.prefix.length)) : (probe.stated ?? '').trim() !== '';
    if (probe.path === '/' && !stated && expected.status !== 200 && (probe.method === 'GET' || probe.method === 'HEAD')) {
      return probe.method === 'GET' ? { status: 'landing' } : { status: 200, id: '', version: undefined };
    }
    if (expected.status === 200) return { ...expected, version: expected.version === '1' ? '1' : undefined };
    // No route of the table here: the application's own 404 for an unknown path.
    if (expected.status === 'next') return { status: 404, versions: ['(not a version refusal)'] };
    return normalized(expected);
  };

  it('answers like the model', async () => {
    const sample = fc.sample(
      tables.chain((table) => fc.tuple(fc.constant(table), fc.array(probesFor(table, METHODS), { minLength: 25, maxLength: 25 }))),
      { seed: SEED, numRuns: 6 },
    );
    for (const [table, probes] of sample) {
      const server = await startInProcessServer({
        databaseUrl,
        env: {
          APP_HTTP__VERSIONING: table.strategy,
          APP_HTTP__PREFIX: table.prefix,
          ...(table.defaultVersion ? { APP_HTTP__DEFAULT_VERSION: table.defaultVersion } : {}),
          APP_LOG__LEVEL: 'warn',
        },
        adjust: (application) => ({
          ...application,
          transports: withTransport(
            application.transports,
            restRoutes(() => table.routes.map(definitionOf)),
          ),
        }),
      });
      try {
        for (const probe of probes) {
          const answer = await exchange(server.url, table, probe);
          expect({
            table: `${table.strategy} prefix=${table.prefix} default=${table.defaultVersion}`,
            probe,
            answer: normalized(answer),
          }).toEqual({
            table: `${table.strategy} prefix=${table.prefix} default=${table.defaultVersion}`,
            probe,
            answer: onTheWire(table, probe, expectedFor(table, probe)),
          });
          exchanges += 1;
        }
      } finally {
        await server.stop();
      }
    }
  });
});
