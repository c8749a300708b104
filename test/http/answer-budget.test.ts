// Runs on: sqlite, postgresql
/**
 * One byte budget on what is written, on every transport (docs/hostile-input.md §14): GraphQL over
 * HTTP, graphql-ws, REST and MCP answers are counted as they are written — escaped JSON, a sub-tree
 * repeated under every parent counted each time — and never exceed their budget, errors or not;
 * past it the answer is `RESPONSE_TOO_LARGE`, never a 500 or a closed socket. Work stops when the
 * budget is spent (a refused nested query sends few statements; an MCP batch runs no call after the
 * one refused), and a refusal costs its client ten operations of the rate limit. Bodies of U+0001,
 * which JSON writes as six bytes each, on a real server on each database of the run.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runSql } from '../support/database.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The budget of every transport here: small enough that a page of escaped bodies is past it. */
const BUDGET = 200_000;
/** What an answer's envelope may add around a refusal (its message, its request id). */
const SLACK = 2_000;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    seed: { orgs: 1, users: 5, posts: 6 },
    env: {
      APP_GRAPHQL__MAX_RESPONSE_BYTES: String(BUDGET),
      APP_HTTP__MAX_RESPONSE_BYTES: String(BUDGET),
      APP_MCP__MAX_RESPONSE_BYTES: String(BUDGET),
    },
    // 2 000 characters each, which JSON writes as 12 000 bytes: a page of 30 writes 360 000.
    prepare: async (url) => {
      await runSql(url, `UPDATE "Post" SET "body" = '${'\u0001'.repeat(2_000)}', "status" = 'published'`);
    },
  });
}, 120_000);
afterAll(async () => server?.stop());

/** A document whose answer repeats sub-trees: posts, under each its author's posts, and so on, with aliased copies. */
const repeatingDocument: fc.Arbitrary<string> = fc
  .record({
    first: fc.integer({ min: 1, max: 30 }),
    inner: fc.integer({ min: 1, max: 30 }),
    depth: fc.integer({ min: 1, max: 3 }),
    copies: fc.integer({ min: 1, max: 4 }),
    // Aliased copies of one field of one row: read once, written as many times.
    bodies: fc.integer({ min: 0, max: 12 }),
  })
  .map(({ first, inner, depth, copies, bodies }) => {
    const body = Array.from({ length: bodies }, (_, index) => `b${String(index)}: body`).join(' ');
    let selection = `id title ${body}`;
    for (let level = 0; level < depth; level++)
      selection = `id ${body} author { id posts(first: ${inner}) { edges { node { ${selection} } } } }`;
    const aliased = Array.from({ length: copies }, (_, index) => `c${String(index)}: posts(first: ${first}) { ${selection} }`);
    return `{ ${aliased.join(' ')} }`;
  });

/** What a generated document may be answered besides its data: the budget's refusal, or a limit that refuses it before it runs. */
const ALLOWED_CODES = ['RESPONSE_TOO_LARGE', 'COMPLEXITY_LIMIT', 'ALIAS_LIMIT', 'ROW_LIMIT'];

/** The codes of an answer's errors. */
const codesOf = (answer: { errors?: { extensions?: { code?: string } }[] }): string[] =>
  (answer.errors ?? []).map((error) => error.extensions?.code ?? '');

describe('GraphQL over HTTP (docs/hostile-input.md §14)', () => {
  it('writes at most the budget, errors or not, or refuses with RESPONSE_TOO_LARGE — never a 500 (generated documents)', async () => {
    const token = await server.token('admin');
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(repeatingDocument, async (query) => {
        const response = await server.fetch('/graphql', {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(response.status, query).toBe(200);
        expect(bytes.length, query).toBeLessThanOrEqual(BUDGET + SLACK);
        const answer = JSON.parse(bytes.toString('utf8')) as { errors?: { extensions?: { code?: string } }[] };
        for (const code of codesOf(answer)) expect(ALLOWED_CODES, query).toContain(code);
        if (codesOf(answer).includes('RESPONSE_TOO_LARGE')) refused += 1;
      }),
      { numRuns: Math.ceil(PROPERTY_RUNS / 3), seed: PROPERTY_SEED },
    );
    expect(refused).toBeGreaterThan(0);
  });

  it('stops resolving once the budget is spent: a repeated sub-tree past it sends few statements', async () => {
    const token = await server.token('admin');
    const requestId = `budget-${String(Date.now())}`;
    const query =
      '{ posts(first: 20) { author { posts(first: 20) { edges { node { body author { posts(first: 20) { edges { node { body } } } } } } } } } }';
    const response = await server.fetch('/graphql', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ query }),
    });
    const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(codesOf(answer)).toContain('RESPONSE_TOO_LARGE');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const line = server.logs.find((entry) => entry.requestId === requestId && typeof entry.statements === 'number');
    // posts, their authors, the authors' posts, their authors: at most one statement a level, however many parents.
    expect(line?.statements).toBeLessThanOrEqual(5);
  });
});

describe('graphql-ws (docs/hostile-input.md §14)', () => {
  it('sends messages of at most the budget, or the refusal, and keeps the connection (generated documents)', async () => {
    const token = await server.token('admin');
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authToken: token },
      retryAttempts: 0,
      // One connection for the whole run, so a close by the server would show.
      lazy: false,
    });
    let closed: number | undefined;
    let refused = 0;
    client.on('closed', (event) => (closed = (event as { code: number }).code));
    try {
      await fc.assert(
        fc.asyncProperty(repeatingDocument, async (query) => {
          const answer = await new Promise<{ data?: unknown; errors?: { extensions?: { code?: string } }[] }>((resolve, reject) => {
            let last: { data?: unknown; errors?: { extensions?: { code?: string } }[] } | undefined;
            client.subscribe(
              { query },
              {
                next: (value) => (last = value as typeof last),
                // A document refused before it runs (its complexity) is an error message of graphql-ws.
                error: (errors) => (Array.isArray(errors) ? resolve({ errors }) : reject(errors as Error)),
                complete: () => (last ? resolve(last) : reject(new Error('no answer'))),
              },
            );
          });
          expect(Buffer.byteLength(JSON.stringify(answer)), `${query}: ${JSON.stringify(answer).slice(0, 300)}`).toBeLessThanOrEqual(
            BUDGET + SLACK,
          );
          for (const code of codesOf(answer)) expect(ALLOWED_CODES, query).toContain(code);
          if (codesOf(answer).includes('RESPONSE_TOO_LARGE')) refused += 1;
        }),
        { numRuns: Math.ceil(PROPERTY_RUNS / 6), seed: PROPERTY_SEED },
      );
      expect(refused).toBeGreaterThan(0);
      expect(closed).toBeUndefined();
    } finally {
      await client.dispose();
    }
  });
});

describe('REST (docs/hostile-input.md §14)', () => {
  it('answers a page of at most the budget or 400 RESPONSE_TOO_LARGE — never a 500 (generated page sizes)', async () => {
    const token = await server.token('admin');
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 100 }), async (first) => {
        const response = await server.fetch(`/v2/posts?first=${String(first)}`, { token });
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.length).toBeLessThanOrEqual(BUDGET + SLACK);
        if (response.status === 400) {
          refused += 1;
          expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
        } else expect(response.status).toBe(200);
      }),
      { numRuns: Math.ceil(PROPERTY_RUNS / 5), seed: PROPERTY_SEED },
    );
    expect(refused).toBeGreaterThan(0);
  });
});

describe('MCP (docs/hostile-input.md §13, §14)', () => {
  it('refuses a result past the budget and runs no call of the batch after it', async () => {
    const token = await server.token('admin');
    const batch = Array.from({ length: 8 }, (_, index) => ({
      jsonrpc: '2.0',
      id: index + 1,
      method: 'tools/call',
      params: { name: 'posts', arguments: { first: 30 } },
    }));
    const response = await server.fetch('/mcp', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(batch),
    });
    const text = await response.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BUDGET + 8 * SLACK);
    const answers = JSON.parse(text) as { result?: { isError?: boolean; content?: { text: string }[] } }[];
    expect(answers).toHaveLength(8);
    const texts = answers.map((answer) => answer.result?.content?.[0]?.text ?? '');
    expect(texts[0]).toMatch(/^RESPONSE_TOO_LARGE: the (result|operation's answer) is larger than .* \(APP_MCP__MAX_RESPONSE_BYTES\)/);
    for (const later of texts.slice(1)) expect(later).toMatch(/^RESPONSE_TOO_LARGE: .*the call was not run/);
    // A page that fits is answered.
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'budget-test', version: '1' });
    await client.connect(transport);
    try {
      const small = await client.callTool({ name: 'posts', arguments: { first: 2 } });
      expect(small.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

describe('a refusal costs its client (docs/hostile-input.md §12, §14)', () => {
  it('charges ten operations of the rate limit for each answer refused past the budget', async () => {
    const limited = await startTestServer({
      seed: { orgs: 1, users: 3, posts: 6 },
      env: { APP_HTTP__MAX_RESPONSE_BYTES: String(BUDGET), APP_HTTP__RATE_LIMIT: '40' },
      prepare: async (url) => {
        await runSql(url, `UPDATE "Post" SET "body" = '${'\u0001'.repeat(2_000)}'`);
      },
    });
    try {
      const token = await limited.token('admin');
      const statuses: number[] = [];
      // Each refusal costs 1 + 10: the fourth reaches 34 and is refused (44), the fifth is past 40.
      for (let attempt = 0; attempt < 5; attempt++) statuses.push((await limited.fetch('/v2/posts?first=100', { token })).status);
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
    } finally {
      await limited.stop();
    }
  });
});

describe('gateways (docs/hostile-input.md §14)', () => {
  it('answers a reply past the budget RESPONSE_TOO_LARGE and keeps the socket (generated payloads)', async () => {
    const small = await startTestServer({ seed: { orgs: 1, users: 1, posts: 0 }, env: { APP_HTTP__MAX_RESPONSE_BYTES: '4096' } });
    const socket = new WebSocket(`${small.url.replace('http', 'ws')}/v1/ws`);
    try {
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const replies: unknown[] = [];
      const waiting: ((reply: unknown) => void)[] = [];
      socket.on('message', (data: Buffer) => {
        const reply = JSON.parse(data.toString('utf8')) as unknown;
        const waiter = waiting.shift();
        if (waiter) waiter(reply);
        else replies.push(reply);
      });
      const ask = (data: unknown): Promise<{ data?: { pong: unknown }; error?: { code: string } }> => {
        socket.send(JSON.stringify({ event: 'ping', data }));
        return new Promise((resolve) => waiting.push(resolve as (reply: unknown) => void));
      };
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 3_000, unit: 'binary' }), async (text) => {
          const reply = await ask(text);
          const written = Buffer.byteLength(JSON.stringify({ event: 'ping', data: { pong: text } }));
          if (written <= 4096) expect(reply.data).toEqual({ pong: text });
          else expect(reply.error?.code).toBe('RESPONSE_TOO_LARGE');
        }),
        { numRuns: Math.ceil(PROPERTY_RUNS / 5), seed: PROPERTY_SEED },
      );
      // Six-byte escapes: 1 000 characters write 6 000 bytes.
      expect((await ask('\u0001'.repeat(1_000))).error?.code).toBe('RESPONSE_TOO_LARGE');
      expect((await ask('still here')).data).toEqual({ pong: 'still here' });
      expect(replies).toEqual([]);
    } finally {
      socket.close();
      await small.stop();
    }
  });
});
