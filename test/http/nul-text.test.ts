// Runs on: sqlite, postgresql
/**
 * A NUL character in text (docs/hostile-input.md §17): PostgreSQL refuses one in any text value and
 * SQLite stores it, so before this a NUL in a search term, a body or a parameter was a 500 with an
 * error-level stack on one database and a stored value on the other. Generated texts with NULs at
 * random places go into every string input of the demo — each REST path and query parameter and each
 * text of a body (read from the OpenAPI document), each String and ID argument and input field of
 * every GraphQL query and mutation (read from the schema; as a variable and as a literal), each text
 * of every MCP tool's arguments (read from `tools/list`), a gateway message's data and a graphql-ws
 * subscription's variables — and each is answered `BAD_USER_INPUT` naming that input, never 500,
 * with nothing written and nothing logged at error level, on both databases alike.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  astFromValue,
  buildSchema,
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  print,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { NUL_TEXT_MESSAGE } from '../../runtime/data/text-input.js';
import { messageText } from '../../runtime/transports/sockets.js';
import { runSql } from '../support/database.js';
import { ROOT } from '../support/project.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { type Role, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let postId: string;

beforeAll(async () => {
  server = await startTestServer();
  postId = server.seeded.posts[0]?.id ?? '';
  expect(postId).not.toBe('');
});
afterAll(async () => server?.stop());

/** A text with at least one NUL, at generated places among generated characters. */
const nulText = fc
  .array(fc.string({ unit: 'grapheme', maxLength: 8 }), { minLength: 2, maxLength: 4 })
  .map((parts) => parts.join('\u0000'));

const roles = fc.constantFrom<Role>('admin', 'member', 'viewer');
const settings = { seed: PROPERTY_SEED, numRuns: Math.max(40, Math.floor(PROPERTY_RUNS / 2)) };

/** The tables a write could reach, and how many rows each holds now. */
async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['Org', 'User', 'Post', 'Comment', 'Notification', 'AuditRecord', 'Digest', 'Category', 'PostCategory'])
    counts[table] = Number((await runSql(server.databaseUrl, `SELECT count(*) AS n FROM "${table}"`))[0]?.n);
  return counts;
}

/** Server log lines at error level or above, from `from` on. */
const errorsLoggedSince = (from: number): unknown[] => server.logs.slice(from).filter((entry) => Number(entry.level) >= 50);

/** A path inside a value: property names and list indexes. */
type Steps = readonly (string | number)[];

/** The dotted path the refusals name (`body.title`, `versions.0`). */
const dotted = (head: string, steps: Steps): string => [head, ...steps.map(String)].join('.');

/** `value` with `text` put at `steps` (objects and lists made on the way). */
function placed(value: unknown, steps: Steps, text: string): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return text;
  if (typeof step === 'number')
    return Array.from({ length: step + 1 }, (_, index) => (index === step ? placed(undefined, rest, text) : null));
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return { ...record, [step]: placed(record[step], rest, text) };
}

describe('REST: every string parameter and body text (the OpenAPI document)', () => {
  /** A JSON Schema as the documents write one. */
  interface Schema {
    readonly type?: string;
    readonly format?: string;
    readonly $ref?: string;
    readonly anyOf?: readonly Schema[];
    readonly items?: Schema;
    readonly properties?: Readonly<Record<string, Schema>>;
    readonly required?: readonly string[];
  }
  interface Operation {
    readonly parameters?: readonly { readonly in: string; readonly name: string; readonly schema: Schema }[];
    readonly requestBody?: { readonly content: Readonly<Record<string, { readonly schema: Schema }>> };
  }
  const document = JSON.parse(readFileSync(path.join(ROOT, 'generated/openapi/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  const resolve = (schema: Schema): Schema =>
    schema.$ref === undefined ? schema : resolve(document.components.schemas[schema.$ref.split('/').pop() ?? ''] ?? {});
  const texts = (schema: Schema): Steps[] => {
    const resolved = resolve(schema);
    if (resolved.anyOf) return resolved.anyOf.flatMap(texts);
    if (resolved.type === 'string') return [[]];
    if (resolved.type === 'array' && resolved.items) return texts(resolved.items).map((steps) => [0, ...steps]);
    return Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => texts(property).map((steps) => [name, ...steps]));
  };
  /** A value of `schema` with every required property (what the body check would take, NULs aside). */
  const filler = (schema: Schema): unknown => {
    const resolved = resolve(schema);
    if (resolved.anyOf) return filler(resolved.anyOf.find((choice) => resolve(choice).type !== 'null') ?? {});
    switch (resolved.type) {
      case 'string':
        return resolved.format === 'uuid' ? postId : 'text';
      case 'integer':
      case 'number':
        return 1;
      case 'boolean':
        return true;
      case 'array':
        return [];
      case 'object':
        return Object.fromEntries((resolved.required ?? []).map((name) => [name, filler(resolved.properties?.[name] ?? {})]));
      default:
        return null;
    }
  };

  /** One string input of one operation: where the generated text goes, and the name the refusal must give. */
  interface Input {
    readonly method: string;
    readonly template: string;
    readonly where: 'path' | 'query' | 'body';
    readonly name: string;
    readonly steps: Steps;
    readonly body?: Schema;
  }
  const inputs: Input[] = Object.entries(document.paths).flatMap(([template, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const body = operation.requestBody?.content['application/json']?.schema;
      return [
        ...(operation.parameters ?? [])
          .filter((parameter) => texts(parameter.schema).length > 0)
          .map((parameter): Input => ({
            method,
            template,
            where: parameter.in as 'path' | 'query',
            name: parameter.name,
            steps: [],
            body,
          })),
        ...(body ? texts(body).map((steps): Input => ({ method, template, where: 'body', name: 'body', steps, body })) : []),
      ];
    }),
  );

  it('finds the inputs to try', () => {
    // Path ids, cursors, the comments' postId filter, and the texts of every body.
    expect(inputs.filter((input) => input.where === 'path').length).toBeGreaterThanOrEqual(7);
    expect(inputs.some((input) => input.where === 'query' && input.name === 'postId')).toBe(true);
    expect(inputs.map((input) => dotted(input.name, input.steps))).toEqual(
      expect.arrayContaining(['body.title', 'body.body', 'body.name', 'body.email', 'body.postId', 'body.versions.0']),
    );
  });

  it('answers a NUL anywhere in one with 400 BAD_USER_INPUT naming it, writing nothing', async () => {
    const before = await rowCounts();
    const logged = server.logs.length;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...inputs), nulText, roles, async (input, text, role) => {
        const params = new Map([...input.template.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name ?? '', postId]));
        if (input.where === 'path') params.set(input.name, text);
        const pathname = input.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params.get(name) ?? ''));
        const query = input.where === 'query' ? `?${input.name}=${encodeURIComponent(text)}` : '';
        const body = input.body ? (input.where === 'body' ? placed(filler(input.body), input.steps, text) : filler(input.body)) : undefined;
        const response = await server.fetch(`${pathname}${query}`, {
          method: input.method.toUpperCase(),
          token: await server.token(role),
          ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        });
        const problem = (await response.json()) as { code?: string; field?: string; issues?: unknown[] };
        const named = input.where === 'body' ? dotted('body', input.steps) : input.name;
        expect(response.status, `${input.method} ${pathname}${query}`).toBe(400);
        expect(problem.code).toBe('BAD_USER_INPUT');
        expect(problem.field).toBe(named);
        expect(problem.issues).toContainEqual({ path: named, message: NUL_TEXT_MESSAGE });
      }),
      settings,
    );
    expect(await rowCounts()).toEqual(before);
    expect(errorsLoggedSince(logged)).toEqual([]);
  });
});

describe('GraphQL: every String and ID argument and input field of every query and mutation (the schema)', () => {
  const schema = buildSchema(readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8'));

  /** Where a text can go in a value of `type`: the type itself, an item of a list, an input field. */
  const texts = (type: GraphQLInputType): Steps[] => {
    const nullable = getNullableType(type);
    if (isListType(nullable)) return texts(nullable.ofType).map((steps) => [0, ...steps]);
    if (isScalarType(nullable)) return nullable.name === 'String' || nullable.name === 'ID' ? [[]] : [];
    if (isInputObjectType(nullable))
      return Object.values(nullable.getFields()).flatMap((field) => texts(field.type).map((steps) => [field.name, ...steps]));
    return [];
  };
  /** A value of `type` that coerces, with every non-null input field. */
  const filler = (type: GraphQLInputType): unknown => {
    const nullable = getNullableType(type);
    if (isListType(nullable)) return [];
    if (isInputObjectType(nullable))
      return Object.fromEntries(
        Object.values(nullable.getFields())
          .filter((field) => isNonNullType(field.type))
          .map((field) => [field.name, filler(field.type)]),
      );
    if (isEnumType(nullable)) return nullable.getValues()[0]?.value;
    switch (nullable.name) {
      case 'ID':
        return postId;
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return true;
      case 'DateTime':
        return '2026-01-01T00:00:00.000Z';
      default:
        return 'text';
    }
  };
  const literal = (value: unknown, type: GraphQLInputType): string => {
    const node = astFromValue(value, type);
    if (!node) throw new Error(`no literal for ${JSON.stringify(value)}`);
    return print(node);
  };

  interface Input {
    readonly operation: 'query' | 'mutation';
    readonly field: GraphQLField<unknown, unknown>;
    readonly argument: GraphQLArgument;
    readonly steps: Steps;
  }
  const inputs: Input[] = (['query', 'mutation'] as const).flatMap((operation) =>
    Object.values((operation === 'query' ? schema.getQueryType() : schema.getMutationType())?.getFields() ?? {}).flatMap((field) =>
      field.args.flatMap((argument) => texts(argument.type).map((steps): Input => ({ operation, field, argument, steps }))),
    ),
  );

  /** The operation giving `input` the text `text`, as a variable or inline, with every other required argument. */
  const documentOf = (input: Input, text: string, inline: boolean): { query: string; variables?: Record<string, unknown> } => {
    const { field, argument } = input;
    const value = placed(filler(argument.type), input.steps, text);
    const others = field.args
      .filter((other) => other !== argument && isNonNullType(other.type))
      .map((other) => `${other.name}: ${literal(filler(other.type), other.type)}`);
    const given = inline ? `${argument.name}: ${literal(value, argument.type)}` : `${argument.name}: $${argument.name}`;
    const selection = isScalarType(getNamedType(field.type)) ? '' : ' { __typename }';
    const head = inline ? input.operation : `${input.operation} ($${argument.name}: ${String(argument.type)})`;
    const query = `${head} { ${field.name}(${[given, ...others].join(', ')})${selection} }`;
    return inline ? { query } : { query, variables: { [argument.name]: value } };
  };

  it('finds the inputs to try', () => {
    const names = inputs.map((input) => `${input.field.name}.${dotted(input.argument.name, input.steps)}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'searchPosts.term',
        'post.id',
        'user.id',
        'posts.after',
        'createPost.input.title',
        'createComment.input.body',
        'updateComment.id',
        'deleteComment.id',
      ]),
    );
  });

  it('answers a NUL anywhere in one, as a variable or a literal, with BAD_USER_INPUT naming it, writing nothing', async () => {
    const before = await rowCounts();
    const logged = server.logs.length;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...inputs), nulText, fc.boolean(), roles, async (input, text, inline, role) => {
        const { query, variables } = documentOf(input, text, inline);
        const answer = await server.graphql(query, { ...(variables ? { variables } : {}), token: await server.token(role) });
        const named = inline ? `${input.field.name}.${dotted(input.argument.name, input.steps)}` : dotted(input.argument.name, input.steps);
        expect(answer.data ?? undefined, query).toBeUndefined();
        expect(answer.errors).toHaveLength(1);
        const [error] = answer.errors ?? [];
        expect(error?.extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          field: named,
          issues: [{ path: named, message: NUL_TEXT_MESSAGE }],
        });
        expect(error?.message).toContain(named);
      }),
      settings,
    );
    expect(await rowCounts()).toEqual(before);
    expect(errorsLoggedSince(logged)).toEqual([]);
  });

  it("refuses a viewer's search term holding a NUL before any statement (the 500 of issue 51)", async () => {
    const answer = await server.graphql('query ($term: String!) { searchPosts(term: $term) { id } }', {
      variables: { term: 'No\u0000tes' },
      token: await server.token('viewer'),
    });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'term' });
    expect(answer.errors?.[0]?.message).toBe(`Variable "$term" got invalid value at "term"; it ${NUL_TEXT_MESSAGE}`);
  });
});

describe('MCP: every text of every tool argument (tools/list)', () => {
  interface Schema {
    readonly type?: string | readonly string[];
    readonly format?: string;
    readonly anyOf?: readonly Schema[];
    readonly items?: Schema;
    readonly properties?: Readonly<Record<string, Schema>>;
    readonly required?: readonly string[];
  }
  interface Tool {
    readonly name: string;
    readonly inputSchema: Schema;
  }
  const typed = (schema: Schema, type: string): boolean =>
    schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
  const texts = (schema: Schema): Steps[] => {
    if (schema.anyOf) return schema.anyOf.flatMap(texts);
    if (typed(schema, 'string')) return [[]];
    if (typed(schema, 'array') && schema.items) return texts(schema.items).map((steps) => [0, ...steps]);
    return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => texts(property).map((steps) => [name, ...steps]));
  };
  const filler = (schema: Schema): unknown => {
    if (schema.anyOf) return filler(schema.anyOf.find((choice) => !typed(choice, 'null')) ?? {});
    if (typed(schema, 'string')) return schema.format === 'uuid' ? postId : 'text';
    if (typed(schema, 'integer') || typed(schema, 'number')) return 1;
    if (typed(schema, 'boolean')) return true;
    if (typed(schema, 'array')) return [];
    return Object.fromEntries((schema.required ?? []).map((name) => [name, filler(schema.properties?.[name] ?? {})]));
  };

  /** One JSON-RPC request to the MCP host as the admin; its JSON answer. */
  async function rpc(method: string, params: unknown): Promise<Record<string, unknown>> {
    const response = await server.fetch('/mcp', {
      method: 'POST',
      token: await server.token('admin'),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  it('answers a NUL anywhere in one with a BAD_USER_INPUT tool result naming it, writing nothing', async () => {
    const tools = ((await rpc('tools/list', {})).result as { tools: Tool[] }).tools;
    const inputs = tools.flatMap((tool) => texts(tool.inputSchema).map((steps) => ({ tool, steps })));
    expect(inputs.map(({ tool, steps }) => `${tool.name}:${steps.join('.')}`)).toEqual(
      expect.arrayContaining(['createPost:input.title', 'posts:after', 'posts_get:id', 'publishPost:id']),
    );
    const before = await rowCounts();
    const logged = server.logs.length;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...inputs), nulText, async ({ tool, steps }, text) => {
        const [head, ...rest] = steps;
        const args = {
          ...(filler(tool.inputSchema) as object),
          [String(head)]: placed(filler(tool.inputSchema.properties?.[String(head)] ?? {}), rest, text),
        };
        const answer = await rpc('tools/call', { name: tool.name, arguments: args });
        const result = answer.result as { isError?: boolean; structuredContent?: { error?: { code?: string; issues?: unknown[] } } };
        expect(result.isError, JSON.stringify(answer)).toBe(true);
        expect(result.structuredContent?.error?.code).toBe('BAD_USER_INPUT');
        expect(result.structuredContent?.error?.issues).toContainEqual({ path: dotted(String(head), rest), message: NUL_TEXT_MESSAGE });
      }),
      settings,
    );
    expect(await rowCounts()).toEqual(before);
    expect(errorsLoggedSince(logged)).toEqual([]);
  });
});

describe('sockets: gateway data and graphql-ws variables', () => {
  /** Opens a socket at `pathname` with `protocol`; resolves once open. */
  function open(pathname: string, protocol?: string): Promise<WebSocket> {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}${pathname}`, protocol);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
  }
  /** Sends `message` and resolves with the next message parsed. */
  function exchange(socket: WebSocket, message: unknown): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer')), 5_000);
      socket.once('message', (data) => {
        clearTimeout(timer);
        resolve(JSON.parse(messageText(data)) as Record<string, unknown>);
      });
      socket.send(JSON.stringify(message));
    });
  }

  it('refuses gateway data holding a NUL anywhere with BAD_USER_INPUT naming where, the socket kept', async () => {
    const socket = await open('/v1/ws');
    // Data around the text, itself without a NUL (JSON writes one as \u0000).
    const withoutNul = fc.jsonValue({ maxDepth: 3 }).filter((value) => !JSON.stringify(value).includes('\\u0000'));
    await fc.assert(
      fc.asyncProperty(withoutNul, fc.array(fc.constantFrom('a', 'b', 0, 1), { maxLength: 3 }), nulText, async (around, steps, text) => {
        const data = placed(around, steps, text);
        const reply = await exchange(socket, { event: 'ping', data });
        const named = dotted('data', steps);
        expect(reply).toEqual({ event: 'ping', error: { code: 'BAD_USER_INPUT', message: `invalid data: ${named} ${NUL_TEXT_MESSAGE}` } });
      }),
      { seed: PROPERTY_SEED, numRuns: 40 },
    );
    expect(await exchange(socket, { event: 'ping', data: 'no nul' })).toEqual({ event: 'ping', data: { pong: 'no nul' } });
    socket.close();
  });

  it('refuses a graphql-ws subscription whose variable holds a NUL with BAD_USER_INPUT naming it, the connection kept', async () => {
    const socket = await open('/graphql', 'graphql-transport-ws');
    expect(
      await exchange(socket, { type: 'connection_init', payload: { Authorization: `Bearer ${await server.token('viewer')}` } }),
    ).toEqual({ type: 'connection_ack' });
    const refused = await exchange(socket, {
      id: 'nul',
      type: 'subscribe',
      payload: { query: 'subscription ($authorId: ID) { postPublished(authorId: $authorId) { id } }', variables: { authorId: 'a\u0000' } },
    });
    expect(refused).toMatchObject({
      id: 'nul',
      type: 'error',
      payload: [{ extensions: { code: 'BAD_USER_INPUT', field: 'authorId' } }],
    });
    expect(await exchange(socket, { type: 'ping' })).toEqual({ type: 'pong' });
    socket.close();
  });
});
