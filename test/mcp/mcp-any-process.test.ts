// Runs on: postgresql
/**
 * Any process answers any MCP request (docs/decisions.md §15; docs/behaviour.md §4.6): with two
 * workers (`APP_HTTP__WORKERS=2`, which need PostgreSQL), the SDK's own client — `Client` and
 * `StreamableHTTPClientTransport` — initializes, lists and calls tools with every request on a
 * connection of its own, so the workers share them; each is answered, and the access lines show
 * both workers answering one client's requests. A host that kept sessions in the process that
 * opened them answered most of these 404.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 1, users: 3, posts: 4 }, env: { APP_HTTP__WORKERS: '2' } });
});

afterAll(async () => {
  await server?.stop();
});

/** The access lines of MCP requests so far: who answered (pid) and how (status). */
function mcpAnswers(): { pid: unknown; status: unknown }[] {
  return server.logs
    .filter((entry) => entry.route === '/mcp' && typeof entry.status === 'number')
    .map((entry) => ({ pid: entry.pid, status: entry.status }));
}

describe('MCP on two workers (APP_HTTP__WORKERS=2)', () => {
  it('answers one SDK client’s initialize, tools/list and 40 tools/call, each on a fresh connection, whichever worker takes it', async () => {
    const admin = server.user('admin');
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      // A connection per request: the primary hands each to a worker in turn.
      requestInit: { headers: { authorization: `Bearer ${await server.tokenFor(admin)}`, connection: 'close' } },
    });
    const client = new Client({ name: 'any-process', version: '1' });
    const before = mcpAnswers().length;
    try {
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['me', 'posts', 'createPost']));
      const started = Date.now();
      for (let index = 0; index < 40; index++) {
        if (index % 2 === 0) {
          const result = (await client.callTool({ name: 'me', arguments: {} })) as CallToolResult;
          expect(result.isError, JSON.stringify(result)).toBeFalsy();
          expect(result.structuredContent).toMatchObject({ id: admin.id });
        } else {
          const result = (await client.callTool({ name: 'posts', arguments: { first: 2 } })) as CallToolResult;
          expect(result.isError, JSON.stringify(result)).toBeFalsy();
          expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
        }
      }
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await client.close();
    }
    // Access lines arrive through the primary's pipe after the answers: wait for the 42 requests (initialize, list, 40 calls).
    await expect
      .poll(
        () =>
          mcpAnswers()
            .slice(before)
            .filter((answer) => answer.status === 200).length,
        { timeout: 5_000 },
      )
      .toBe(42);
    const answers = mcpAnswers().slice(before);
    // Every POST answered (200, or 202 for the notification); the client's GET for a stream is 405, which it expects.
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 202 && answer.status !== 405)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(42);
    // Both workers answered, each a fair share of one client's requests.
    const pids = new Set(answers.map((answer) => answer.pid));
    expect(pids.size).toBe(2);
    for (const pid of pids)
      expect(answers.filter((answer) => answer.pid === pid && answer.status === 200).length).toBeGreaterThanOrEqual(10);
  }, 60_000);
});
