// Runs on: sqlite, postgresql
/**
 * The MCP host (docs/behaviour.md §4.6) against the generated demo server, over real HTTP with the
 * SDK's own client (`Client` + `StreamableHTTPClientTransport`): the tools a caller is shown, calls
 * and their results beside the same operation over GraphQL, posture refusals and masking, bad
 * arguments as tool errors, bearer authentication (401 with `WWW-Authenticate` for an invalid
 * token), and no sessions (docs/decisions.md §15): every request is answered on its own, as whoever
 * its token names, whatever `Mcp-Session-Id` it carries; `GET` and `DELETE` are 405. Raw `fetch`
 * where the test is about the wire itself.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, describeTool, type McpCaller, type McpToolDefinition, type McpToolOutput } from '../../runtime/transports/mcp/tools.js';
import { ROOT } from '../support/project.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { rawBody, rawExchange } from '../support/raw-http.js';
import { type Role, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
const open: Client[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 2, users: 4, posts: 3 } });
});

afterAll(async () => {
  await Promise.allSettled(open.map((client) => client.close()));
  await server?.stop();
});

/** A connected SDK client, with `token` as its bearer token when given. */
async function connect(token?: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

async function clientFor(role?: Role, orgIndex?: number): Promise<Client> {
  return (await connect(role ? await server.token(role, orgIndex) : undefined)).client;
}

/** A tool call's result, typed as the tools of this host answer. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The value a successful result carries: its JSON text (docs/behaviour.md §4.6). */
function valueOf(result: CallToolResult): unknown {
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return JSON.parse((result.content[0] as { text: string }).text) as unknown;
}

/** The failure of an `isError` result. */
function failureOf(result: CallToolResult): {
  code: string;
  message: string;
  field?: string;
  issues?: { path: string; message: string }[];
} {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  return (result.structuredContent as { error: { code: string; message: string } }).error;
}

interface Page<T> {
  readonly items: T[];
  readonly next_cursor?: string;
  readonly has_more: boolean;
}

interface PostValue {
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly authorId: string;
  readonly publishedAt: string | null;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A raw JSON-RPC POST to /mcp. */
function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
}

const initialize = (id = 1): unknown => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw `tools/call` of `name` with `args`: the JSON-RPC answer's status and parsed body. */
async function rawCall(
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { result?: CallToolResult; error?: unknown } }> {
  const response = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name, arguments: args } }, headers);
  return { status: response.status, body: (await response.json()) as { result?: CallToolResult; error?: unknown } };
}

describe('tools/list (docs/behaviour.md §4.6)', () => {
  it('shows each caller the tools their ability can run: public ones always, authorized ones when granted', async () => {
    const names = async (role?: Role): Promise<string[]> =>
      (await (await clientFor(role)).listTools()).tools.map((tool) => tool.name).sort();
    expect(await names('admin')).toEqual(['createPost', 'me', 'notifications', 'posts', 'posts_get', 'publishPost', 'users']);
    expect(await names('member')).toEqual(['createPost', 'me', 'notifications', 'posts', 'posts_get', 'publishPost', 'users']);
    expect(await names('viewer')).toEqual(['me', 'notifications', 'posts', 'posts_get', 'users']);
    expect(await names()).toEqual(['me']);
  });

  it('describes each tool from its declaration: caller-facing docstring, title, readOnly hint, input schema', async () => {
    const { tools } = await (await clientFor('admin')).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('publishPost')).toEqual({
      name: 'publishPost',
      title: 'Publish a post',
      description: 'Publishes a draft: its status becomes `published`.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
      outputSchema: expect.objectContaining({
        type: 'object',
        anyOf: [
          expect.objectContaining({ type: 'object', required: ['id', 'orgId', 'authorId', 'title', 'body', 'status', 'createdAt'] }),
          expect.objectContaining({ required: ['error'] }),
        ],
      }) as unknown,
      annotations: { readOnlyHint: false },
    });
    // The zod schema of the argument's ZodValidationPipe, as its input (a default makes `body` optional).
    expect(byName.get('createPost')?.inputSchema).toEqual({
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, body: { type: 'string', maxLength: 10_000, default: '' } },
          required: ['title'],
          additionalProperties: false,
        },
      },
      required: ['input'],
      additionalProperties: false,
    });
    expect(byName.get('posts')?.inputSchema.properties).toEqual({
      first: { type: 'integer', description: 'Page size, 1 to 100 (default 20).' },
      after: { type: 'string', description: 'The last id of the previous page; leave it out for the first page.' },
    });
    expect(byName.get('posts')?.annotations).toEqual({ readOnlyHint: true });
    // No @privateRemarks reach callers.
    for (const tool of tools) expect(tool.description ?? '').not.toMatch(/docs\/|§|privateRemarks/);
  });
});

describe('tools/call (docs/behaviour.md §4.6)', () => {
  it('lists posts as the GraphQL query does, page by page', async () => {
    const token = await server.token('member');
    const client = (await connect(token)).client;
    const graphql = await server.graphql<{ posts: { id: string }[] }>('{ posts(first: 100) { id } }', { token });
    const ids: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const result = await call(client, 'posts', { first: 2, ...(after ? { after } : {}) });
      expect(result.isError).toBeFalsy();
      const page = valueOf(result) as Page<PostValue>;
      // The value as structuredContent (checked by the client against the tool's outputSchema) and the same JSON as text.
      expect(result.structuredContent).toEqual(page);
      ids.push(...page.items.map((post) => post.id));
      if (!page.has_more) break;
      after = page.next_cursor;
    }
    expect(ids).toEqual(graphql.data?.posts.map((post) => post.id));
    expect(ids.length).toBeGreaterThan(2);
  });

  it('writes a draft and publishes it; publishing it again is a conflict', async () => {
    const client = await clientFor('member');
    const created = await call(client, 'createPost', { input: { title: '  From a model  ' } });
    const draft = valueOf(created) as PostValue;
    expect(draft).toMatchObject({ title: 'From a model', status: 'draft', authorId: server.user('member').id, publishedAt: null });
    const published = await call(client, 'publishPost', { id: draft.id });
    expect(valueOf(published)).toMatchObject({ id: draft.id, status: 'published' });
    expect((valueOf(published) as PostValue).publishedAt).toEqual(expect.any(String));
    expect(failureOf(await call(client, 'publishPost', { id: draft.id })).code).toBe('CONFLICT');
    // The same post through the route tool and over REST.
    const read = await call(client, 'posts_get', { id: draft.id });
    expect(valueOf(read)).toMatchObject({ id: draft.id, status: 'published' });
    // Publishing enqueued a `notifications` job; its notification reaches the author's own tool.
    const notified = async (): Promise<boolean> => {
      const page = valueOf(await call(client, 'notifications', { first: 100 })) as Page<{ postId: string; userId: string }>;
      return page.items.some((item) => item.postId === draft.id && item.userId === server.user('member').id);
    };
    await expect.poll(notified, { timeout: 10_000, interval: 100 }).toBe(true);
    const asAdmin = valueOf(await call(await clientFor('admin'), 'notifications', { first: 100 })) as Page<{ postId: string }>;
    expect(asAdmin.items.map((item) => item.postId)).not.toContain(draft.id);
  });

  it('answers a public tool unmasked: me carries the caller’s own email, even for a viewer (docs/behaviour.md §5.7)', async () => {
    const viewer = server.user('viewer');
    expect(valueOf(await call(await clientFor('viewer'), 'me'))).toEqual({
      id: viewer.id,
      orgId: viewer.orgId,
      name: viewer.name,
      email: viewer.email,
    });
    expect(failureOf(await call(await clientFor(), 'me')).code).toBe('UNAUTHENTICATED');
  });

  it('masks what an authorized tool returns: a viewer’s users carry no email, an admin’s do', async () => {
    const asViewer = valueOf(await call(await clientFor('viewer'), 'users', { first: 100 })) as Page<Record<string, unknown>>;
    expect(asViewer.items.length).toBeGreaterThan(0);
    for (const user of asViewer.items) expect(Object.keys(user).sort()).toEqual(['id', 'name', 'orgId']);
    const asAdmin = valueOf(await call(await clientFor('admin'), 'users', { first: 100 })) as Page<Record<string, unknown>>;
    expect(asAdmin.items.map((user) => user.id)).toEqual(asViewer.items.map((user) => user.id));
    for (const user of asAdmin.items) expect(user.email).toEqual(expect.stringContaining('@'));
  });

  it('keeps to the caller’s org and grant: a viewer reads published posts of their org only', async () => {
    const page = valueOf(await call(await clientFor('viewer', 1), 'posts', { first: 100 })) as Page<PostValue & { orgId: string }>;
    expect(page.items.length).toBeGreaterThan(0);
    for (const post of page.items) expect(post).toMatchObject({ orgId: server.seeded.orgs[1]?.id, status: 'published' });
    const other = page.items[0];
    // Another org's post is not there, as REST's 404 says (docs/behaviour.md §4.6).
    expect(failureOf(await call(await clientFor('viewer', 0), 'posts_get', { id: other?.id }))).toEqual({
      code: 'NOT_FOUND',
      message: 'no Post was found for these arguments: it does not exist, or you may not read it',
    });
  });

  it('answers NOT_FOUND where REST answers 404: a row that does not exist or that the caller may not read', async () => {
    const token = await server.token('viewer');
    const client = (await connect(token)).client;
    // A draft of the viewer's org, which a viewer may not read.
    const draft = valueOf(await call(await clientFor('member'), 'createPost', { input: { title: 'Not for viewers' } })) as PostValue;
    for (const id of ['01900000-0000-7000-8000-00000000dead', draft.id]) {
      const missing = await call(client, 'posts_get', { id });
      expect(missing.isError).toBe(true);
      expect(missing.content).toEqual([
        { type: 'text', text: 'NOT_FOUND: no Post was found for these arguments: it does not exist, or you may not read it' },
      ]);
      expect(failureOf(missing).code).toBe('NOT_FOUND');
      const rest = await fetch(`${server.url}/v1/posts/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(rest.status).toBe(404);
    }
  });
});

describe('tool output (docs/behaviour.md §4.6)', () => {
  it('declares an outputSchema on every tool, and every tool of the demo answers structuredContent the SDK client validates against it', async () => {
    const member = await clientFor('member');
    const { tools } = await member.listTools();
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    const pages = tools
      .filter((tool) => JSON.stringify(tool.outputSchema).includes('"has_more"'))
      .map((tool) => tool.name)
      .sort();
    expect(pages).toEqual(['notifications', 'posts', 'users']);
    /** A call the client has checked against the outputSchema (it throws on a mismatch): its structured value, the same as its text. */
    const structured = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
      const result = await call(client, name, args);
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(result.structuredContent).toEqual(JSON.parse((result.content[0] as { text: string }).text));
      return result.structuredContent ?? {};
    };
    // A draft: publishedAt null, a nullable the schema allows.
    const draft = await structured(member, 'createPost', { input: { title: 'Structured' } });
    expect(draft).toMatchObject({ status: 'draft', publishedAt: null });
    expect(await structured(member, 'posts_get', { id: draft.id })).toMatchObject({ id: draft.id, publishedAt: null });
    expect(await structured(member, 'publishPost', { id: draft.id })).toMatchObject({ id: draft.id, status: 'published' });
    expect(await structured(member, 'me')).toMatchObject({ id: server.user('member').id });
    // Pages, followed by their cursor to the end; a masked row (a viewer's users carry no email) conforms too.
    const viewer = await clientFor('viewer');
    // The client checks a tool's results once it has listed the tool (its outputSchema) — a failed call's too.
    await viewer.listTools();
    expect(failureOf(await call(member, 'posts_get', { id: '01900000-0000-7000-8000-00000000dead' })).code).toBe('NOT_FOUND');
    expect(failureOf(await call(member, 'createPost', { input: { title: 'x' }, extra: 1 })).issues).toEqual([
      { path: 'extra', message: 'is not a parameter of createPost' },
    ]);
    expect(failureOf(await call(viewer, 'publishPost', { id: draft.id })).code).toBe('FORBIDDEN');
    for (const [client, name] of [
      [member, 'posts'],
      [member, 'users'],
      [member, 'notifications'],
      [viewer, 'users'],
      [viewer, 'posts'],
    ] as const) {
      let after: unknown;
      for (let pages = 0; pages < 50; pages++) {
        const page = await structured(client, name, { first: 1, ...(typeof after === 'string' ? { after } : {}) });
        expect(page.has_more === true ? typeof page.next_cursor : 'absent').toBe(page.has_more === true ? 'string' : 'absent');
        if (page.has_more !== true) break;
        after = page.next_cursor;
      }
    }
  });

  it('answers a list or a scalar as { result }, conforming to the schema generate wrote for it (the notebook fixture)', async () => {
    // The outputs generate writes for the fixture's tools: a route answering a list of notes, a query answering a string.
    const written = readFileSync(path.join(ROOT, 'test/golden/notebook/expected/mcp.ts'), 'utf8');
    const outputOf = (name: string): McpToolOutput => {
      // Each tool names its output's constant, which is JSON laid out line by line.
      const block = written.slice(written.indexOf(`name: '${name}',`));
      const constant = /output: ([A-Z_]+),\n/.exec(block)?.[1] ?? '';
      return JSON.parse(
        new RegExp(`const ${constant}: McpToolOutput = (\\{\\n[\\s\\S]*?\\n\\});`).exec(written)?.[1] ?? 'null',
      ) as McpToolOutput;
    };
    const caller: McpCaller = {
      request: { principal: undefined, ability: undefined, unscoped: false, transport: 'mcp' },
      authentication: { kind: 'anonymous' },
    };
    const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
    const note = {
      id: '01900000-0000-7000-8000-000000000001',
      notebookId: '01900000-0000-7000-8000-000000000002',
      text: 'x',
      priority: 'low',
      views: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    for (const [name, value] of [
      ['notes_top', [note]],
      ['notes.ping', 'pong'],
    ] as const) {
      const output = outputOf(name);
      expect(output.wrapped).toBe(true);
      const tool: McpToolDefinition = { name, readOnly: true, posture: { kind: 'public' }, parameters: [], output, invoke: () => value };
      const result = await callTool(tool, {}, caller, pino({ level: 'silent' }));
      expect(result.structuredContent).toEqual({ result: value });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ result: value }) }]);
      const validate = new AjvJsonSchemaValidator().getValidator(describeTool(tool).outputSchema ?? {});
      expect(validate(result.structuredContent).valid).toBe(true);
      expect(validate({ result: 5 }).valid).toBe(false);
      // Nothing is NOT_FOUND here too; its structuredContent is the refusal's shape the schema allows.
      const none = await callTool({ ...tool, invoke: () => null }, {}, caller, pino({ level: 'silent' }));
      expect(none).toMatchObject({ isError: true, structuredContent: { error: { code: 'NOT_FOUND' } } });
      expect(validate(none.structuredContent).valid).toBe(true);
    }
  });

  it('a client refuses structuredContent that matches neither the value nor a failed call: the schemas are checked, not decorative', async () => {
    const { tools } = await (await clientFor('member')).listTools();
    const schema = tools.find((tool) => tool.name === 'posts_get')?.outputSchema;
    expect(schema?.anyOf).toHaveLength(2);
    const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
    const validate = new AjvJsonSchemaValidator().getValidator(schema ?? {});
    expect(validate({ id: 'not-a-uuid' }).valid).toBe(false);
    expect(validate({ title: 'no id' }).valid).toBe(false);
    // A member reads every field of a post, so every non-null one is required.
    const post = {
      id: '01900000-0000-7000-8000-000000000001',
      orgId: '01900000-0000-7000-8000-000000000002',
      authorId: '01900000-0000-7000-8000-000000000003',
      reviewerId: null,
      title: 't',
      body: '',
      status: 'draft',
      publishedAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(validate(post).valid).toBe(true);
    expect(validate({ ...post, publishedAt: 5 }).valid).toBe(false);
    expect(validate({ id: post.id, publishedAt: null }).valid).toBe(false);
    // A failed call's structuredContent is the other shape the schema allows.
    expect(validate({ error: { code: 'NOT_FOUND', message: 'no Post was found' } }).valid).toBe(true);
    expect(validate({ error: { code: 'NOT_FOUND' } }).valid).toBe(false);
  });
});

describe('refusals are tool errors, never crashes (docs/behaviour.md §4.6)', () => {
  it('refuses a guarded tool without a token (UNAUTHENTICATED) and one the grant excludes (FORBIDDEN)', async () => {
    const anonymous = failureOf(await call(await clientFor(), 'posts'));
    expect(anonymous).toEqual({ code: 'UNAUTHENTICATED', message: expect.stringContaining('Authorization: Bearer') as string });
    const viewer = await clientFor('viewer');
    const post = server.seeded.posts.find((candidate) => candidate.status === 'draft');
    expect(failureOf(await call(viewer, 'publishPost', { id: post?.id }))).toEqual({
      code: 'FORBIDDEN',
      message: 'you may not publish Post',
    });
    expect(failureOf(await call(viewer, 'createPost', { input: { title: 'no' } })).code).toBe('FORBIDDEN');
  });

  it('answers bad arguments with BAD_USER_INPUT listing every issue, without running the operation', async () => {
    const client = await clientFor('admin');
    const empty = failureOf(await call(client, 'createPost', { input: { title: '   ' } }));
    expect(empty).toMatchObject({ code: 'BAD_USER_INPUT', issues: [{ path: 'title', message: 'title must not be empty' }] });
    const missing = failureOf(await call(client, 'createPost', {}));
    expect(missing).toMatchObject({ code: 'BAD_USER_INPUT', issues: [{ path: 'input', message: 'is required' }] });
    const wrong = failureOf(await call(client, 'posts', { first: 'ten', after: 3, extra: true }));
    expect(wrong.code).toBe('BAD_USER_INPUT');
    expect(wrong.issues?.map((issue) => issue.path).sort()).toEqual(['after', 'extra', 'first']);
    const nested = failureOf(await call(client, 'createPost', { input: { title: 'x', body: 5, tags: [] } }));
    expect(nested.issues?.map((issue) => issue.path).sort()).toEqual(['input.body', 'input.tags']);
    // Nothing was written.
    const graphql = await server.graphql<{ posts: { title: string }[] }>('{ posts(first: 100) { title } }', {
      token: await server.token('admin'),
    });
    expect(graphql.data?.posts.some((post) => post.title === 'x' || post.title.trim() === '')).toBe(false);
  });

  it('answers an unknown tool with the protocol’s invalid-params error', async () => {
    await expect((await clientFor('admin')).callTool({ name: 'dropTables', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: dropTables') as string,
    });
  });
});

describe('bearer authentication (docs/behaviour.md §4.6, §5.1)', () => {
  it('answers an invalid token with 401 and WWW-Authenticate, before the request reaches the protocol', async () => {
    const response = await post(initialize(), { authorization: 'Bearer not-a-token' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="[^"]+"$/,
    );
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'the token is not a valid JWT' });
    await expect(connect('not-a-token')).rejects.toMatchObject({ code: 401 });
  });

  it('names the protected-resource metadata in the 401, served to anyone at that URL as the SDK client discovers it', async () => {
    const response = await post(initialize(), { authorization: 'Bearer not-a-token' });
    expect(response.status).toBe(401);
    const metadataUrl = `${server.url}/.well-known/oauth-protected-resource/mcp`;
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="the token is not a valid JWT", resource_metadata="${metadataUrl}"`,
    );
    // What an MCP client reads from the challenge, and the document it then fetches (RFC 9728).
    const { extractWWWAuthenticateParams, discoverOAuthProtectedResourceMetadata } =
      await import('@modelcontextprotocol/sdk/client/auth.js');
    const challenge = extractWWWAuthenticateParams(response);
    expect(challenge.resourceMetadataUrl?.href).toBe(metadataUrl);
    expect(challenge.error).toBe('invalid_token');
    const metadata = await discoverOAuthProtectedResourceMetadata(new URL(`${server.url}/mcp`), {
      resourceMetadataUrl: challenge.resourceMetadataUrl,
    });
    // No issuer configured: tokens come from the shared secret, and no authorization server would answer a client.
    expect(metadata).toEqual({ resource: `${server.url}/mcp`, bearer_methods_supported: ['header'], resource_name: 'resource-service' });
    // Unauthenticated (a bad token changes nothing), neutral to versions, read-only.
    const raw = await fetch(metadataUrl, {
      headers: { authorization: 'Bearer not-a-token', 'x-api-version': '9', origin: 'https://elsewhere.example' },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('access-control-allow-origin')).toBe('*');
    expect(await raw.json()).toEqual(metadata);
    const written = await fetch(metadataUrl, { method: 'POST' });
    expect(written.status).toBe(405);
    expect(written.headers.get('allow')).toBe('GET, HEAD');
  });

  it('names the metadata only for a Host that is a host: hostile Host headers never reach the header or the document (generated)', async () => {
    const hostChar = fc.constantFrom(...'abcxyz019.-:[]@/?#"\\ ,;%'.split(''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostChar, { minLength: 0, maxLength: 40 }).map((chars) => chars.join('')),
        async (host) => {
          const challenge = (
            await rawExchange(
              server.url,
              `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer not-a-token\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
            )
          ).toString('latin1');
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(challenge)?.[1]);
          // Node refuses some Host values itself (400); every other answer is the 401.
          expect([400, 401]).toContain(status);
          const header = /^www-authenticate: (.*)$/im.exec(challenge)?.[1]?.trim();
          if (status === 401) {
            expect(header).toMatch(
              /^Bearer error="invalid_token", error_description="[^"]*"(, resource_metadata="http:\/\/[^"\s]+\/\.well-known\/oauth-protected-resource\/mcp")?$/,
            );
            if (header?.includes('resource_metadata'))
              expect(new URL(/resource_metadata="([^"]+)"/.exec(header)?.[1] ?? '').host).toBe(new URL(`http://${host}`).host);
          }
          const document = (
            await rawExchange(
              server.url,
              `GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
            )
          ).toString('latin1');
          const answered = Number(/^HTTP\/1\.1 (\d{3})/.exec(document)?.[1]);
          expect([200, 400]).toContain(answered);
          if (answered === 200)
            expect(new URL((rawBody(document) as { resource: string }).resource).host).toBe(new URL(`http://${host}`).host);
        },
      ),
      { numRuns: 60, seed: PROPERTY_SEED, examples: [['evil.example"x'], ['a.example/evil?'], ['user@host'], [''], ['[::1]:80']] },
    );
  });

  it('lists the configured issuer as the authorization server, and counts metadata requests against the rate limit', async () => {
    const configured = await startTestServer({
      seed: { orgs: 1, users: 1, posts: 0 },
      env: { APP_AUTH__ISSUER: 'https://auth.example.com/', APP_HTTP__RATE_LIMIT: '3' },
    });
    try {
      const url = `${configured.url}/.well-known/oauth-protected-resource/mcp`;
      const first = await fetch(url);
      expect(await first.json()).toEqual({
        resource: `${configured.url}/mcp`,
        authorization_servers: ['https://auth.example.com/'],
        bearer_methods_supported: ['header'],
        resource_name: 'resource-service',
      });
      const statuses = [];
      for (let index = 0; index < 3; index++) statuses.push((await fetch(url)).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await configured.stop();
    }
  });

  it('authenticates every request by its own token: requests carrying one session id are answered as whoever each token names', async () => {
    const member = server.user('member');
    const id = '00000000-0000-4000-8000-000000000000';
    const asMember = await rawCall('me', {}, { authorization: `Bearer ${await server.tokenFor(member)}`, 'mcp-session-id': id });
    expect(asMember.status).toBe(200);
    expect(asMember.body.result?.structuredContent).toMatchObject({ id: member.id });
    const asAdmin = await rawCall('me', {}, { authorization: `Bearer ${await server.token('admin')}`, 'mcp-session-id': id });
    expect(asAdmin.body.result?.structuredContent).toMatchObject({ id: server.user('admin').id });
    // The same id without a token: nobody's, so the guarded call is refused.
    const anonymous = await rawCall('me', {}, { 'mcp-session-id': id });
    expect(anonymous.status).toBe(200);
    expect(failureOf(anonymous.body.result as CallToolResult).code).toBe('UNAUTHENTICATED');
  });
});

describe('no sessions (docs/decisions.md §15)', () => {
  it('answers every request on its own: no session id is given, and tools/list or tools/call need no initialize first', async () => {
    const opened = await post(initialize());
    expect(opened.status).toBe(200);
    expect(opened.headers.get('mcp-session-id')).toBeNull();
    expect(await opened.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: expect.any(String) as string } } });
    const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.headers.get('mcp-session-id')).toBeNull();
    expect(await list.json()).toMatchObject({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'me' }] } });
    const called = await rawCall('posts', { first: 1 }, { authorization: `Bearer ${await server.token('admin')}` });
    expect(called.status).toBe(200);
    expect(called.body.result?.structuredContent).toMatchObject({ items: [expect.objectContaining({ id: expect.any(String) as string })] });
    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notified.status).toBe(202);
  });

  it('answers the same whatever Mcp-Session-Id a request carries, any bytes a header can hold: never a crash, never another answer (generated)', async () => {
    const token = await server.token('member');
    const request = (id: string | undefined): string => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'me', arguments: {} } });
      return [
        'POST /mcp HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Authorization: Bearer ${token}`,
        ...(id === undefined ? [] : [`Mcp-Session-Id: ${id}`]),
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n');
    };
    const answerOf = async (id: string | undefined): Promise<{ status: string; body: unknown }> => {
      const answer = (await rawExchange(server.url, Buffer.from(request(id), 'latin1'))).toString('utf8');
      return { status: answer.slice(0, answer.indexOf('\r\n')), body: rawBody(answer) };
    };
    const expected = await answerOf(undefined);
    expect(expected.status).toBe('HTTP/1.1 200 OK');
    expect(expected.body).toMatchObject({ result: { structuredContent: { id: server.user('member').id } } });
    // Header bytes HTTP allows in a value (visible ASCII, space, tab, obs-text), unicode sent as UTF-8 bytes read as obs-text.
    const headerByte = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff }));
    const value = fc.oneof(
      fc.uuid(),
      fc.array(headerByte, { maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1').trim()),
      fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) =>
        Buffer.from(text.replace(/[\r\n\0]/g, ''), 'utf8')
          .toString('latin1')
          .trim(),
      ),
      fc.integer({ min: 1_000, max: 8_000 }).map((length) => 'x'.repeat(length)),
    );
    await fc.assert(
      fc.asyncProperty(value, async (id) => {
        expect(await answerOf(id)).toEqual(expected);
      }),
      { numRuns: 60, seed: PROPERTY_SEED },
    );
    expect(server.stderr()).toBe('');
  });

  it('works with the SDK client without a session: no session id, every call answered, closed without a DELETE', async () => {
    const { client, transport } = await connect(await server.token('admin'));
    expect(transport.sessionId).toBeUndefined();
    expect(valueOf(await call(client, 'me'))).toMatchObject({ id: server.user('admin').id });
    expect((valueOf(await call(client, 'posts', { first: 1 })) as Page<PostValue>).items).toHaveLength(1);
    // Nothing to end: the client sends no DELETE without a session id.
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.length).toBeGreaterThan(1);
  });

  it('answers GET and DELETE with 405 and a JSON-RPC error (no stream, no session to end), and stays neutral to stated API versions', async () => {
    for (const [method, headers] of [
      ['GET', { accept: 'text/event-stream' }],
      ['DELETE', { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      const answer = await fetch(`${server.url}/mcp`, { method, headers });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Method not allowed') as string },
        id: null,
      });
    }
    const versioned = await post(initialize(), { 'x-api-version': '9', accept: 'application/json, text/event-stream; version=9' });
    expect(versioned.status).toBe(200);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

/** An anonymous `initialize` sent from the loopback address `localAddress` with `headers` on top (to `target`, default the suite's server); resolves with the HTTP status. */
function initializeFrom(localAddress: string, headers: Record<string, string> = {}, target: TestServer = server): Promise<number> {
  const url = new URL(`${target.url}/mcp`);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { ...MCP_HEADERS, ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(initialize()));
  });
}

describe('browser origins (docs/hostile-input.md §7)', () => {
  it("serves the server's own origin and refuses any other, whatever Host the request names (DNS rebinding)", async () => {
    const port = new URL(server.url).port;
    for (const own of [`http://localhost:${port}`, `http://127.0.0.1:${port}`])
      expect(await initializeFrom('127.0.0.1', { origin: own })).toBe(200);
    await fc.assert(
      fc.asyncProperty(fc.domain(), fc.constantFrom('http', 'https'), async (domain, scheme) => {
        // The rebinding page: its own name in both Origin and Host.
        expect(await initializeFrom('127.0.0.1', { origin: `${scheme}://${domain}:${port}`, host: `${domain}:${port}` })).toBe(403);
      }),
      { numRuns: 40 },
    );
    expect(await initializeFrom('127.0.0.1', { origin: `http://localhost:${Number(port) + 1}` })).toBe(403);
  });

  it('takes APP_HTTP__CORS_ORIGINS=* for CORS only: the host serves the origins listed by name, its own, and never an opaque one (null, file://)', async () => {
    const open = await startTestServer({
      env: { APP_HTTP__CORS_ORIGINS: '*', APP_MCP__ORIGINS: 'https://app.example.com, file:///home/someone/page.html' },
    });
    try {
      const port = new URL(open.url).port;
      expect(await initializeFrom('127.0.0.1', { origin: 'https://app.example.com' }, open)).toBe(200);
      expect(await initializeFrom('127.0.0.1', { origin: `http://127.0.0.1:${port}` }, open)).toBe(200);
      // A page opened from a file, a sandboxed frame or a data: URL sends `null`; a file:// page's origin is opaque too.
      for (const origin of [
        'null',
        'file://',
        'file:///home/someone/page.html',
        'data:text/html,<p>',
        'https://app.example.com.evil.example',
      ])
        expect(await initializeFrom('127.0.0.1', { origin }, open), origin).toBe(403);
      await fc.assert(
        fc.asyncProperty(fc.domain(), fc.constantFrom('http', 'https'), async (domain, scheme) => {
          fc.pre(domain !== 'app.example.com');
          expect(await initializeFrom('127.0.0.1', { origin: `${scheme}://${domain}`, host: domain }, open)).toBe(403);
        }),
        { numRuns: 30, seed: PROPERTY_SEED },
      );
      // CORS itself still answers any origin.
      const preflight = await fetch(`${open.url}/v2/posts`, {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(
        open.logs.some((entry) => entry.level === 40 && String(entry.msg).includes('APP_HTTP__CORS_ORIGINS=* does not open the MCP host')),
      ).toBe(true);
    } finally {
      await open.stop();
    }
  });
});

describe('answers bounded in messages and bytes (docs/hostile-input.md §13)', () => {
  it('refuses a batch of more than APP_MCP__MAX_BATCH messages before running any, and answers a batch within APP_MCP__MAX_RESPONSE_BYTES (generated)', async () => {
    const bounded = await startTestServer({
      seed: { orgs: 1, users: 4, posts: 20 },
      env: { APP_MCP__MAX_BATCH: '8', APP_MCP__MAX_RESPONSE_BYTES: '20000' },
    });
    try {
      const token = await bounded.token('admin');
      const headers = { ...MCP_HEADERS, authorization: `Bearer ${token}` };
      const batch = (calls: number, first: number): Promise<Response> =>
        fetch(`${bounded.url}/mcp`, {
          method: 'POST',
          headers,
          body: JSON.stringify(
            Array.from({ length: calls }, (_, index) => ({
              jsonrpc: '2.0',
              id: index + 10,
              method: 'tools/call',
              params: { name: 'posts', arguments: { first } },
            })),
          ),
        });
      const tooMany = await batch(9, 1);
      expect(tooMany.status).toBe(400);
      expect(await tooMany.json()).toMatchObject({ error: { code: -32600 } });
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 100 }), async (calls, first) => {
          const response = await batch(calls, first);
          const text = await response.text();
          expect(response.status).toBe(200);
          // Every call answered, the answered values within the budget (plus the envelope and the refusals).
          // (The SDK answers a batch of one with the one answer.)
          const parsed = JSON.parse(text) as { result: CallToolResult }[] | { result: CallToolResult };
          const answers = Array.isArray(parsed) ? parsed : [parsed];
          expect(answers).toHaveLength(calls);
          const values = answers.filter((answer) => answer.result.isError !== true);
          expect(values.reduce((sum, answer) => sum + Buffer.byteLength(JSON.stringify(answer.result)), 0)).toBeLessThanOrEqual(20_000);
          for (const answer of answers.filter((entry) => entry.result.isError === true))
            expect(JSON.stringify(answer.result)).toContain('RESPONSE_TOO_LARGE');
          expect(text.length).toBeLessThan(20_000 + calls * 600);
        }),
        { numRuns: 20, seed: PROPERTY_SEED },
      );
    } finally {
      await bounded.stop();
    }
  }, 60_000);
});
