/**
 * Route paths read once (docs/behaviour.md §4.2; generator/resolve/route-paths.ts): the parameters
 * the generator binds are the ones the runtime's router — path-to-regexp 8, with the options of
 * runtime/http/versioning.ts — hands a request, on every route of the demo and of the valid
 * fixture; every path the server would refuse at boot is a `route-path-invalid` error instead; and
 * a wildcard, which the router binds to an array of segments, is refused rather than bound as text.
 */
import path from 'node:path';
import { compile, match } from 'path-to-regexp';
import { describe, expect, it } from 'vitest';
import type { ResolvedApp, RouteModel } from '../../generator/model/model.js';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { validate } from '../../generator/validate/index.js';
import { ROOT } from '../support/project.js';

const FIXTURES = path.join(ROOT, 'test/errors/route-path-invalid');

const resolveAt = (entitiesDir: string, root = entitiesDir): ResolvedApp =>
  resolveApp(parseDeclarations({ root, entitiesDir, runtimeDir: path.join(ROOT, 'runtime'), generatedDir: path.join(root, 'generated') }));

/** Every route an application mounts: its controllers' and its resources'. */
const routesOf = (app: ResolvedApp): RouteModel[] => [
  ...app.controllers.flatMap((controller) => controller.routes),
  ...app.resources.flatMap((resource) => resource.controller.routes),
];

/** An example value of a path parameter: no `-`, which a parameter beside another (`:a-:b`) could not hold. */
const valueOf = (name: string): string => `value_${name}`;

/** What the runtime's router hands a request for `route`, its parameters filled with {@link valueOf}. */
function runtimeParameters(route: RouteModel): Partial<Record<string, string | string[]>> {
  const names = route.pathParameters ?? [];
  const url = compile(route.fullPath)(Object.fromEntries(names.map((name) => [name, valueOf(name)])));
  const found = match(route.fullPath, { decode: decodeURIComponent })(url);
  if (!found) throw new Error(`${route.fullPath} does not match ${url}`);
  return { ...found.params };
}

describe('route parameters, as the runtime reads them', () => {
  for (const [name, app] of [
    ['the demo', resolveAt(path.join(ROOT, 'entities'), ROOT)],
    ['the valid fixture', resolveAt(path.join(FIXTURES, 'valid'))],
  ] as const) {
    it(`are the names the router hands each route of ${name}, bound as path parameters`, () => {
      const routes = routesOf(app);
      expect(routes.some((route) => (route.pathParameters?.length ?? 0) > 0)).toBe(true);
      for (const route of routes) {
        const names = route.pathParameters;
        expect(names, `${route.method} ${route.fullPath}`).toBeDefined();
        expect(runtimeParameters(route), `${route.method} ${route.fullPath}`).toEqual(
          Object.fromEntries((names ?? []).map((parameter) => [parameter, valueOf(parameter)])),
        );
        for (const param of route.params) if ((names ?? []).includes(param.name)) expect(param.source).toBe('path');
      }
    });
  }

  it('read the parameters path-to-regexp reads where a regular expression of [A-Za-z0-9_] would not', () => {
    const app = resolveAt(path.join(FIXTURES, 'valid'));
    const version = routesOf(app).find((route) => route.methodName === 'version');
    expect(version?.fullPath).toBe('/orgs/:orgId/notes/:id/versions/:version_2-:kind');
    expect(version?.pathParameters).toEqual(['orgId', 'id', 'version_2', 'kind']);
  });
});

describe('paths the server would refuse', () => {
  it('throw in the runtime router at boot, and are each a route-path-invalid error instead', () => {
    const app = resolveAt(path.join(FIXTURES, 'invalid'));
    const reported = validate(app).filter((diagnostic) => diagnostic.ruleId === 'route-path-invalid');
    const refused = routesOf(app).filter((route) => {
      try {
        match(route.fullPath);
        return false;
      } catch {
        return true;
      }
    });
    expect(refused.map((route) => route.methodName).sort()).toEqual(['byNumber', 'colon', 'files', 'get', 'get', 'open', 'pair']);
    for (const route of refused) {
      expect(route.pathParameters, route.fullPath).toBeUndefined();
      const at = [...route.writtenPath.problems, ...(app.controllers.find((c) => c.name === route.owner)?.writtenPath.problems ?? [])];
      expect(at.length, route.fullPath).toBeGreaterThan(0);
    }
    expect(reported.every((diagnostic) => diagnostic.severity === 'error')).toBe(true);
    expect(reported).toHaveLength(7);
  });

  it('include a wildcard, which the router binds to an array of segments rather than one text', () => {
    expect(match('/files/*rest')('/files/a/b')).toEqual({ path: '/files/a/b', params: { rest: ['a', 'b'] } });
    const app = resolveAt(path.join(FIXTURES, 'invalid-unsupported'));
    const files = routesOf(app).find((route) => route.methodName === 'files');
    expect(files?.writtenPath.problems).toEqual([{ kind: 'wildcard', name: 'rest', index: 6 }]);
    expect(files?.pathParameters).toBeUndefined();
  });
});
