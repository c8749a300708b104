// Runs on: sqlite, postgresql
/**
 * Observability over real HTTP (docs/behaviour.md §12): request ids on every answer, in problem
 * documents, GraphQL errors and every log line written while serving the request; one access line
 * per request with the route template, never the raw path; Prometheus metrics on their own port or
 * behind a token on the main one; and OpenTelemetry traces received by a real OTLP/HTTP receiver
 * started here, whose span tree for a nested query is request → operation → one span per relation
 * level, each with its statement, continued into the job the request enqueued.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedRequestId } from '../../runtime/observability/request-id.js';
import { ConfigError, loadConfig } from '../../runtime/server/config.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { rawExchange } from '../support/raw-http.js';
import { type InProcessServer, startInProcessServer } from '../support/server.js';

/** The access lines a server wrote (one per request). */
function accessLines(server: InProcessServer): Record<string, unknown>[] {
  return server.logs.filter((entry) => typeof entry.route === 'string' && typeof entry.status === 'number' && typeof entry.ms === 'number');
}

/** Whether `id` is a UUID v7 (what the server generates). */
function isUuidV7(id: string | null): boolean {
  return id !== null && isUuid(id) && uuidVersion(id) === 7;
}

/** The first draft of the seeded member of the first org. */
function memberDraft(server: InProcessServer): string {
  const member = server.seeded.users.find((user) => user.role === 'member' && user.orgId === server.seeded.orgs[0]?.id);
  const draft = server.seeded.posts.find((post) => post.authorId === member?.id && post.status === 'draft');
  if (!draft) throw new Error('the seed has no draft of the member');
  return draft.id;
}

/** POST /graphql with `headers`. */
function postGraphQL(
  server: InProcessServer,
  query: string,
  headers: Record<string, string> = {},
  variables?: Record<string, unknown>,
): Promise<Response> {
  return fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}

describe('request ids and the access line (docs/behaviour.md §12.1)', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    server = await startInProcessServer({ env: { APP_LOG__LEVEL: 'debug' } });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('answers a generated UUID v7 when the caller sends none, and echoes a well-formed one', async () => {
    const generated = await fetch(`${server.url}/health`);
    expect(isUuidV7(generated.headers.get('x-request-id'))).toBe(true);
    const chosen = 'req-1234_abcd.ef:01';
    const echoed = await fetch(`${server.url}/health`, { headers: { 'x-request-id': chosen } });
    expect(echoed.headers.get('x-request-id')).toBe(chosen);
  });

  it('puts the id in problem documents and GraphQL errors, and in every log line written while serving the request', async () => {
    const problem = await fetch(`${server.url}/v2/posts`, { headers: { 'x-request-id': 'problem-1' } });
    expect(problem.status).toBe(401);
    expect(await problem.json()).toMatchObject({ code: 'UNAUTHENTICATED', requestId: 'problem-1' });

    const token = await server.token('viewer');
    const refused = await postGraphQL(server, 'query Emails { users(first: 2) { id email } }', {
      authorization: `Bearer ${token}`,
      'x-request-id': 'graphql-1',
    });
    const body = (await refused.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) expect(error.extensions).toMatchObject({ code: 'FORBIDDEN', requestId: 'graphql-1' });

    // At debug, the guards and the operation each write a line while the request is served.
    const lines = server.logs.filter((entry) => entry.requestId === 'graphql-1');
    expect(lines.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining(['guard AuthenticationGuard ran', 'graphql operation finished', 'POST /graphql 200']),
    );
    const guardLines = server.logs.filter((entry) => typeof entry.guard === 'string');
    expect(guardLines.every((entry) => typeof entry.requestId === 'string')).toBe(true);
  });

  it('writes one access line per request: method, route template, status, duration, principal, operation, statements', async () => {
    const token = await server.token('member');
    const member = server.seeded.users.find((user) => user.role === 'member' && user.orgId === server.seeded.orgs[0]?.id);
    const postId = server.seeded.posts[0]?.id ?? '';
    await fetch(`${server.url}/v2/posts/${postId}`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'rest-1' } });
    await postGraphQL(server, 'query Nested { users(first: 3) { id org { id } posts(first: 2) { edges { node { id } } } } }', {
      authorization: `Bearer ${token}`,
      'x-request-id': 'graphql-2',
    });
    await fetch(`${server.url}/no/such/${postId}/path`, { headers: { 'x-request-id': 'unknown-1' } });

    const rest = accessLines(server).filter((entry) => entry.requestId === 'rest-1');
    expect(rest).toEqual([
      expect.objectContaining({
        method: 'GET',
        route: '/v2/posts/:id',
        status: expect.any(Number) as unknown,
        sub: member?.id,
        statements: 1,
        msg: expect.stringMatching(/^GET \/v2\/posts\/:id \d{3}$/) as unknown,
      }),
    ]);
    expect(rest[0]?.ms).toBeGreaterThanOrEqual(0);
    const graphql = accessLines(server).filter((entry) => entry.requestId === 'graphql-2');
    // users, then one batch per relation: User.org and User.posts.
    expect(graphql).toEqual([
      expect.objectContaining({
        method: 'POST',
        route: '/graphql',
        status: 200,
        sub: member?.id,
        operationName: 'Nested',
        operationType: 'query',
        statements: 3,
      }),
    ]);
    const unknown = accessLines(server).filter((entry) => entry.requestId === 'unknown-1');
    expect(unknown).toEqual([expect.objectContaining({ route: 'unmatched', status: 404 })]);
    expect(JSON.stringify(server.logs)).not.toContain('/no/such/');
  });

  it('replaces hostile ids (too long, control characters, spaces, quotes, non-ASCII) with a generated one, never echoing them', async () => {
    // Between two safe parts: at either end, spaces and tabs are trimmed by HTTP itself (and a
    // line break there only ends the header), leaving a well-formed id that is rightly echoed.
    const safe = fc.stringMatching(/^[A-Za-z0-9_.:+=/~-]{1,20}$/);
    const bad = fc.oneof(
      fc
        .integer({ min: 0x00, max: 0x1f })
        .filter((code) => code !== 0x0a && code !== 0x0d)
        .map((code) => String.fromCharCode(code)),
      // A line break inside the value: folded into it (obsolete line folding) or refused by the parser.
      fc.constantFrom('\n ', '\r\n ', '\n\t'),
      fc.constantFrom('\x7f', ' ', '"', "'", '<', '>', ',', ';', '\\', '{', '\u00e9', '\u00ff', '\u2028', '\u{1F600}'),
    );
    const hostile = fc.oneof(
      fc.tuple(safe, bad, safe).map(([before, character, after]) => `${before}${character}${after}`),
      fc.stringMatching(/^[A-Za-z0-9]{129,300}$/),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (value) => {
        expect(isWellFormedRequestId(value)).toBe(false);
        const request = Buffer.concat([
          Buffer.from('GET /v2/posts HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: '),
          Buffer.from(value, 'utf8'),
          Buffer.from('\r\nConnection: close\r\n\r\n'),
        ]);
        const answer = (await rawExchange(server.url, request)).toString('latin1');
        const id = /^x-request-id: (.*)$/im.exec(answer)?.[1]?.trim() ?? null;
        expect(isUuidV7(id)).toBe(true);
        expect(answer).not.toContain(Buffer.from(value, 'utf8').toString('latin1'));
        const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
        expect((JSON.parse(body) as { requestId?: unknown }).requestId).toBe(id);
      }),
      { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
    );
    // Every id the logs carry is a well-formed one.
    expect(
      server.logs.filter(
        (entry) => entry.requestId !== undefined && (typeof entry.requestId !== 'string' || !isWellFormedRequestId(entry.requestId)),
      ),
    ).toEqual([]);
  });

  it('echoes every well-formed id exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9_.:+=/~-]{1,128}$/), async (value) => {
        const response = await fetch(`${server.url}/health`, { headers: { 'x-request-id': value } });
        await response.arrayBuffer();
        expect(response.headers.get('x-request-id')).toBe(value);
      }),
      { seed: PROPERTY_SEED, numRuns: Math.min(PROPERTY_RUNS, 50) },
    );
  });

  it('answers the id on a WebSocket handshake and on a refused upgrade', async () => {
    const refused = (
      await rawExchange(
        server.url,
        'GET /nowhere HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Request-Id: up-404\r\n\r\n',
      )
    ).toString();
    expect(refused).toMatch(/^HTTP\/1\.1 404/);
    expect(refused).toMatch(/x-request-id: up-404/i);
    expect(refused).toContain('"requestId":"up-404"');
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws'], {
      headers: { 'x-request-id': 'up-101' },
    });
    const headers = await new Promise<IncomingMessage['headers']>((resolve, reject) => {
      socket.once('upgrade', (response) => resolve(response.headers));
      socket.once('error', reject);
    });
    socket.close();
    expect(headers['x-request-id']).toBe('up-101');
  });
});

describe('access line settings (docs/behaviour.md §12.1)', () => {
  it('writes none with APP_LOG__ACCESS=off, and none for a sample of 0 (server errors excepted)', async () => {
    const settings: Record<string, string>[] = [{ APP_LOG__ACCESS: 'off' }, { APP_LOG__ACCESS_SAMPLE: '0' }, { APP_LOG__ACCESS: 'debug' }];
    for (const env of settings) {
      const server = await startInProcessServer({ env });
      try {
        for (let index = 0; index < 5; index++) await (await fetch(`${server.url}/health`)).arrayBuffer();
        expect(accessLines(server)).toEqual([]);
      } finally {
        await server.stop();
      }
    }
  });

  it('refuses settings out of range, naming the variable', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return error instanceof ConfigError ? error.problems.map((problem) => problem.variable) : [];
      }
    };
    expect(problems({ APP_LOG__ACCESS_SAMPLE: '1.5' })).toEqual(['APP_LOG__ACCESS_SAMPLE']);
    expect(problems({ APP_LOG__ACCESS: 'loud' })).toEqual(['APP_LOG__ACCESS']);
    expect(problems({ APP_METRICS__TOKEN: 'short' })).toEqual(['APP_METRICS__TOKEN']);
    expect(problems({ APP_OTEL__ENDPOINT: 'ftp://collector' })).toEqual(['APP_OTEL__ENDPOINT']);
    expect(problems({ APP_OTEL__SAMPLE: '-1' })).toEqual(['APP_OTEL__SAMPLE']);
    for (const timeout of ['0', '99', '600001', '1.5', 'soon'])
      expect(problems({ APP_OTEL__EXPORT_TIMEOUT: timeout }), timeout).toEqual(['APP_OTEL__EXPORT_TIMEOUT']);
    expect(loadConfig({}).config.otel.exportTimeout).toBe(10_000);
    expect(loadConfig({ APP_LOG__ACCESS_SAMPLE: '0.25', APP_OTEL__SAMPLE: '1', APP_OTEL__EXPORT_TIMEOUT: '2500' }).config).toMatchObject({
      log: { accessSample: 0.25 },
      otel: { sample: 1, exportTimeout: 2500 },
    });
  });
});

/** One sample of a Prometheus text exposition: its name, labels and value. */
interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** Parses the samples of a text exposition (comments skipped). */
function samples(text: string): Sample[] {
  const parsed: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] ?? ''] = pair[2] ?? '';
    parsed.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return parsed;
}

/** The value of the first sample named `name` whose labels include `labels` (0 when there is none). */
function valueOf(all: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return (
    all.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value ?? 0
  );
}

describe('metrics on their own port (docs/behaviour.md §12.2)', () => {
  let server: InProcessServer;
  const scrape = async (): Promise<Sample[]> => samples(await (await fetch(server.metricsUrl ?? '')).text());

  beforeAll(async () => {
    server = await startInProcessServer({
      env: { APP_METRICS__ENABLED: 'true', APP_METRICS__PORT: '0', APP_HTTP__RATE_LIMIT: '40', APP_GRAPHQL__MAX_COMPLEXITY: '50' },
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('serves the exposition on its own port, not on the main one', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const response = await fetch(server.metricsUrl ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const all = await scrape();
    // The default process metrics.
    expect(all.some((sample) => sample.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(all.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('observes requests by route template, operations, statements, loader batches and refusals', async () => {
    const token = await server.token('member');
    const postId = server.seeded.posts[0]?.id ?? '';
    await (await fetch(`${server.url}/v2/posts/${postId}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    await (await fetch(`${server.url}/random/${postId}/thing`)).arrayBuffer();
    await (
      await postGraphQL(server, 'query Nested { users(first: 3) { id org { id } posts(first: 2) { edges { node { id } } } } }', {
        authorization: `Bearer ${token}`,
      })
    ).arrayBuffer();
    await (
      await postGraphQL(server, 'query TooMuch { users(first: 100) { id posts(first: 100) { edges { node { id } } } } }', {
        authorization: `Bearer ${token}`,
      })
    ).arrayBuffer();
    await (await fetch(`${server.url}/v2/posts`)).arrayBuffer();
    const text = await (await fetch(server.metricsUrl ?? '')).text();
    const all = samples(text);
    expect(valueOf(all, 'http_request_duration_seconds_count', { route: '/v2/posts/:id', method: 'GET' })).toBe(1);
    // This one and the earlier GET /metrics on the main port.
    expect(valueOf(all, 'http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status: '404' })).toBe(2);
    expect(text).not.toContain(postId);
    expect(valueOf(all, 'graphql_operation_duration_seconds_count', { operation: 'Nested', type: 'query', outcome: 'ok' })).toBe(1);
    expect(valueOf(all, 'graphql_operation_duration_seconds_count', { operation: 'TooMuch', outcome: 'refused' })).toBe(1);
    // The refused operation sent none; the nested one three (users, User.org, User.posts).
    expect(valueOf(all, 'http_request_sql_statements_bucket', { route: '/graphql', le: '0' })).toBe(1);
    expect(valueOf(all, 'http_request_sql_statements_bucket', { route: '/graphql', le: '2' })).toBe(1);
    expect(valueOf(all, 'http_request_sql_statements_bucket', { route: '/graphql', le: '3' })).toBe(2);
    // One batch per relation: the three users' posts, and their one org (a key asked three times is one key).
    expect(valueOf(all, 'graphql_loader_batch_size_count', { relation: 'User.posts' })).toBe(1);
    expect(valueOf(all, 'graphql_loader_batch_size_sum', { relation: 'User.posts' })).toBe(3);
    expect(valueOf(all, 'graphql_loader_batch_size_sum', { relation: 'User.org' })).toBe(1);
    expect(valueOf(all, 'requests_refused_total', { reason: 'complexity_limit' })).toBe(1);
    expect(valueOf(all, 'requests_refused_total', { reason: 'unauthenticated' })).toBe(1);
  });

  it('counts rate-limited requests, open WebSockets and running subscriptions', async () => {
    // The limit is 40 per window; the earlier tests sent fewer.
    for (let index = 0; index < 45; index++) await (await fetch(`${server.url}/api-json`)).arrayBuffer();
    expect(valueOf(await scrape(), 'requests_refused_total', { reason: 'too_many_requests' })).toBeGreaterThanOrEqual(5);

    const token = await server.token('member');
    // From another address: this one has spent its budget, which sockets share (docs/hostile-input.md §12).
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws'], { localAddress: '127.0.0.2' });
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${token}` } }));
    await expect.poll(() => messages.some((message) => message.type === 'connection_ack')).toBe(true);
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { postPublished { id } }' } }));
    await expect.poll(async () => valueOf(await scrape(), 'graphql_subscriptions')).toBe(1);
    expect(valueOf(await scrape(), 'websocket_connections', { transport: 'graphql-ws' })).toBe(1);
    socket.send(JSON.stringify({ id: '1', type: 'complete' }));
    await expect.poll(async () => valueOf(await scrape(), 'graphql_subscriptions')).toBe(0);
    socket.close();
    await expect.poll(async () => valueOf(await scrape(), 'websocket_connections', { transport: 'graphql-ws' })).toBe(0);
  });

  it('has every request answered before a scrape in it, however many were answered since the last one', async () => {
    const total = (all: readonly Sample[]): number =>
      all.filter((sample) => sample.name === 'http_request_duration_seconds_count').reduce((sum, sample) => sum + sample.value, 0);
    const before = total(await scrape());
    // Past any batch the server applies at once (runtime/observability/metrics.ts), and not a multiple of one.
    for (const count of [1, 7, 300, 257, 513]) {
      const start = total(await scrape());
      for (let sent = 0; sent < count; sent += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, count - sent) }, async () => (await fetch(`${server.url}/api-json`)).arrayBuffer()),
        );
      }
      expect(total(await scrape()) - start).toBe(count);
    }
    expect(total(await scrape()) - before).toBe(1 + 7 + 300 + 257 + 513);
  });
});

describe('operation labels callers cannot fill (docs/hostile-input.md §8)', () => {
  let server: InProcessServer;

  beforeAll(async () => {
    server = await startInProcessServer({ env: { APP_METRICS__ENABLED: 'true', APP_METRICS__PORT: '0' } });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('gives anonymous callers no label of their own however many names they send (generated); a signed-in caller still gets one', async () => {
    const names =
      fc.sample(fc.uniqueArray(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/), { minLength: 250, maxLength: 250 }), {
        numRuns: 1,
        seed: PROPERTY_SEED,
      })[0] ?? [];
    for (let sent = 0; sent < names.length; sent += 25) {
      // Ran (a public-only selection) and refused (unknown field) alike.
      await Promise.all(
        names
          .slice(sent, sent + 25)
          .map(async (name, index) =>
            (await postGraphQL(server, index % 2 === 0 ? `query ${name} { __typename }` : `query ${name} { nothing }`)).arrayBuffer(),
          ),
      );
    }
    const token = await server.token('member');
    await (await postGraphQL(server, 'query MemberPosts { posts(first: 1) { id } }', { authorization: `Bearer ${token}` })).arrayBuffer();
    const all = samples(await (await fetch(server.metricsUrl ?? '')).text());
    const labelled = new Set(
      all.filter((sample) => sample.name === 'graphql_operation_duration_seconds_count').map((sample) => sample.labels.operation),
    );
    expect([...labelled].filter((label) => label !== undefined && names.includes(label))).toEqual([]);
    expect(labelled.has('MemberPosts')).toBe(true);
    expect(
      all
        .filter((sample) => sample.name === 'graphql_operation_duration_seconds_count' && sample.labels.operation === 'other')
        .reduce((sum, sample) => sum + sample.value, 0),
    ).toBe(names.length);
  });
});

describe('job metrics (docs/behaviour.md §12.2)', () => {
  it('observes each run of a job and the depth of its queue', async () => {
    const server = await startInProcessServer({ env: { APP_METRICS__ENABLED: 'true', APP_METRICS__PORT: '0' } });
    try {
      const token = await server.token('member');
      // A REST read, answered before the Express chain (docs/decisions.md §6).
      expect((await fetch(`${server.url}/v2/posts?first=2`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const published = await fetch(`${server.url}/v2/posts/${memberDraft(server)}/publish`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(published.status).toBe(200);
      const scrape = async (): Promise<Sample[]> => samples(await (await fetch(server.metricsUrl ?? '')).text());
      await expect
        .poll(
          async () =>
            valueOf(await scrape(), 'job_duration_seconds_count', { queue: 'notifications', job: 'post-published', outcome: 'done' }),
          { timeout: 10_000 },
        )
        .toBe(1);
      const all = await scrape();
      expect(valueOf(all, 'job_failures_total', { queue: 'notifications' })).toBe(0);
      expect(all.find((sample) => sample.name === 'job_queue_depth' && sample.labels.queue === 'notifications')?.value).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('metrics on the main port behind a token (docs/behaviour.md §12.2)', () => {
  it('answers the token only, opens no port of its own, and is neutral to version selection', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const server = await startInProcessServer({
      env: { APP_METRICS__ENABLED: 'true', APP_METRICS__TOKEN: token, APP_HTTP__VERSIONING: 'header' },
    });
    try {
      expect(server.metricsUrl).toBeUndefined();
      const anonymous = await fetch(`${server.url}/metrics`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(
        401,
      );
      const scraped = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}`, 'x-api-version': '7' } });
      expect(scraped.status).toBe(200);
      const all = samples(await scraped.text());
      expect(valueOf(all, 'http_request_duration_seconds_count', { route: '/metrics', status: '401' })).toBe(2);
    } finally {
      await server.stop();
    }
  });
});

/** One span as the OTLP/HTTP JSON exporter sends it. */
interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly service: string;
}

/** A real OTLP/HTTP receiver: decodes what the exporter POSTs to /v1/traces (JSON). */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; paths: string[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
      type Export = {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: AnyValue }[] };
          scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes?: { key: string; value: AnyValue }[] })[] }[];
        }[];
      };
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Export;
      const value = (entry: AnyValue): unknown =>
        entry.stringValue ?? (entry.intValue === undefined ? undefined : Number(entry.intValue)) ?? entry.boolValue ?? entry.doubleValue;
      for (const resource of body.resourceSpans ?? []) {
        const service = String(value(resource.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value ?? {}));
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              ...span,
              service,
              attributes: Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, value(attribute.value)])),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('traces (docs/behaviour.md §12.3)', () => {
  it('answers as usual and shuts down within APP_OTEL__EXPORT_TIMEOUT when the collector cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const server = await startInProcessServer({
      env: { APP_OTEL__ENDPOINT: `http://127.0.0.1:${port}`, APP_OTEL__EXPORT_TIMEOUT: '1000' },
    });
    const token = await server.token('member');
    for (let index = 0; index < 20; index++)
      expect((await postGraphQL(server, '{ users(first: 2) { id } }', { authorization: `Bearer ${token}` })).status).toBe(200);
    // Closing tries to send the spans, fails, and still closes, without the ~8 s of retries the
    // exporter's own 10 s deadline would allow.
    const stopping = Date.now();
    await server.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(server.logs.some((entry) => entry.level === 40 && String(entry.msg).startsWith('could not send the last spans'))).toBe(true);
  });

  it('exports request → operation → one span per relation level, each with its statement, and continues the trace into the job', async () => {
    const receiver = await startReceiver();
    const server = await startInProcessServer({ env: { APP_OTEL__ENDPOINT: receiver.url, APP_OTEL__SERVICE_NAME: 'obs-test' } });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const memberId = server.seeded.users.find((user) => user.role === 'member' && user.orgId === server.seeded.orgs[0]?.id)?.id ?? '';
    let users: number;
    try {
      const token = await server.token('member');
      const query = 'query Chain { users(first: 5) { id posts(first: 5) { edges { node { id author { id org { id name } } } } } } }';
      const answer = await postGraphQL(server, query, {
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${callerSpan}-01`,
        'x-request-id': 'traced-1',
      });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { errors?: unknown; data: { users: unknown[] } };
      expect(body.errors).toBeUndefined();
      users = body.data.users.length;
      // A REST read, answered before the Express chain (docs/decisions.md §6).
      expect((await fetch(`${server.url}/v2/posts?first=2`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const published = await fetch(`${server.url}/v2/posts/${memberDraft(server)}/publish`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(published.status).toBe(200);
      await expect.poll(() => server.logs.some((entry) => entry.msg === 'job post-published done'), { timeout: 10_000 }).toBe(true);
    } finally {
      // Closing sends the spans not yet exported.
      await server.stop();
      await receiver.close();
    }
    expect(receiver.paths.every((path) => path.startsWith('POST /v1/traces application/json'))).toBe(true);
    const { spans } = receiver;
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['obs-test']));
    const children = (parent: ReceivedSpan | undefined): ReceivedSpan[] =>
      spans.filter((span) => parent !== undefined && span.parentSpanId === parent.spanId && span.traceId === parent.traceId);

    // The request continues the caller's trace, under the caller's span.
    const request = spans.find((span) => span.traceId === traceId && span.name === 'POST /graphql');
    expect(request).toMatchObject({
      parentSpanId: callerSpan,
      kind: 2,
      attributes: expect.objectContaining({
        'http.route': '/graphql',
        'http.response.status_code': 200,
        'request.id': 'traced-1',
        'graphql.operation.name': 'Chain',
      }) as unknown,
    });
    const operations = children(request);
    expect(operations.map((span) => span.name)).toEqual(['query Chain']);
    // The root list's statement, then one loader batch per relation level.
    const underOperation = children(operations[0]);
    expect(underOperation.map((span) => span.name).sort()).toEqual([
      'SELECT',
      'loader Post.author',
      'loader User.org',
      'loader User.posts',
    ]);
    for (const loader of underOperation.filter((span) => span.name.startsWith('loader '))) {
      const statements = children(loader);
      expect(statements.map((span) => span.name)).toEqual(['SELECT']);
      expect(statements[0]?.kind).toBe(3);
      expect(statements[0]?.attributes).toMatchObject({
        'db.system.name': expect.any(String) as unknown,
        'db.query.text': expect.stringMatching(/^SELECT /) as unknown,
      });
      // Statement text, never the values bound to it.
      expect(String(statements[0]?.attributes['db.query.text'])).not.toContain(memberId);
    }
    // One batch for every parent of the level.
    expect(users).toBeGreaterThan(1);
    expect(underOperation.find((span) => span.name === 'loader User.posts')?.attributes['graphql.loader.keys']).toBe(users);

    // The REST read's statements are children of its request span.
    const read = spans.find((span) => span.name === 'GET /v2/posts');
    expect(read).toMatchObject({ kind: 2, attributes: expect.objectContaining({ 'http.response.status_code': 200 }) as unknown });
    expect(children(read).map((span) => span.name)).toContain('SELECT');

    // The publish request enqueued a job: its span continues the request's trace.
    const publish = spans.find((span) => span.name === 'POST /v2/posts/:id/publish');
    const job = spans.find((span) => span.name === 'process notifications');
    expect(job).toMatchObject({
      traceId: publish?.traceId,
      kind: 5,
      attributes: expect.objectContaining({ 'job.name': 'post-published', 'messaging.destination.name': 'notifications' }) as unknown,
    });
    const inPublish = new Set(spans.filter((span) => span.traceId === publish?.traceId).map((span) => span.spanId));
    expect(inPublish.has(job?.parentSpanId ?? '')).toBe(true);
    // The job's own statements are its children.
    expect(children(job).length).toBeGreaterThan(0);
  });

  it('follows a well-formed traceparent that sampled and no other, whatever a caller sends (generated values)', async () => {
    const receiver = await startReceiver();
    // Nothing of this server's own is sampled: every span received continues a caller's trace.
    const server = await startInProcessServer({ env: { APP_OTEL__ENDPOINT: receiver.url, APP_OTEL__SAMPLE: '0' } });
    const hex = (length: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
    const wellFormed = fc.tuple(hex(32), hex(16), hex(2)).map(([trace, span, flags]) => `00-${trace}-${span}-${flags}`);
    const hostile = fc.oneof(
      wellFormed,
      // Later versions may carry more fields; version ff and extra fields on 00 are refused.
      fc
        .tuple(fc.constantFrom('01', 'fe', 'ff', 'FF', '0'), hex(32), hex(16), hex(2), fc.constantFrom('', '-extra', '-'))
        .map(([version, trace, span, flags, tail]) => `${version}-${trace}-${span}-${flags}${tail}`),
      fc.tuple(hex(16), hex(2)).map(([span, flags]) => `00-${'0'.repeat(32)}-${span}-${flags}`),
      fc.tuple(hex(32), hex(2)).map(([trace, flags]) => `00-${trace}-${'0'.repeat(16)}-${flags}`),
      wellFormed.map((value) => value.toUpperCase()),
      fc.tuple(wellFormed, fc.nat(54)).map(([value, cut]) => value.slice(0, cut)),
      fc
        .tuple(wellFormed, fc.nat(54), fc.constantFrom('g', 'z', ' ', '_', '.', '--'))
        .map(([value, at, character]) => `${value.slice(0, at)}${character}${value.slice(at + 1)}`),
      fc.stringMatching(/^[!-~]{1,2000}$/),
    );
    /** The caller's trace and span a value names when it is a traceparent (W3C Trace Context, §3.2) that sampled. */
    const sampledCaller = (value: string): { trace: string; span: string } | undefined => {
      const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/.exec(value);
      if (!match || match[1] === 'ff' || (match[1] === '00' && match[5] !== undefined)) return undefined;
      const [, , trace = '', span = '', flags = ''] = match;
      if (/^0+$/.test(trace) || /^0+$/.test(span) || (Number.parseInt(flags, 16) & 1) === 0) return undefined;
      return { trace, span };
    };
    const expected = new Map<string, Set<string>>();
    try {
      const token = await server.token('member');
      await fc.assert(
        fc.asyncProperty(hostile, async (value) => {
          const answer = await postGraphQL(server, '{ users(first: 2) { id } }', { authorization: `Bearer ${token}`, traceparent: value });
          expect(answer.status).toBe(200);
          expect(((await answer.json()) as { errors?: unknown }).errors).toBeUndefined();
          const caller = sampledCaller(value);
          if (caller) expected.set(caller.trace, (expected.get(caller.trace) ?? new Set()).add(caller.span));
        }),
        { seed: PROPERTY_SEED, numRuns: PROPERTY_RUNS },
      );
    } finally {
      await server.stop();
      await receiver.close();
    }
    const requests = receiver.spans.filter((span) => span.name === 'POST /graphql');
    expect(expected.size).toBeGreaterThan(0);
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set(expected.keys()));
    // Each followed request has its whole tree: its operation under it.
    expect(
      receiver.spans.filter((span) => span.name === 'query anonymous' && requests.some((request) => request.spanId === span.parentSpanId))
        .length,
    ).toBe(requests.length);
    expect(requests.length).toBe([...expected.values()].reduce((sum, spans) => sum + spans.size, 0));
    for (const request of requests) expect(expected.get(request.traceId)?.has(request.parentSpanId ?? '')).toBe(true);
  });

  it('records about the configured share of new traces, each whole, and a job enqueued by a request not recorded is not recorded either', async () => {
    const receiver = await startReceiver();
    const server = await startInProcessServer({ env: { APP_OTEL__ENDPOINT: receiver.url, APP_OTEL__SAMPLE: '0.5' } });
    const publishes = 40;
    try {
      const token = await server.token('member');
      for (let index = 0; index < publishes; index++) {
        const created = await fetch(`${server.url}/v2/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `sampled ${index}` }),
        });
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: string };
        expect(
          (await fetch(`${server.url}/v2/posts/${id}/publish`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status,
        ).toBe(200);
      }
      await expect
        .poll(() => server.logs.filter((entry) => entry.msg === 'job post-published done').length, { timeout: 20_000 })
        .toBe(publishes);
    } finally {
      await server.stop();
      await receiver.close();
    }
    const requests = receiver.spans.filter((span) => span.name === 'POST /v2/posts/:id/publish');
    const jobs = receiver.spans.filter((span) => span.name === 'process notifications');
    // One in two of 40 new traces: 20 on average, 3.2 either side; outside 6–34 about once in 10⁵ runs.
    expect(requests.length).toBeGreaterThanOrEqual(6);
    expect(requests.length).toBeLessThanOrEqual(34);
    // Each recorded request has its statements; the job of each is recorded in its trace, and no
    // job of a request not recorded starts a trace of its own (it carries the unrecorded trace).
    for (const request of requests)
      expect(receiver.spans.some((span) => span.parentSpanId === request.spanId && span.name !== 'process notifications')).toBe(true);
    expect(new Set(jobs.map((job) => job.traceId))).toEqual(new Set(requests.map((request) => request.traceId)));
    expect(jobs.length).toBe(requests.length);
  });

  it('records no span of a trace that is not sampled, down to its statements and the jobs it enqueues, and follows a caller that sampled', async () => {
    const receiver = await startReceiver();
    const server = await startInProcessServer({ env: { APP_OTEL__ENDPOINT: receiver.url, APP_OTEL__SAMPLE: '0' } });
    const sampled = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    const unsampled = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    try {
      const token = await server.token('member');
      const query = '{ users(first: 3) { id org { id } posts(first: 2) { edges { node { id } } } } }';
      // Not sampled here (a sample of 0), nor by a caller that says so (flags 00).
      expect((await postGraphQL(server, query, { authorization: `Bearer ${token}` })).status).toBe(200);
      expect(
        (await postGraphQL(server, query, { authorization: `Bearer ${token}`, traceparent: `00-${unsampled}-00f067aa0ba902b7-00` })).status,
      ).toBe(200);
      const published = await fetch(`${server.url}/v2/posts/${memberDraft(server)}/publish`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, traceparent: `00-${unsampled}-00f067aa0ba902b8-00` },
      });
      expect(published.status).toBe(200);
      await expect.poll(() => server.logs.some((entry) => entry.msg === 'job post-published done'), { timeout: 10_000 }).toBe(true);
      // A caller that sampled its trace is followed (parent-based sampling).
      expect(
        (await postGraphQL(server, query, { authorization: `Bearer ${token}`, traceparent: `00-${sampled}-00f067aa0ba902b9-01` })).status,
      ).toBe(200);
    } finally {
      await server.stop();
      await receiver.close();
    }
    const traces = new Set(receiver.spans.map((span) => span.traceId));
    expect(traces).toEqual(new Set([sampled]));
    // The sampled request's whole tree: request, operation, statements, one batch per relation level.
    expect(new Set(receiver.spans.map((span) => span.name))).toEqual(
      new Set(['POST /graphql', 'query anonymous', 'SELECT', 'loader User.org', 'loader User.posts']),
    );
  });
});
