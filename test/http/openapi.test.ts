// Runs on: sqlite, postgresql
/**
 * OpenAPI 3.1 documents (docs/behaviour.md §4.4, §9.4): every emitted and served document passes an
 * independent validator (@readme/openapi-parser); `/api-json` serves the default version or the
 * aggregate; per-version documents; header parameters under header / media-type versioning; the
 * documents and the SDL speak to callers (tags declared or derived, no internal reference in any
 * text); and `/api` in a real browser (Debian's Chromium through playwright-core) lists the
 * operations of the version picked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeclarations } from '../../generator/parse/declarations.js';
import { resolveApp } from '../../generator/resolve/index.js';
import { launchChromium } from '../support/browser.js';
import { OpenApiValidator } from '../support/openapi-validator.js';
import { layoutAt, ROOT } from '../support/project.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

type Document = {
  info: { version: string; description: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        tags: string[];
        deprecated?: boolean;
        parameters: { name: string; in: string; required: boolean; schema: { enum?: string[] } }[];
        responses: Record<string, { headers?: Record<string, unknown>; $ref?: string }>;
        security: unknown[];
      }
    >
  >;
  tags: { name: string }[];
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

const servers: Partial<Record<string, InProcessServer>> = {};

beforeAll(async () => {
  const configurations: Record<string, Record<string, string>> = {
    uri: {},
    header: { APP_HTTP__VERSIONING: 'header' },
    media: { APP_HTTP__VERSIONING: 'media_type' },
    headerDefault: { APP_HTTP__VERSIONING: 'header', APP_HTTP__DEFAULT_VERSION: '2', APP_HTTP__PREFIX: '/rest' },
  };
  await Promise.all(
    Object.entries(configurations).map(
      async ([name, env]) => (servers[name] = await startInProcessServer({ env, seed: { orgs: 1, users: 3, posts: 1 } })),
    ),
  );
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map(async (server) => server?.stop()));
});

async function fetchDocument(name: string, pathname = '/api-json'): Promise<Document> {
  const response = await fetch(`${servers[name]?.url}${pathname}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

async function expectValid(doc: unknown): Promise<void> {
  // The validator dereferences in place: hand it a copy.
  const result = await validate(structuredClone(doc) as never);
  expect(result.valid ? '' : compileErrors(result)).toBe('');
  expect(result.valid).toBe(true);
}

describe('documents pass an independent OpenAPI 3.1 validator', () => {
  it('which does refuse a broken document (a response that is not an object, a dangling $ref)', async () => {
    const document = JSON.parse(readFileSync(path.join(ROOT, 'generated/openapi/v2.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const broken = structuredClone(document);
    const [first] = Object.keys(broken.paths);
    broken.paths[first ?? ''] = { get: { responses: { '200': { $ref: '#/components/responses/Missing' } } } };
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('for every document emitted to generated/openapi/', async () => {
    const files = readdirSync(path.join(ROOT, 'generated/openapi')).filter((file) => file.endsWith('.json'));
    expect(files.sort()).toEqual(['openapi.json', 'v1.json', 'v2.json']);
    for (const file of files) await expectValid(JSON.parse(readFileSync(path.join(ROOT, 'generated/openapi', file), 'utf8')));
  });

  it('for every document served under every strategy', async () => {
    for (const name of Object.keys(servers)) {
      for (const pathname of ['/api-json', '/api-json/v1', '/api-json/v2']) await expectValid(await fetchDocument(name, pathname));
    }
  });

  it('matches the served document of the default configuration with the committed one', async () => {
    expect(await fetchDocument('uri')).toEqual(JSON.parse(readFileSync(path.join(ROOT, 'generated/openapi/openapi.json'), 'utf8')));
  });
});

describe('/api-json (docs/behaviour.md §4.4)', () => {
  it('aggregates every version when no default is configured', async () => {
    const doc = await fetchDocument('uri');
    expect(doc.info.version).toBe('all');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/posts', '/v2/posts', '/v2/posts/{id}/publish', '/users', '/meta', '/v2/meta']),
    );
    expect(Object.keys(doc.paths)).not.toContain('/v1/posts/{id}/publish');
  });

  it('resolves a contested path to the highest version in the aggregate (header versioning)', async () => {
    const doc = await fetchDocument('header');
    expect(doc.paths['/posts']?.get?.operationId).toBe('PostsController_list');
    expect(doc.paths['/posts']?.get?.['x-api-version' as 'operationId']).toBe('2');
    expect(doc.paths['/meta']?.get?.operationId).toBe('ApiRootV2Controller_meta');
  });

  it("serves the default version's document when one is configured, under the prefix", async () => {
    const doc = await fetchDocument('headerDefault');
    expect(doc.info.version).toBe('2');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/rest/posts', '/rest/posts/{id}/publish', '/rest/users']));
  });

  it('serves one version at /api-json/v<version>, marking a deprecated version', async () => {
    const v1 = await fetchDocument('uri', '/api-json/v1');
    expect(v1.info.version).toBe('1');
    expect(v1.info.description).toContain('Version 1 is deprecated and sunsets on 2027-06-30');
    expect(Object.keys(v1.paths)).not.toContain('/v1/posts/{id}/publish');
    expect(v1.paths['/v1/posts']?.get?.deprecated).toBe(true);
    expect((await fetchDocument('uri', '/api-json/v2')).paths['/v2/posts']?.get?.deprecated).toBeUndefined();
  });

  it('answers an unknown version with 404 naming the versions', async () => {
    const response = await fetch(`${servers.uri?.url}/api-json/v9`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ versions: ['1', '2'] });
  });
});

describe('a path two controllers serve, one per version (docs/behaviour.md §4.4, §9.1, §9.4)', () => {
  const versionParameter = (doc: Document, pathname: string, method: 'get' | 'post') =>
    doc.paths[pathname]?.[method]?.parameters.find((parameter) => parameter.in === 'header');

  /** Every value the parameter enumerates is served, answering as documented; nothing else is. */
  async function expectServedAsListed(name: string, doc: Document, pathname: string): Promise<void> {
    const parameter = versionParameter(doc, pathname, 'get');
    const validator = new OpenApiValidator(doc);
    for (const value of [...(parameter?.schema.enum ?? []), name === 'media' ? 'application/json; version=3' : '3']) {
      const response = await fetch(`${servers[name]?.url}${pathname}`, { headers: { [parameter?.name ?? '']: value } });
      const listed = parameter?.schema.enum?.includes(value) ?? false;
      expect({ value, status: response.status }).toEqual({ value, status: listed ? 200 : 404 });
      expect(validator.check('GET', pathname, response.status, response.headers.get('content-type'), await response.json())).toEqual([]);
    }
  }

  it('is listed under each version serving it in the aggregate under URI versioning', async () => {
    const doc = await fetchDocument('uri');
    expect(doc.paths['/v1']?.get).toMatchObject({ operationId: 'ApiRootV1Controller_root_v1', 'x-api-version': '1' });
    expect(doc.paths['/v2']?.get).toMatchObject({ operationId: 'ApiRootV2Controller_root_v2', 'x-api-version': '2' });
    await expectValid(doc);
  });

  it('enumerates every version serving it in the aggregate under header versioning', async () => {
    const doc = await fetchDocument('header');
    expect(doc.paths['/']?.get).toMatchObject({ operationId: 'ApiRootV2Controller_root', 'x-api-version': '2' });
    expect(versionParameter(doc, '/', 'get')).toEqual({
      name: 'X-API-Version',
      in: 'header',
      required: true,
      description: 'The API version to use.',
      schema: { type: 'string', enum: ['1', '2'] },
    });
    expect(doc.info.description).toContain('its version parameter lists every version serving it');
    await expectValid(doc);
    await expectServedAsListed('header', doc, '/');
  });

  it('enumerates every version serving it in the aggregate under media-type versioning', async () => {
    const doc = await fetchDocument('media');
    expect(versionParameter(doc, '/', 'get')).toMatchObject({
      name: 'Accept',
      required: true,
      schema: { type: 'string', enum: ['application/json; version=1', 'application/json; version=2'] },
    });
    await expectValid(doc);
    await expectServedAsListed('media', doc, '/');
  });

  it("enumerates every version serving it in each version's document too", async () => {
    for (const version of ['1', '2']) {
      const doc = await fetchDocument('header', `/api-json/v${version}`);
      expect(doc.paths['/']?.get?.operationId).toBe(`ApiRootV${version}Controller_root`);
      expect(versionParameter(doc, '/', 'get')?.schema).toEqual({ type: 'string', enum: ['1', '2'] });
    }
  });

  it('makes the parameter optional when the default version serves the path, whichever controller does', async () => {
    const v1 = await fetchDocument('headerDefault', '/api-json/v1');
    expect(v1.paths['/rest']?.get?.operationId).toBe('ApiRootV1Controller_root');
    expect(versionParameter(v1, '/rest', 'get')).toMatchObject({ required: false, schema: { enum: ['1', '2'] } });
  });

  it('enumerates per method: GET /meta is versioned, the unversioned POST /meta takes no version', async () => {
    const doc = await fetchDocument('header');
    expect(versionParameter(doc, '/meta', 'get')).toMatchObject({ required: false, schema: { enum: ['2'] } });
    expect(doc.paths['/meta']?.post?.operationId).toBe('MetaController_negotiate');
    expect(versionParameter(doc, '/meta', 'post')).toBeUndefined();
  });
});

describe('what the documents describe', () => {
  it('writes paths without the version and adds the version header under header versioning', async () => {
    const doc = await fetchDocument('header', '/api-json/v2');
    const list = doc.paths['/posts']?.get;
    expect(list?.parameters).toContainEqual({
      name: 'X-API-Version',
      in: 'header',
      required: true,
      description: 'The API version to use.',
      schema: { type: 'string', enum: ['1', '2'] },
    });
    const publish = doc.paths['/posts/{id}/publish']?.post;
    expect(publish?.parameters).toContainEqual(
      expect.objectContaining({ name: 'X-API-Version', required: true, schema: { type: 'string', enum: ['2'] } }),
    );
    expect(doc.paths['/users']?.get?.parameters.map((parameter) => parameter.name)).toEqual(['first', 'after']);
  });

  it('makes the version header optional where the default version, or an unversioned route, answers', async () => {
    const withDefault = await fetchDocument('headerDefault', '/api-json/v2');
    expect(withDefault.paths['/rest/posts']?.get?.parameters).toContainEqual(
      expect.objectContaining({ name: 'X-API-Version', required: false }),
    );
    const aggregate = await fetchDocument('header');
    expect(aggregate.paths['/meta']?.get?.parameters).toContainEqual(expect.objectContaining({ name: 'X-API-Version', required: false }));
  });

  it('uses Accept with version= under media-type versioning', async () => {
    const doc = await fetchDocument('media', '/api-json/v2');
    expect(doc.paths['/posts']?.get?.parameters).toContainEqual(
      expect.objectContaining({
        name: 'Accept',
        in: 'header',
        schema: { type: 'string', enum: ['application/json; version=1', 'application/json; version=2'] },
      }),
    );
  });

  it('tags operations as declared and describes pagination, the cursor header, errors and security', async () => {
    const doc = await fetchDocument('uri', '/api-json/v2');
    expect(doc.tags.map((tag) => tag.name)).toEqual([
      'API',
      'Audit records',
      'Comments',
      'Digests',
      'Notifications',
      'Orgs',
      'Posts',
      'Users',
    ]);
    const list = doc.paths['/v2/posts']?.get;
    expect(list?.tags).toEqual(['Posts']);
    expect(list?.parameters.map((parameter) => parameter.name)).toEqual(['first', 'after']);
    expect(list?.parameters[0]).toMatchObject({ description: expect.stringMatching(/^Page size, 1 to 100 \(default 20\)\./) });
    expect(list?.responses['200']?.headers).toHaveProperty('x-next-cursor');
    expect(list?.responses['401']).toEqual({ $ref: '#/components/responses/Problem401' });
    expect(list?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/meta']?.get?.security).toEqual([]);
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Post', 'User', 'Org', 'CreatePost', 'CreateUser', 'PostStatus', 'Problem']),
    );
  });
});

/**
 * What must never reach a caller: this repository's documents and issues, the runtime's and
 * configuration's constant names, class names, source paths.
 */
const INTERNAL_REFERENCE =
  /spec §|docs\/|behaviour\.md|decisions\.md|PRODUCT\.md|README|issue #?\d|LIST_CAP|_PAGE_SIZE|APP_[A-Z]+__|Controller\b|Service\b|\.ts\b|runtime\/|entities\//;

/** Every `summary` and `description` in a JSON document, at any depth, with where it is. */
function textsOf(value: unknown, at = '#', found: { at: string; text: string }[] = []): { at: string; text: string }[] {
  if (Array.isArray(value)) value.forEach((item, index) => textsOf(item, `${at}/${index}`, found));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'summary' || key === 'description') && typeof item === 'string') found.push({ at: `${at}/${key}`, text: item });
      else textsOf(item, `${at}/${key}`, found);
    }
  }
  return found;
}

describe('what each document carries (docs/behaviour.md §4.4)', () => {
  type Loose = {
    servers?: unknown;
    paths: Record<string, Record<string, { description?: string; requestBody?: unknown; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, { required?: string[] }>; responses: Record<string, unknown> };
  };
  const loose = async (pathname: string, name = 'uri'): Promise<Loose> => (await fetchDocument(name, pathname)) as unknown as Loose;

  it('carries only the components its routes use: v1 none of the v2-only schemas', async () => {
    const v1 = await loose('/api-json/v1');
    for (const name of ['AuditRecord', 'Comment', 'CreateCommentInput', 'UpdateCommentInput', 'Digest', 'Notification'])
      expect(Object.keys(v1.components.schemas)).not.toContain(name);
    expect(Object.keys((await loose('/api-json/v2')).components.schemas)).toEqual(
      expect.arrayContaining(['Comment', 'CreateCommentInput', 'Notification']),
    );
    // A 429 is documented (and its response listed) only when a rate limit is configured.
    expect(Object.keys(v1.components.responses)).not.toContain('Problem429');
  });

  it('names the server, and describes every operation with 400 on each and 413/415 where it takes a body', async () => {
    for (const pathname of ['/api-json', '/api-json/v1', '/api-json/v2']) {
      const doc = await loose(pathname);
      expect(doc.servers).toEqual([{ url: '/', description: 'The server this document is served from.' }]);
      for (const [address, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          expect(operation.description, `${method} ${address}`).toMatch(/\S/);
          expect(Object.keys(operation.responses), `${method} ${address}`).toContain('400');
          if (operation.requestBody)
            expect(Object.keys(operation.responses), `${method} ${address}`).toEqual(expect.arrayContaining(['413', '415']));
        }
      }
    }
  });

  it('requires what the server requires: create fields no grant fixes, and response fields every read grant shows', async () => {
    const v2 = await loose('/api-json/v2');
    // orgId and authorId come from the create grants of the demo's roles; postId and body from the caller.
    expect(v2.components.schemas.CreateCommentInput?.required).toEqual(['postId', 'body']);
    expect(v2.components.schemas.UpdateCommentInput?.required).toBeUndefined();
    // A viewer reads neither a comment's author nor a user's email: those may be absent.
    expect(v2.components.schemas.Comment?.required).toEqual(['id', 'orgId', 'postId', 'body', 'createdAt']);
    expect(v2.components.schemas.User?.required).toEqual(['id', 'orgId', 'name']);
    expect(v2.components.schemas.Post?.required).toEqual(['id', 'orgId', 'authorId', 'title', 'body', 'status', 'createdAt']);
  });
});

describe('the contracts speak to callers, not to maintainers', () => {
  const app = resolveApp(parseDeclarations(layoutAt(ROOT)));
  const classNames = new Set(app.mounted.controllers.map((controller) => controller.name));
  const declaredTags = new Set(app.mounted.controllers.flatMap((controller) => controller.tags));

  it('the demo declares a tag for callers on every controller (@ApiTags), the root controllers of both versions sharing one', () => {
    expect([...declaredTags].sort()).toEqual(['API', 'Audit records', 'Comments', 'Digests', 'Notifications', 'Orgs', 'Posts', 'Users']);
    const byName = new Map(app.mounted.controllers.map((controller) => [controller.name, controller.tags]));
    expect(byName.get('ApiRootV1Controller')).toEqual(byName.get('ApiRootV2Controller'));
  });

  it('every tag of every served document is a declared or derived name, listed, never a class name', async () => {
    for (const name of Object.keys(servers)) {
      for (const pathname of ['/api-json', '/api-json/v1', '/api-json/v2']) {
        const doc = await fetchDocument(name, pathname);
        const listed = doc.tags.map((tag) => tag.name);
        const used = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags)));
        for (const tag of [...listed, ...used]) {
          expect({
            name,
            pathname,
            tag,
            declared: declaredTags.has(tag),
            className: classNames.has(tag) || /Controller\b/.test(tag),
          }).toEqual({ name, pathname, tag, declared: true, className: false });
        }
        // A document lists exactly the tags its operations use.
        expect({ name, pathname, tags: [...listed].sort() }).toEqual({ name, pathname, tags: [...used].sort() });
      }
    }
  });

  it('no summary or description in any served or emitted document cites an internal reference', async () => {
    const documents: { source: string; doc: unknown }[] = [];
    for (const name of Object.keys(servers)) {
      for (const pathname of ['/api-json', '/api-json/v1', '/api-json/v2'])
        documents.push({ source: `${name} ${pathname}`, doc: await fetchDocument(name, pathname) });
    }
    for (const file of readdirSync(path.join(ROOT, 'generated/openapi')).filter((candidate) => candidate.endsWith('.json'))) {
      documents.push({
        source: `generated/openapi/${file}`,
        doc: JSON.parse(readFileSync(path.join(ROOT, 'generated/openapi', file), 'utf8')),
      });
    }
    const cited = documents.flatMap(({ source, doc }) =>
      textsOf(doc)
        .filter(({ text }) => INTERNAL_REFERENCE.test(text))
        .map(({ at, text }) => `${source} ${at}: ${text}`),
    );
    expect(cited).toEqual([]);
    expect(textsOf(documents[0]?.doc).length).toBeGreaterThan(20);
  });

  it('no description in the SDL cites an internal reference', () => {
    const schema = buildSchema(readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8'));
    const descriptions: { at: string; text: string | null | undefined }[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      descriptions.push({ at: type.name, text: type.description });
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          descriptions.push({ at: `${type.name}.${field.name}`, text: field.description });
          for (const argument of field.args)
            descriptions.push({ at: `${type.name}.${field.name}(${argument.name})`, text: argument.description });
        }
      }
      if (isInputObjectType(type))
        for (const field of Object.values(type.getFields()))
          descriptions.push({ at: `${type.name}.${field.name}`, text: field.description });
      if (isEnumType(type))
        for (const value of type.getValues()) descriptions.push({ at: `${type.name}.${value.name}`, text: value.description });
    }
    const written = descriptions.filter((entry): entry is { at: string; text: string } => typeof entry.text === 'string');
    expect(written.length).toBeGreaterThan(20);
    expect(written.filter(({ text }) => INTERNAL_REFERENCE.test(text)).map(({ at, text }) => `${at}: ${text}`)).toEqual([]);
  });
});

describe('/api in a browser', () => {
  it('lists the operations of the version picked (Swagger UI from npm assets, no CDN)', async (context) => {
    const browser = await launchChromium(context);
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${servers.uri?.url}/api`);
      // Swagger UI renders deprecated operations (version 1) with their own class.
      const paths = '.opblock-summary-path, .opblock-summary-path__deprecated';
      await page.waitForSelector(paths);
      const listed = (): Promise<string[]> =>
        page.evaluate<string[]>(
          `[...document.querySelectorAll(${JSON.stringify(paths)})].map((node) => node.getAttribute('data-path') ?? node.textContent ?? '')`,
        );
      expect(await listed()).toEqual(expect.arrayContaining(['/v1', '/v1/posts', '/v2/posts/{id}/publish', '/users']));
      await page.selectOption('#select', { label: 'v1' });
      // Runs in the page (the project's types have no DOM, hence the string).
      // Poll with evaluate (CDP, not subject to the page's CSP); waitForFunction evals in the page, which helmet's CSP forbids.
      await expect
        .poll(() => page.evaluate<string>('document.body.textContent'), { timeout: 15_000 })
        .not.toContain('/v2/posts/{id}/publish');
      await page.waitForSelector(paths);
      const v1 = await listed();
      expect(v1).toContain('/v1/posts');
      expect(v1).not.toContain('/v2/posts/{id}/publish');
      expect(requested.every((url) => url.startsWith(servers.uri?.url ?? ''))).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
