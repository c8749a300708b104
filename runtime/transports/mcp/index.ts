/**
 * The Model Context Protocol host (docs/behaviour.md §4.6): the operations marked `@McpTool()` as
 * tools, over Streamable HTTP (`@modelcontextprotocol/sdk`, protocol revision 2025-11-25 and the
 * ones before it the SDK negotiates) at `/mcp` or the `@McpHost({ path })`. Self-mounted, so
 * neutral to version selection (docs/behaviour.md §4.4, §9.3.3).
 *
 * Per request, before the SDK sees it: the `Origin` is one the server serves (DNS rebinding), a
 * bearer token that is present verifies (else 401 with `WWW-Authenticate` naming the host's
 * protected-resource metadata, as the MCP authorization spec asks), the body is JSON within
 * `APP_HTTP__BODY_LIMIT`, and the request names a session its caller opened (else the protocol's 400 or 404). Every refusal is a JSON-RPC
 * error body with the status the Streamable HTTP transport gives it (docs/hostile-input.md §7).
 * Then the session's SDK transport answers it, with plain JSON responses (no server-sent events:
 * the host sends nothing unasked, so `GET` is 405).
 *
 * The protected-resource metadata (RFC 9728) is served at `/.well-known/oauth-protected-resource`
 * followed by the host's path, to anyone, neutral to versions (docs/behaviour.md §4.6).
 *
 * Tools (./tools.ts) run in the caller's ambient context, under their posture, with the request's
 * own token: a session never stands in for authentication, and it is bound to the caller who
 * opened it. Sessions are bounded (./sessions.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import express, { type Express, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { RateLimit } from '../../http/rate-limit.js';
import { stateOf } from '../../http/request-state.js';
import { observationOf } from '../../observability/observation.js';
import type { AppConfig } from '../../server/config.js';
import { defineTransport, type Transport, type TransportFactory } from '../index.js';
import { SessionTable, type TableSession } from './sessions.js';
import { callTool, canSee, describeTool, type McpCaller, type McpHostDefinition } from './tools.js';

export type { McpHostDefinition, McpToolDefinition, McpToolOutput, McpToolParameter } from './tools.js';

/** The header naming a session (Streamable HTTP). */
const SESSION_HEADER = 'mcp-session-id';

/** A `Host` the metadata may name: a DNS name or IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** JSON-RPC error codes the transport answers with before a message reaches a session. */
const RPC = { serverError: -32000, sessionNotFound: -32001, invalidRequest: -32600, parseError: -32700 } as const;

/** One open session: the SDK's transport and server, and who opened it. */
interface Session extends TableSession {
  readonly transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

/**
 * The MCP transport of `createHost(container)` (the generated `mcp.ts`): its path, neutral to
 * version selection, and the sessions it keeps, which it closes at shutdown.
 */
export function mcpHost<Container>(createHost: (container: Container) => McpHostDefinition): TransportFactory<Container> {
  return defineTransport('mcp', ({ config, logger, container, rateLimit }): Transport => {
    const host = new McpHost(createHost(container), config, logger.child({ transport: 'mcp' }), rateLimit);
    return {
      name: 'mcp',
      // A browser client reads its session id, and the challenge naming the metadata on a 401 (docs/behaviour.md §4.6).
      http: {
        placement: 'neutral',
        paths: [host.path, host.metadataPath],
        mount: (app) => host.mount(app),
        exposedHeaders: ['Mcp-Session-Id', 'WWW-Authenticate'],
      },
      entrypoints: [{ name: 'mcp', path: host.path, description: 'MCP host (Streamable HTTP)' }],
      close: () => host.close(),
    };
  });
}

/** The host: sessions, and the HTTP handling in front of each session's SDK transport. */
class McpHost {
  readonly path: string;
  /** Where the protected-resource metadata is served: the well-known prefix, then {@link path} (RFC 9728 §3.1). */
  readonly metadataPath: string;
  /** The authorization server tokens come from, when the configuration names one (see {@link serveMetadata}). */
  private readonly authorizationServers: readonly string[];
  private readonly sessions: SessionTable<Session>;
  /** The caller of each request, by the `AuthInfo` handed to the SDK with it (the SDK passes it on to the handlers). */
  private readonly callers = new WeakMap<AuthInfo, McpCaller>();
  private readonly tools: ReadonlyMap<string, McpHostDefinition['tools'][number]>;
  private readonly listed: readonly {
    readonly tool: McpHostDefinition['tools'][number];
    readonly described: ReturnType<typeof describeTool>;
  }[];
  private readonly readBody: (request: Request, response: Response) => Promise<void>;

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
    this.readBody = promisify(express.text({ type: () => true, limit: config.http.bodyLimit }));
    const limits = {
      signedIn: config.mcp.maxSessions,
      anonymous: config.mcp.maxAnonymousSessions,
      perCaller: config.mcp.maxSessionsPerCaller,
    };
    this.sessions = new SessionTable<Session>(limits, config.mcp.sessionTimeout, (id, reason, session) => {
      if (reason === 'capacity') {
        const [setting, max] = session.anonymous
          ? ['APP_MCP__MAX_ANONYMOUS_SESSIONS', limits.anonymous]
          : ['APP_MCP__MAX_SESSIONS', limits.signedIn];
        this.logger.warn(
          { session: id, max },
          `closed the least recently used ${session.anonymous ? 'anonymous' : 'signed-in'} MCP session: ${setting} reached`,
        );
      } else if (reason === 'caller') {
        this.logger.info(
          { session: id, max: limits.perCaller },
          "closed a caller's least recently used MCP session: APP_MCP__MAX_SESSIONS_PER_CALLER reached",
        );
      } else {
        this.logger.debug({ session: id }, 'closed an idle MCP session');
      }
    });
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
  }

  async close(): Promise<void> {
    await this.sessions.closeAll();
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
    if (request.method !== 'POST' && request.method !== 'DELETE') {
      // GET would open a server-sent event stream for messages the host sends unasked: it sends none.
      response.setHeader('Allow', 'POST, DELETE');
      rpcError(
        response,
        405,
        RPC.serverError,
        `Method not allowed: ${this.path} answers POST (JSON-RPC messages) and DELETE (ending a session)`,
      );
      return;
    }
    const caller: McpCaller = {
      request: { ...state.request, transport: 'mcp' },
      authentication: state.authentication,
      answer: { remaining: this.config.mcp.maxResponseBytes, queue: Promise.resolve() },
    };
    const principal = caller.request.principal;
    const owner = principal ? `${principal.sub}\u0000${principal.org_id}` : 'anonymous';
    // Anonymous callers are told apart by address for their quota; any may use an anonymous session.
    const quota = principal ? owner : `anonymous\u0000${request.socket.remoteAddress ?? ''}`;
    let body: unknown;
    if (request.method === 'POST') {
      const read = await this.body(request, response);
      if (!read.ok) return;
      body = read.value;
    }
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
    const sessionId = request.headers[SESSION_HEADER];
    let session: Session | undefined;
    if (
      sessionId === undefined &&
      request.method === 'POST' &&
      (Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body))
    ) {
      session = await this.open(owner, quota, principal === undefined);
    } else if (typeof sessionId !== 'string') {
      rpcError(
        response,
        400,
        RPC.serverError,
        'Bad Request: send the Mcp-Session-Id header the initialize response gave, or initialize a session',
      );
      return;
    } else {
      session = this.sessions.use(sessionId, owner);
      if (!session) {
        rpcError(
          response,
          404,
          RPC.sessionNotFound,
          'Session not found: it ended, expired or was never opened by this caller; initialize a new one',
        );
        return;
      }
    }
    const authInfo: AuthInfo = { token: '', clientId: principal?.sub ?? 'anonymous', scopes: [] };
    this.callers.set(authInfo, caller);
    (request as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
    await session.transport.handleRequest(request, response, body);
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
   * (docs/hostile-input.md §7): an origin APP_HTTP__CORS_ORIGINS or APP_MCP__ORIGINS lists (or any,
   * when CORS allows `*`), or the server's own on this machine — `http://localhost:<port>`,
   * `http://127.0.0.1:<port>`, `http://[::1]:<port>`. Never by the request's own `Host`: a page
   * whose name an attacker re-points at the server (DNS rebinding) sends a matching one.
   */
  private originAllowed(origin: string, port: number | undefined): boolean {
    const allowed = this.config.http.corsOrigins;
    if (allowed.includes('*')) return true;
    let normalised: string;
    try {
      normalised = new URL(origin).origin;
    } catch {
      return false;
    }
    const listed = [...allowed, ...this.config.mcp.origins].map((entry) => new URL(entry).origin);
    if (listed.includes(normalised)) return true;
    return port !== undefined && ['localhost', '127.0.0.1', '[::1]'].some((host) => normalised === `http://${host}:${String(port)}`);
  }

  /**
   * The JSON body of a POST: 415 unless it says JSON, 413 past `APP_HTTP__BODY_LIMIT`, 400 (parse
   * error) unless it parses, each a JSON-RPC error answered here.
   */
  private async body(request: Request, response: Response): Promise<{ ok: true; value: unknown } | { ok: false }> {
    if (!request.is('application/json')) {
      rpcError(
        response,
        415,
        RPC.serverError,
        `Unsupported Media Type: send JSON-RPC messages as application/json (got ${request.get('content-type') ?? 'no content type'})`,
      );
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
   * A new session for `owner`, counted against `quota` in the anonymous or the signed-in pool: an
   * SDK transport and server, kept once the SDK has initialized it.
   */
  private async open(owner: string, quota: string, anonymous: boolean): Promise<Session> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.sessions.add(id, session);
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    const server = this.server();
    const session: Session = {
      owner,
      quota,
      anonymous,
      transport,
      close: async () => {
        await server.close().catch((error: unknown) => this.logger.warn({ err: error }, 'an MCP session failed to close'));
      },
    };
    // Faults of the client (a wrong Accept header, a bad message) are answered to it; they are not the server's.
    transport.onerror = (error) => this.logger.debug({ err: error }, 'MCP transport refused a request');
    await server.connect(transport);
    return session;
  }

  /** An SDK server answering `tools/list` (what the caller may run) and `tools/call`. */
  private server(): McpServer {
    const server = new McpServer(
      { name: this.definition.name, version: '1' },
      {
        capabilities: { tools: { listChanged: false } },
        ...(this.definition.instructions !== undefined ? { instructions: this.definition.instructions } : {}),
      },
    );
    server.server.onerror = (error) => this.logger.debug({ err: error }, 'MCP protocol error');
    server.server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
      const caller = this.callerOf(extra.authInfo);
      return { tools: this.listed.filter(({ tool }) => canSee(tool, caller)).map(({ described }) => described) };
    });
    server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = this.tools.get(request.params.name);
      if (!tool)
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}; tools/list names the tools you may call`);
      return callTool(tool, request.params.arguments ?? {}, this.callerOf(extra.authInfo), this.logger);
    });
    return server;
  }

  /** The caller a request's `AuthInfo` stands for; anonymous when it is not one this host made (fail closed). */
  private callerOf(authInfo: AuthInfo | undefined): McpCaller {
    return (
      (authInfo && this.callers.get(authInfo)) ?? {
        request: { principal: undefined, ability: undefined, unscoped: false, transport: 'mcp' },
        authentication: { kind: 'anonymous' },
      }
    );
  }
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

/** Answers a JSON-RPC error (id null: the request never reached a session) with an HTTP status. */
function rpcError(response: Response, status: number, code: number, message: string): void {
  if (response.headersSent) return;
  response.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
