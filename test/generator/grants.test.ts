/**
 * What the documents learn from the abilities and the package.json (docs/behaviour.md §4.4, §4.7):
 * the grants of the ability rules read statically (generator/parse/abilities.ts, generator/resolve/grants.ts) — which create fields a rule fixes, which
 * fields a read rule limits a role to, and `unknown` for a grant written in a way that cannot be
 * followed — and the license and contact read from package.json (generator/project-info.ts), with
 * the generator's settings that file keeps (`"resource-service": { "strict": true }`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAbilityRules } from '../../generator/parse/abilities.js';
import { Project } from '../../generator/parse/ts-morph.js';
import { readGeneratorSettings, readProjectInfo } from '../../generator/project-info.js';
import { alwaysReadable, fixedOnCreate, type Grants, grantsOf as grantsOfRules } from '../../generator/resolve/grants.js';
import { buildOpenApiDocument, type JsonSchema, type OpenApiDocument } from '../../runtime/http/openapi.js';

/** The grants of the one class in `source`. */
function grantsOf(source: string): Grants {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('/app/entities/abilities.ts', source);
  const layout = { root: '/app', entitiesDir: '/app/entities', runtimeDir: '/app/runtime', generatedDir: '/app/generated' };
  return grantsOfRules(file.getClasses().flatMap((cls) => readAbilityRules(layout, cls)));
}

const HEADER = `declare function defineAbility(build: (builder: { can: (...args: unknown[]) => void; cannot: (...args: unknown[]) => void }) => void): unknown;
declare const principal: { org_id: string; sub: string; role: string };
`;

describe('grants read from the abilities', () => {
  it('finds the fields create rules fix, through spreads of local objects', () => {
    const grants = grantsOf(`${HEADER}
class Abilities {
  for() {
    const inOrg = { orgId: principal.org_id };
    return defineAbility(({ can }) => {
      can('create', 'Comment', { ...inOrg, authorId: principal.sub });
      can(['read', 'update'], 'Comment', ['id', 'body'], inOrg);
      can('read', 'Comment', inOrg);
      can('manage', 'Tag');
    });
  }
}`);
    expect(fixedOnCreate(grants, 'Comment')).toEqual(new Set(['orgId', 'authorId']));
    expect(fixedOnCreate(grants, 'Tag')).toEqual(new Set());
    // One read rule names fields: only those are always seen.
    expect(alwaysReadable(grants, 'Comment', 'body')).toBe(true);
    expect(alwaysReadable(grants, 'Comment', 'authorId')).toBe(false);
    expect(alwaysReadable(grants, 'Tag', 'name')).toBe(true);
  });

  it('is unknown, promising nothing, when a grant cannot be followed or one is taken back', () => {
    for (const body of [
      `can(action, 'Comment', { orgId: 1 });`,
      `can('create', 'Comment', conditions());`,
      `can('create', 'Comment', { [key]: 1 });`,
      `cannot('read', 'Comment', ['body']);`,
    ]) {
      const grants = grantsOf(`${HEADER}
declare const action: string; declare const key: string; declare function conditions(): object;
class Abilities { for() { return defineAbility(({ can, cannot }) => { ${body} }); } }`);
      expect(grants, body).toEqual({ kind: 'unknown' });
      expect(fixedOnCreate(grants, 'Comment')).toBeUndefined();
      expect(alwaysReadable(grants, 'Comment', 'id')).toBe(false);
    }
  });
});

describe('license and contact from package.json', () => {
  function infoOf(manifest: unknown): ReturnType<typeof readProjectInfo> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'project-info-'));
    try {
      writeFileSync(path.join(dir, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
      return readProjectInfo(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('reads an SPDX license and an npm person', () => {
    expect(infoOf({ license: 'MIT', author: 'Ada Lovelace <ada@example.com> (https://example.com/ada)' })).toEqual({
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Ada Lovelace', email: 'ada@example.com', url: 'https://example.com/ada' },
    });
    expect(infoOf({ author: { name: 'Team' }, homepage: 'https://example.com' })).toEqual({
      contact: { name: 'Team', url: 'https://example.com' },
    });
    expect(infoOf({ license: 'SEE LICENSE IN LICENSE.txt', bugs: { url: 'https://example.com/issues' } })).toEqual({
      license: { name: 'SEE LICENSE IN LICENSE.txt' },
      contact: { url: 'https://example.com/issues' },
    });
  });

  it('puts them in the info of every document', () => {
    const catalog = {
      title: 'T',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Team' },
      tags: [],
      schemas: {},
      operations: [],
    };
    const document = buildOpenApiDocument(catalog, undefined, { strategy: 'uri', header: 'X-API-Version', prefix: '', policies: {} });
    expect(document.info).toMatchObject({ license: { name: 'MIT', identifier: 'MIT' }, contact: { name: 'Team' } });
  });

  it('gives nothing for a package.json naming neither, or one that cannot be read', () => {
    expect(infoOf({ name: 'app' })).toEqual({});
    expect(infoOf('{ not json')).toEqual({});
    expect(readProjectInfo(path.join(os.tmpdir(), 'no-such-project-here'))).toEqual({});
  });
});

describe('the generator\'s settings from package.json ("resource-service", docs/guide/development.md "Strict mode")', () => {
  function settingsOf(manifest: unknown): ReturnType<typeof readGeneratorSettings> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'project-settings-'));
    try {
      writeFileSync(path.join(dir, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
      return readGeneratorSettings(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('reads strict, off unless the section says so (or there is no readable package.json)', () => {
    expect(settingsOf({ 'resource-service': { strict: true } })).toEqual({ strict: true });
    expect(settingsOf({ 'resource-service': { strict: false } })).toEqual({ strict: false });
    expect(settingsOf({ 'resource-service': {} })).toEqual({ strict: false });
    expect(settingsOf({ name: 'app' })).toEqual({ strict: false });
    expect(settingsOf('{ not json')).toEqual({ strict: false });
    expect(readGeneratorSettings(path.join(os.tmpdir(), 'no-such-project-here'))).toEqual({ strict: false });
  });

  it('refuses a section that is no object, an unknown setting and a value of the wrong type, naming the fix', () => {
    expect(() => settingsOf({ 'resource-service': true })).toThrow(
      'package.json "resource-service" is true; write an object of settings, such as { "strict": true }',
    );
    expect(() => settingsOf({ 'resource-service': { Strict: true } })).toThrow(
      'package.json "resource-service" has no setting "Strict" (did you mean "strict"?); the settings are "strict"',
    );
    expect(() => settingsOf({ 'resource-service': { strict: 1 } })).toThrow(
      'package.json "resource-service".strict is 1; write true or false',
    );
  });
});

describe('the documents are typed with openapi-types (docs/behaviour.md §4.4)', () => {
  it('so a malformed document does not compile (checked by tsc -p ., which compiles this file)', () => {
    // @ts-expect-error -- `strin` is no JSON Schema type
    const schema: JsonSchema = { type: 'strin' };
    const document: OpenApiDocument = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1' },
      // @ts-expect-error -- a response must be described
      paths: { '/x': { get: { parameters: [], responses: { '200': { content: {} } } } } },
    };
    expect([schema, document]).toHaveLength(2);
  });
});
