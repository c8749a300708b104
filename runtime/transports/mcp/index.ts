/**
 * The Model Context Protocol host (docs/behaviour.md §4.6): the operations marked `@McpTool()` as
 * tools, over Streamable HTTP (`@modelcontextprotocol/sdk`, protocol revision 2025-11-25 and the
 * ones before it the SDK negotiates) at `/mcp` or the `@McpHost({ path })`. Self-mounted, so
 * neutral to version selection (docs/behaviour.md §4.4, §9.3.3).
 *
 * Stateless (docs/decisions.md §15): the host keeps no sessions. Every POST is answered on its own
 * by an SDK server and transport made for it (`sessionIdGenerator: undefined`) and dropped once
 * answered, so any worker of any host answers any request, with no routing by `Mcp-Session-Id`
 * (which the host neither gives out nor reads). What does not depend on the caller — the tools,
 * their schemas, the server's description — is built once per process; a request only binds its
 * caller to it. `GET` (a stream for messages the host would send unasked) and `DELETE` (ending a
 * session) are 405.
 *
 * Per request, before the SDK sees it: the `Origin` is one the server serves (DNS rebinding), a
 * bearer token that is present verifies (else 401 with `WWW-Authenticate` naming the host's
 * protected-resource metadata, as the MCP authorization spec asks), the body is JSON within
 * `APP_HTTP__BODY_LIMIT`, a batch within `APP_MCP__MAX_BATCH` and the rate limit. Every refusal is
 * a JSON-RPC error body with the status the Streamable HTTP transport gives it
 * (docs/hostile-input.md §7). Answers are plain JSON (no server-sent events).
 *
 * The protected-resource metadata (RFC 9728) is served at `/.well-known/oauth-protected-resource`
 * followed by the host's path, to anyone, neutral to versions (docs/behaviour.md §4.6).
 *
 * Tools (./tools.ts) run in the caller's ambient context, under their posture, with the request's
 * own token: every request authenticates by itself.
 */
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import express, { type Express, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Logger } from 'pino';
import { answerBudget } from '../../http/answer.js';
import { namesUtf8OrNoCharset, unsupportedBodyDetail } from '../../http/media-type.js';
import type { RateLimit } from '../../http/rate-limit.js';
import { stateOf } from '../../http/request-state.js';
import { observationOf } from '../../observability/observation.js';
import type { AppConfig } from '../../server/config.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';
import { callTool, canSee, describeTool, type McpCaller, type McpHostDefinition } from './tools.js';

export type { McpHostDefinition, McpToolDefinition, McpToolOutput, McpToolParameter } from './tools.js';

/** A `Host` the metadata may name: a DNS name or IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** JSON-RPC error codes the host answers with before a message reaches the SDK. */
const RPC = { serverError: -32000, invalidRequest: -32600, parseError: -32700 } as const;

/** A tool of the host, as generated. */
type HostTool = McpHostDefinition['tools'][number];

/**
 * The MCP transport of `createHost(container)` (the generated `mcp.ts`): its path, neutral to
 * version selection. It holds nothing between requests, so it has nothing to close at shutdown:
 * requests in flight drain with the HTTP server's (docs/guide/deployment.md "Shutdown").
 */
export function mcpHost<Container>(createHost: (container: Container) => McpHostDefinition): TransportFactory<Container> {
  return defineTransport('mcp', ({ config, logger, container, rateLimit }): Transport => {
    const host = new McpHost(createHost(container), config, logger.child({ transport: 'mcp' }), rateLimit);
    return {
      name: 'mcp',
      // Nothing of its own to expose to browsers: the 401's WWW-Authenticate is exposed on every answer.
      http: { placement: 'neutral', paths: [host.path, host.metadataPath], mount: (app) => host.mount(app) },
      entrypoints: [{ name: 'mcp', path: host.path, description: 'MCP host (Streamable HTTP)' }],
    };
  });
}

/** The host: the HTTP handling in front of an SDK server and transport made for each request. */
class McpHost {
  readonly path: string;
  /** Where the protected-resource metadata is served: the well-known prefix, then {@link path} (RFC 9728 §3.1). */
  readonly metadataPath: string;
  /** The authorization server tokens come from, when the configuration names one (see {@link serveMetadata}). */
  private readonly authorizationServers: readonly string[];
  private readonly tools: ReadonlyMap<string, HostTool>;
  /** Every tool with its `tools/list` description, built once per process. */
  private readonly listed: readonly { readonly tool: HostTool; readonly described: ReturnType<typeof describeTool> }[];
  /** What every request's SDK server tells clients of itself and validates with, built once per process. */
  private readonly serverInfo: { readonly name: string; readonly version: string };
  private readonly serverOptions: ServerOptions;
  private readonly readBody: (request: Request, response: Response) => Promise<void>;
  /** The browser origins served besides the server's own ({@link listedOrigins}). */
  private readonly listedOrigins: ReadonlySet<string>;

  constructor(
    private readonly definition: McpHostDefinition,
    private readonly config: AppConfig,
    private readonly logger: Logger,
    private readonly rateLimit: RateLimit | undefined,
  ) {
    this.path = definition.path;
    this.metadataPath = new URL(getOAuthProtectedResourceMetadataUrl(new URL(this.path, 'http://localhost'))).pathname;
    this.authorizationServers = authorizationServers(config);
    this.tools = new Map(definition.tools.map((tool) => [tool.name, tool]));
    this.listed = definition.tools.map((tool) => ({ tool, described: describeTool(tool) }));
    this.serverInfo = { name: definition.name, version: '1' };
    this.serverOptions = {
      capabilities: { tools: { listChanged: false } },
      // The SDK would compile a JSON Schema validator (Ajv) for every server: one per process is enough.
      jsonSchemaValidator: new AjvJsonSchemaValidator(),
      ...(definition.instructions !== undefined ? { instructions: definition.instructions } : {}),
    };
    this.readBody = promisify(express.text({ type: () => true, limit: config.http.bodyLimit }));
    this.listedOrigins = listedOrigins(config);
  }

  mount(app: Express): void {
    app.all(this.metadataPath, (request, response) => {
      this.serveMetadata(request, response);
    });
    app.all(this.path, (request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        this.logger.error({ err: error }, 'MCP request failed');
        rpcError(response, 500, RPC.serverError, 'internal server error');
      });
    });
    this.logger.info(
      { path: this.path, tools: this.definition.tools.map((tool) => tool.name) },
      `MCP host at ${this.path} with ${this.definition.tools.length} tools`,
    );
    if (this.config.http.corsOrigins.includes('*'))
      this.logger.warn(
        { path: this.path },
        `APP_HTTP__CORS_ORIGINS=* does not open the MCP host at ${this.path} to every browser origin (DNS rebinding): list the origins it serves in APP_MCP__ORIGINS`,
      );
  }

  private async handle(request: Request, response: Response): Promise<void> {
    const origin = request.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin, request.socket.localPort)) {
      rpcError(
        response,
        403,
        RPC.serverError,
        `Forbidden: requests from origin ${origin} are not served (APP_MCP__ORIGINS and APP_HTTP__CORS_ORIGINS list the origins allowed)`,
      );
      return;
    }
    const state = stateOf(response);
    if (state.authentication.kind === 'rejected') {
      // The MCP authorization spec: an invalid or expired token is HTTP 401 with WWW-Authenticate (RFC 6750).
      const description = state.authentication.reason.replace(/["\\]/g, "'");
      const resource = this.resourceUrl(request);
      const metadata = resource ? `, resource_metadata="${getOAuthProtectedResourceMetadataUrl(resource)}"` : '';
      response.setHeader('WWW-Authenticate', `Bearer error="invalid_token", error_description="${description}"${metadata}`);
      observationOf(response)?.refuse('UNAUTHENTICATED');
      response.status(401).json({ error: 'invalid_token', error_description: state.authentication.reason });
      return;
    }
    if (request.method !== 'POST') {
      // No sessions (docs/decisions.md §15): no stream of messages sent unasked to open, none to end.
      response.setHeader('Allow', 'POST');
      rpcError(
        response,
        405,
        RPC.serverError,
        `Method not allowed: ${this.path} answers POST (JSON-RPC messages) only; it keeps no sessions, so there is no stream to open (GET) or session to end (DELETE)`,
      );
      return;
    }
    const caller: McpCaller = {
      request: { ...state.request, transport: 'mcp' },
      authentication: state.authentication,
      answer: { remaining: this.config.mcp.maxResponseBytes, queue: Promise.resolve() },
      refused: () => void answerBudget(this.config.mcp.maxResponseBytes, this.rateLimit).refused(request),
    };
    const read = await this.body(request, response);
    if (!read.ok) return;
    const body = read.value;
    // A batch is bounded in messages (docs/hostile-input.md §13): the SDK's own bound is 100.
    if (Array.isArray(body) && body.length > this.config.mcp.maxBatch) {
      rpcError(
        response,
        400,
        RPC.invalidRequest,
        `Invalid Request: a batch may hold at most ${this.config.mcp.maxBatch} messages (APP_MCP__MAX_BATCH); send ${body.length} as several requests`,
      );
      return;
    }
    // Each message of a batch counts against the rate limit; the request itself was counted once (docs/hostile-input.md §12).
    if (this.rateLimit && Array.isArray(body) && body.length > 1 && !(await this.rateLimit.take(request, body.length - 1))) {
      observationOf(response)?.refuse('TOO_MANY_REQUESTS');
      rpcError(response, 429, RPC.serverError, `Too Many Requests: ${this.rateLimit.message}`);
      return;
    }
    await this.answer(request, response, body, caller);
  }

  /**
   * Answers the JSON-RPC `body` of `request` for `caller` with an SDK server and transport of its
   * own (no session id: the transport checks none and gives none), closed once the response is.
   */
  private async answer(request: Request, response: Response, body: unknown, caller: McpCaller): Promise<void> {
    const server = this.server(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Faults of the client (a wrong Accept header, a bad message) are answered to it; they are not the server's.
    transport.onerror = (error) => this.logger.debug({ err: error }, 'MCP transport refused a request');
    response.on('close', () => {
      server.close().catch((error: unknown) => this.logger.warn({ err: error }, "an MCP request's server failed to close"));
    });
    await server.connect(transport);
    await transport.handleRequest(request as IncomingMessage, response, body);
  }

  /**
   * The URL of the host as `request` reached it — its scheme (`X-Forwarded-Proto` through trusted
   * proxies) and `Host` (`X-Forwarded-Host` likewise), then {@link path}: what a client dialled, which
   * RFC 9728 §3.3 asks the metadata's `resource` to be. Undefined when the `Host` is missing or is not
   * a host and port alone ({@link HOST}).
   */
  private resourceUrl(request: Request): URL | undefined {
    // Typed as always present; a request without a `Host` (HTTP/1.0) has none.
    const host = request.host as string | undefined;
    // A name or an address, and a port: nothing a URL would carry further (a path, a user, a quote).
    if (host === undefined || !HOST.test(host) || (request.protocol !== 'http' && request.protocol !== 'https')) return undefined;
    try {
      return new URL(this.path, `${request.protocol}://${host}`);
    } catch {
      return undefined;
    }
  }

  /**
   * The protected-resource metadata (RFC 9728), for `GET` (and `HEAD`) from anyone, any origin: the
   * host's URL as `resource`, the configured authorization server when there is one, and bearer
   * tokens in the `Authorization` header only. Any other method is 405; a request without a usable
   * `Host` is 400.
   */
  private serveMetadata(request: Request, response: Response): void {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      response.status(405).json({ error: 'method_not_allowed', error_description: `${this.metadataPath} answers GET` });
      return;
    }
    const resource = this.resourceUrl(request);
    if (!resource) {
      response.status(400).json({ error: 'invalid_request', error_description: 'the request names no host the metadata could describe' });
      return;
    }
    const metadata: OAuthProtectedResourceMetadata = {
      resource: resource.href,
      ...(this.authorizationServers.length > 0 ? { authorization_servers: [...this.authorizationServers] } : {}),
      bearer_methods_supported: ['header'],
      resource_name: this.definition.name,
    };
    // Public, and read by browser-based clients from other origins (the SDK's own metadata handler allows any).
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.status(200).json(metadata);
  }

  /**
   * Whether a request from the browser origin `origin`, received on local port `port`, is served
   * (docs/hostile-input.md §7): an origin APP_HTTP__CORS_ORIGINS or APP_MCP__ORIGINS lists by name,
   * or the server's own on this machine — `http://localhost:<port>`, `http://127.0.0.1:<port>`,
   * `http://[::1]:<port>`. Never by the request's own `Host`: a page whose name an attacker re-points
   * at the server (DNS rebinding) sends a matching one. Never an opaque origin (`null`, which a
   * `file://` page, a sandboxed frame or a `data:` URL sends): it names no site anyone could list.
   */
  private originAllowed(origin: string, port: number | undefined): boolean {
    let normalised: string;
    try {
      normalised = new URL(origin).origin;
    } catch {
      return false;
    }
    if (normalised === OPAQUE_ORIGIN) return false;
    if (this.listedOrigins.has(normalised)) return true;
    return port !== undefined && ['localhost', '127.0.0.1', '[::1]'].some((host) => normalised === `http://${host}:${String(port)}`);
  }

  /**
   * The JSON body of a POST: 415 unless it says JSON in UTF-8, 413 past `APP_HTTP__BODY_LIMIT`, 400 (parse
   * error) unless it parses, each a JSON-RPC error answered here.
   */
  private async body(request: Request, response: Response): Promise<{ ok: true; value: unknown } | { ok: false }> {
    // JSON in UTF-8, as every JSON route takes it (runtime/http/media-type.ts).
    const json = Boolean(request.is('application/json'));
    const contentType = request.get('content-type');
    if (!json || !namesUtf8OrNoCharset(contentType)) {
      rpcError(response, 415, RPC.serverError, `Unsupported Media Type: ${unsupportedBodyDetail('JSON-RPC messages', contentType, json)}`);
      return { ok: false };
    }
    try {
      await this.readBody(request, response);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      if (status === 413)
        rpcError(response, 413, RPC.serverError, `Payload Too Large: a request body may be at most ${this.config.http.bodyLimit}`);
      else if (typeof status === 'number' && status >= 400 && status < 500)
        rpcError(response, status, RPC.serverError, 'Bad Request: the body could not be read as text');
      else throw error;
      return { ok: false };
    }
    try {
      return { ok: true, value: JSON.parse(typeof request.body === 'string' ? request.body : '') as unknown };
    } catch {
      rpcError(response, 400, RPC.parseError, 'Parse error: Invalid JSON');
      return { ok: false };
    }
  }

  /**
   * An SDK server for one request of `caller`, answering `tools/list` (what the caller may run) and
   * `tools/call`: the tools and their descriptions are the process's, only the caller is bound here.
   */
  private server(caller: McpCaller): McpServer {
    const server = new McpServer(this.serverInfo, this.serverOptions);
    server.server.onerror = (error) => this.logger.debug({ err: error }, 'MCP protocol error');
    server.server.setRequestHandler(ANY_TOOLS_LIST, (raw) => {
      checkedRequest(ListToolsRequestSchema, raw);
      return { tools: this.listed.filter(({ tool }) => canSee(tool, caller)).map(({ described }) => described) };
    });
    server.server.setRequestHandler(ANY_TOOLS_CALL, async (raw) => {
      const request = checkedRequest(CallToolRequestSchema, raw);
      const tool = this.tools.get(request.params.name);
      if (!tool)
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}; tools/list names the tools you may call`);
      return callTool(tool, request.params.arguments ?? {}, caller, this.logger);
    });
    return server;
  }
}

/**
 * `tools/list` and `tools/call` as the SDK routes them, their params not yet checked: the SDK's protocol
 * parses a request with its handler's schema before the handler runs and answers a mismatch as an
 * internal error (-32603), so the handlers parse the params themselves ({@link checkedRequest}). (The
 * SDK's server checks `tools/call` params itself, as Invalid params, before our handler.)
 */
const ANY_TOOLS_LIST = z.looseObject({ method: z.literal('tools/list'), params: z.unknown().optional() });
const ANY_TOOLS_CALL = z.looseObject({ method: z.literal('tools/call'), params: z.unknown().optional() });

/**
 * `raw` parsed with the SDK's `schema` of its method; params that do not match are the caller's
 * fault: throws an McpError `InvalidParams` (-32602, docs/hostile-input.md §7) naming each issue's path.
 */
function checkedRequest<Parsed>(schema: { safeParse(value: unknown): z.ZodSafeParseResult<Parsed> }, raw: { method: string }): Parsed {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
  throw new McpError(ErrorCode.InvalidParams, `Invalid ${raw.method} request: ${issues.join('; ')}`);
}

/** What `new URL(…).origin` is for an opaque origin (`null`, `file:`, `data:`): no site. */
const OPAQUE_ORIGIN = 'null';

/**
 * The browser origins the MCP host serves besides the server's own (docs/hostile-input.md §7): those
 * APP_HTTP__CORS_ORIGINS and APP_MCP__ORIGINS name, normalised. `*` in APP_HTTP__CORS_ORIGINS is
 * not one: it lets a browser page on any origin read REST and GraphQL answers its caller's token
 * already allows, but the MCP host's origin check is its DNS-rebinding protection, which `*` would
 * turn off for every page on the web. An entry with an opaque origin (`file:///`) is no origin either.
 */
function listedOrigins(config: AppConfig): ReadonlySet<string> {
  const named = [...config.http.corsOrigins.filter((entry) => entry !== '*'), ...config.mcp.origins];
  return new Set(named.map((entry) => new URL(entry).origin).filter((origin) => origin !== OPAQUE_ORIGIN));
}

/**
 * The authorization servers the metadata names: the JWT issuer the server requires
 * (`APP_AUTH__ISSUER`) when it is an `https` URL — an OAuth authorization server's issuer
 * identifier, where its own metadata is found. None otherwise: tokens are then signed with the shared
 * secret or by an issuer the configuration does not name, and no authorization server would answer
 * a client sent to it (docs/decisions.md, "MCP protected-resource metadata").
 */
function authorizationServers(config: AppConfig): string[] {
  const issuer = config.auth.issuer;
  if (issuer === undefined) return [];
  try {
    return new URL(issuer).protocol === 'https:' ? [issuer] : [];
  } catch {
    return [];
  }
}

/** Answers a JSON-RPC error (id null: the request never reached the SDK) with an HTTP status. */
function rpcError(response: Response, status: number, code: number, message: string): void {
  if (response.headersSent) return;
  response.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
