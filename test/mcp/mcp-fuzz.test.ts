// Runs on: sqlite, postgresql
/**
 * Hostile input to the MCP host (docs/hostile-input.md §7), with fast-check over real HTTP against
 * the generated demo server: random JSON-RPC messages and batches, random tool arguments,
 * oversized bodies, wrong content types, methods and `Accept` values, random `Mcp-Session-Id`
 * values (the host keeps no sessions and reads none: docs/decisions.md §15) and tokens. Properties: no answer is a 5xx, every answer with
 * a body is JSON (a JSON-RPC error for a refusal), a tool call with object arguments always answers
 * a tool result (never a protocol error, never a crash), nothing leaks, the server never writes to
 * stderr or exits, and `/health` stays 200.
 *
 * Seeded like the other property suites (`FUZZ_SEED`, `FUZZ_RUNS`; test/support/properties.ts).
 */
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAK } from '../support/leaks.js';
import { PROPERTY_RUNS, PROPERTY_SEED, reportFigures } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

const settings = { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS, endOnFailure: true } as const;
const TIMEOUT = 30_000 + PROPERTY_RUNS * 400;
const TOOLS = ['posts', 'posts_get', 'createPost', 'publishPost', 'users', 'me'];
/** Statuses the host answers with (docs/behaviour.md §4.6): success, accepted, and the protocol's refusals. */
const STATUSES = [200, 202, 400, 401, 403, 405, 406, 413, 415];

const counts: Record<string, number> = {};
const count = (name: string): void => {
  counts[name] = (counts[name] ?? 0) + 1;
};

let server: TestServer;
/** `undefined` (anonymous), an invalid token, then admin, member and viewer tokens. */
let tokens: (string | undefined)[];

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** Sends one request to /mcp and checks what every answer must be; returns it parsed. */
async function send(init: {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  token?: string | undefined;
}): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers };
  const response = await fetch(`${server.url}/mcp`, {
    method: init.method ?? 'POST',
    headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const label = `${init.method ?? 'POST'} ${JSON.stringify(init.headers)} ${init.body?.slice(0, 200) ?? ''} → ${response.status} ${text.slice(0, 300)}`;
  expect(STATUSES, label).toContain(response.status);
  expect(text, label).not.toMatch(LEAK);
  let body: unknown;
  if (text !== '') {
    expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
    body = JSON.parse(text);
    if (response.status >= 400 && response.status !== 401)
      expect(body, label).toMatchObject({
        jsonrpc: '2.0',
        error: { code: expect.any(Number) as number, message: expect.any(String) as string },
        id: null,
      });
  } else {
    expect([202, 200], label).toContain(response.status);
  }
  count(`answered ${response.status}`);
  return { status: response.status, body, text };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
};

async function expectAlive(): Promise<void> {
  expect(server.stderr()).toBe('');
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
}

beforeAll(async () => {
  // Header versioning: stated versions must not reach the self-mounted path.
  server = await startTestServer({ env: { APP_HTTP__VERSIONING: 'header' } });
  tokens = [undefined, 'not-a-token', await server.token('admin'), await server.token('member'), await server.token('viewer')];
});

afterAll(async () => {
  reportFigures({ suite: 'mcp-fuzz', seed: PROPERTY_SEED, runs: PROPERTY_RUNS, counts });
  await server?.stop();
});

/** Any text, unicode included. */
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
/** Text a header may carry. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });
/** An `Mcp-Session-Id` a client might send: none, one shaped like the SDK's, or any header text. */
const sessionHeader = fc.oneof(
  fc.constant(undefined),
  fc.uuid(),
  headerText.filter((text) => text.trim() !== ''),
);
const method = fc.oneof(
  fc.constantFrom(
    'initialize',
    'tools/list',
    'tools/call',
    'ping',
    'notifications/initialized',
    'notifications/cancelled',
    'resources/list',
    'prompts/get',
    'logging/setLevel',
    'completion/complete',
    'tasks/get',
  ),
  anyText,
);
const toolCall = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...TOOLS), anyText),
    arguments: fc.oneof(
      fc.dictionary(fc.constantFrom('first', 'after', 'id', 'input', 'extra', '__proto__'), fc.jsonValue(), { maxKeys: 4 }),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);
const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.jsonValue() }),
    id: fc.oneof(fc.nat(), anyText, fc.constant(null), fc.jsonValue()),
    method,
    params: fc.oneof(toolCall, fc.constant(initialize.params), fc.jsonValue()),
  },
  { requiredKeys: ['method'] },
);

describe('hostile JSON-RPC to the MCP host (docs/hostile-input.md §7)', () => {
  it(
    'random messages and batches, with any session id or none, with any token: protocol answers only',
    async () => {
      const body = fc.oneof(
        { weight: 6, arbitrary: message.map((value) => JSON.stringify(value)) },
        { weight: 2, arbitrary: fc.array(message, { minLength: 0, maxLength: 5 }).map((value) => JSON.stringify(value)) },
        { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
        {
          weight: 1,
          arbitrary: fc.oneof(
            anyText,
            fc.constantFrom('', '{', '[', 'null', '{"jsonrpc":"2.0"', '[[[[[]]]]]', '{"__proto__":{"admin":true}}'),
          ),
        },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`) },
      );
      await fc.assert(
        fc.asyncProperty(body, sessionHeader, fc.nat({ max: tokens.length - 1 }), headerText, async (payload, id, tokenIndex, version) => {
          count('json-rpc messages');
          await send({
            token: tokens[tokenIndex],
            headers: { ...JSON_HEADERS, 'x-api-version': version, ...(id ? { 'mcp-session-id': id } : {}) },
            body: payload,
          });
        }),
        settings,
      );
      await expectAlive();
    },
    TIMEOUT,
  );

  it(
    'random arguments to every tool: always a tool result (isError for bad ones), never a protocol error or a crash',
    async () => {
      const args = fc.oneof(
        fc.dictionary(
          fc.constantFrom('first', 'after', 'id', 'input', 'extra'),
          fc.oneof(
            fc.jsonValue(),
            anyText,
            fc.record({ title: fc.oneof(anyText, fc.jsonValue()), body: fc.oneof(anyText, fc.jsonValue()) }, { requiredKeys: [] }),
          ),
          { maxKeys: 4 },
        ),
        fc.constant({}),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...TOOLS), args, fc.constantFrom(0, 2, 3, 4), async (tool, values, tokenIndex) => {
          count('tool arguments');
          const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool, arguments: values } };
          const answer = await send({ token: tokens[tokenIndex], headers: JSON_HEADERS, body: JSON.stringify(request) });
          expect(answer.status, answer.text).toBe(200);
          const result = (
            answer.body as { result?: { content?: unknown[]; isError?: boolean; structuredContent?: { error?: { code?: string } } } }
          ).result;
          expect(result?.content, answer.text).toEqual(expect.any(Array));
          count(result?.isError ? `tool arguments refused: ${result.structuredContent?.error?.code}` : 'tool arguments answered');
          if (result?.isError)
            expect(['UNAUTHENTICATED', 'FORBIDDEN', 'BAD_USER_INPUT', 'NOT_FOUND', 'CONFLICT']).toContain(
              result.structuredContent?.error?.code,
            );
        }),
        settings,
      );
      await expectAlive();
    },
    TIMEOUT,
  );

  it(
    'tools/call and tools/list params of the wrong shape: -32602 Invalid params naming what is wrong, never an internal error',
    async () => {
      const notAnObject = fc.jsonValue().filter((value) => typeof value !== 'object' || value === null || Array.isArray(value));
      const notAString = fc.jsonValue().filter((value) => typeof value !== 'string');
      const wrong = fc.oneof(
        // (params that are no object make no JSON-RPC message the SDK accepts: it answers 400, -32700)
        notAString.map((name) => ({ method: 'tools/call', params: { name, arguments: {} } })),
        fc
          .tuple(fc.constantFrom(...TOOLS), notAnObject)
          .map(([name, args]) => ({ method: 'tools/call', params: { name, arguments: args } })),
        notAString.map((cursor) => ({ method: 'tools/list', params: { cursor } })),
      );
      await fc.assert(
        fc.asyncProperty(wrong, fc.constantFrom(0, 2, 4), async (request, tokenIndex) => {
          count('params of the wrong shape');
          const answer = await send({
            token: tokens[tokenIndex],
            headers: JSON_HEADERS,
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, ...request }),
          });
          expect(answer.status, answer.text).toBe(200);
          const error = (answer.body as { error?: { code?: number; message?: string } }).error;
          expect(error?.code, answer.text).toBe(-32602);
          expect(error?.message, answer.text).toMatch(new RegExp(`^MCP error -32602: Invalid ${request.method} request: `));
        }),
        settings,
      );
      await expectAlive();
    },
    TIMEOUT,
  );

  it(
    'oversized bodies, wrong content types, methods and Accept values: the protocol’s status and a JSON-RPC error',
    async () => {
      const size = fc.oneof(fc.constant(0), fc.integer({ min: 90_000, max: 400_000 }));
      const contentType = fc.oneof(
        fc.constantFrom(
          undefined,
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/jsonx',
          '*/*',
        ),
        headerText,
      );
      const accept = fc.oneof(
        fc.constantFrom(undefined, 'application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', ''),
        headerText,
      );
      const verb = fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
      await fc.assert(
        fc.asyncProperty(verb, size, contentType, accept, sessionHeader, async (httpMethod, padding, type, acceptValue, id) => {
          count('framing');
          const payload = JSON.stringify({ ...initialize, padding: 'x'.repeat(padding) });
          const headers: Record<string, string> = {
            ...(type !== undefined ? { 'content-type': type } : {}),
            ...(acceptValue !== undefined ? { accept: acceptValue } : {}),
            ...(id !== undefined ? { 'mcp-session-id': id } : {}),
          };
          const answer = await send({
            method: httpMethod,
            headers,
            ...(httpMethod === 'POST' || httpMethod === 'PUT' || httpMethod === 'PATCH' ? { body: payload } : {}),
          });
          if (httpMethod !== 'POST') expect(answer.status).toBe(405);
          if (httpMethod === 'POST' && padding > 102_400 && type?.startsWith('application/json') === true && !type.includes('jsonx'))
            expect([413, 415]).toContain(answer.status);
        }),
        settings,
      );
      await expectAlive();
    },
    TIMEOUT,
  );
});
