/**
 * Configuration from `APP_`-prefixed environment variables with `__` nesting (docs/behaviour.md §4.5,
 * docs/decisions.md §4): `APP_HTTP__VERSION_HEADER` is `http.versionHeader`. Validated at boot with
 * zod; every bad value is reported at once with the variable's name, and unknown `APP_`
 * variables are reported with a "did you mean" suggestion. The sections here are the server's own
 * (database, authentication, HTTP, logs, metrics, traces); each transport declares its own beside
 * it, collected by runtime/transports/settings.ts, and the schedules transport checks its schedule
 * overrides (`APP_CRON__<TASK>`, runtime/transports/schedules/settings.ts).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { embeddedDatabaseUrl, findDialect, SUPPORTED_URL_FORMS } from '../dialects/index.js';
import { VERSION_TOKEN } from '../http/version-token.js';
import { CRON_PREFIX, cronOverrides } from '../transports/schedules/settings.js';
import { TRANSPORT_SETTINGS } from '../transports/settings.js';
import { booleanFlag, commaList, type ConfigProblem, integer, ratio } from './settings.js';
import { didYouMean } from './suggest.js';

/**
 * The secret of a process started without APP_AUTH__SECRET outside production: random, made once
 * per process, so no token minted anywhere else verifies (docs/hostile-input.md §10). The command
 * line's development commands set APP_AUTH__SECRET to a secret kept beside the development database
 * instead (generator/dev-secret.ts), so the tokens they print work.
 */
const PROCESS_SECRET = randomBytes(32).toString('hex');

/** The validated configuration of a server process. */
const configSchema = z.object({
  database: z.object({
    /** `file:<path>` (SQLite, default) or `postgres://…` (PostgreSQL): a scheme some dialect takes (runtime/dialects/). */
    url: z
      .string()
      .default(embeddedDatabaseUrl('./data/app.db'))
      .refine((url) => findDialect(url) !== undefined, { message: `expected ${SUPPORTED_URL_FORMS}` }),
    /**
     * The database itself, not a transaction-mode pooler (docs/guide/deployment.md "A connection
     * pooler"): what needs a session of its own connects here — LISTEN/NOTIFY, job queues and
     * schedules (session advisory locks), migrations. Unset: `url`. Set to another address than
     * `url`, it says `url` is a pooler, and the SQL runner sends no named statements there.
     */
    directUrl: z
      .string()
      .refine((url) => findDialect(url) !== undefined, { message: `expected ${SUPPORTED_URL_FORMS}` })
      .optional(),
  }),
  auth: z.object({
    secret: z.string().min(32, { message: 'expected at least 32 characters' }).default(PROCESS_SECRET),
    jwksUrl: z.url({ message: 'expected a URL' }).optional(),
    issuer: z.string().min(1).optional(),
    audience: z.string().min(1).optional(),
  }),
  http: z.object({
    port: integer(0, 65535).default(3000),
    host: z.string().min(1).default('0.0.0.0'),
    /** Global path prefix, for example `/rest` (stacks: prefix, version, path). */
    prefix: z
      .string()
      .default('')
      .transform((prefix) => (prefix === '' || prefix === '/' ? '' : `/${prefix.replace(/^\/+|\/+$/g, '')}`)),
    versioning: z.enum(['uri', 'header', 'media_type'], { message: 'expected uri, header or media_type' }).default('uri'),
    versionHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, { message: 'expected a header name' })
      .default('X-API-Version'),
    defaultVersion: z
      .string()
      .regex(VERSION_TOKEN, { message: 'expected a version token (alphanumerics, ".", "-", at most 32 bytes)' })
      .optional(),
    workers: integer(1, 256).default(1),
    bodyLimit: z
      .string()
      .regex(/^\d+(b|kb|mb)$/i, { message: 'expected a size such as 100kb or 1mb' })
      .default('100kb'),
    /** Milliseconds in-flight requests get to finish on SIGTERM. */
    shutdownTimeout: integer(0, 600_000).default(10_000),
    /**
     * Milliseconds after SIGTERM during which `/health` answers 503 while everything else is still
     * served, before the listener closes: the time a load balancer's health check needs to stop
     * sending new requests (docs/guide/deployment.md "Rolling deploys").
     */
    drainDelay: integer(0, 600_000).default(0),
    /** Milliseconds a request may take to arrive in full (headers and body; its headers at most 60 000) before it gets 408. */
    requestTimeout: integer(1_000, 600_000).default(30_000),
    /**
     * Milliseconds a kept-alive connection may stay idle after an answer before the server closes it.
     * Behind a load balancer, longer than it keeps an idle connection to a server
     * (docs/guide/deployment.md "Several hosts behind a load balancer").
     */
    keepAliveTimeout: integer(1_000, 600_000).default(5_000),
    /** Milliseconds a client has to take an answer the server could not send at once, before its connection is closed (docs/hostile-input.md §15). */
    writeTimeout: integer(1_000, 600_000).default(30_000),
    /** WebSockets one client address may hold open (docs/hostile-input.md §16). */
    maxSocketsPerAddress: integer(1, 1_000_000).default(64),
    /** WebSockets one caller (a principal) may hold open (docs/hostile-input.md §16). */
    maxSocketsPerCaller: integer(1, 1_000_000).default(16),
    /**
     * Bytes of JSON one REST answer or gateway reply may write, counted as written (escaped, in
     * UTF-8); past them it is refused with `RESPONSE_TOO_LARGE` before any of it is built (docs/hostile-input.md §14).
     */
    maxResponseBytes: integer(1_024, 1_073_741_824).default(8 * 1024 * 1024),
    /**
     * The fraction of an address's places (its WebSockets, its HTTP connections being answered)
     * anonymous callers may hold together, rounded down; the rest stay for signed-in callers
     * (docs/hostile-input.md §15, §16).
     */
    anonymousShare: ratio.default(0.25),
    /** HTTP connections one client address may have being answered at once (docs/hostile-input.md §15). */
    maxConnectionsPerAddress: integer(1, 1_000_000).default(64),
    /** HTTP connections one caller (a principal) may have being answered at once (docs/hostile-input.md §15). */
    maxConnectionsPerCaller: integer(1, 1_000_000).default(32),
    /** Bytes a WebSocket may have waiting for its client; past them it is closed with 1013 (docs/hostile-input.md §16). */
    socketBufferBytes: integer(1_024, 1_073_741_824).default(2 * 1024 * 1024),
    /** Origins allowed cross-origin (comma-separated, or `*`); empty: no CORS headers, same origin only. */
    corsOrigins: commaList.pipe(
      z.array(z.union([z.literal('*'), z.url({ message: 'expected origins such as https://app.example.com, comma-separated, or *' })])),
    ),
    /** Requests per client address per window; 0 turns rate limiting off (the default). */
    rateLimit: integer(0, 1_000_000).default(0),
    /** The rate-limit window in milliseconds. */
    rateLimitWindow: integer(1_000, 86_400_000).default(60_000),
    /** Behind a proxy: trust X-Forwarded-For from this many hops (rate limits key on the client's address). */
    trustProxy: integer(0, 10).default(0),
    /**
     * The prefix length an IPv6 client is counted by in every per-address count — the rate limit,
     * WebSockets and HTTP connections per address (docs/hostile-input.md §12); 128 counts each address alone.
     */
    ipv6Prefix: integer(1, 128).default(64),
  }),
  ...TRANSPORT_SETTINGS,
  log: z.object({
    level: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'expected fatal, error, warn, info, debug, trace or silent',
      })
      .default('info'),
    format: z.enum(['json', 'pretty'], { message: 'expected json or pretty' }).optional(),
    /** The level of the one access line per request (docs/behaviour.md §12.1), or `off`. */
    access: z
      .enum(['off', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'], {
        message: 'expected off, fatal, error, warn, info, debug or trace',
      })
      .default('info'),
    /** The share of access lines written (server errors are always written). */
    accessSample: ratio.default(1),
  }),
  /** Prometheus metrics (docs/behaviour.md §12.2). */
  metrics: z.object({
    enabled: booleanFlag.default(false),
    /** The port of the separate metrics listener (0: any free port). */
    port: integer(0, 65535).default(9464),
    /** Where the separate metrics listener binds; default `APP_HTTP__HOST`. */
    host: z.string().min(1).optional(),
    /** When set, `/metrics` is served on the main port to `Authorization: Bearer <token>` only, and no separate port is opened. */
    token: z.string().min(16, { message: 'expected at least 16 characters' }).optional(),
  }),
  /** OpenTelemetry traces (docs/behaviour.md §12.3): off unless an endpoint is set. */
  otel: z.object({
    /** The OTLP/HTTP collector (`http://collector:4318`); spans go to `<endpoint>/v1/traces`. */
    endpoint: z.url({ protocol: /^https?$/, message: 'expected an http(s) URL such as http://localhost:4318' }).optional(),
    /** `service.name` of every span. */
    serviceName: z.string().min(1).default('resource-service'),
    /** The share of new traces recorded (a request carrying a sampled `traceparent` follows its caller). */
    sample: ratio.default(1),
    /**
     * Milliseconds one export of spans may take, its retries included (OpenTelemetry's 10 s by
     * default); a shutdown waits at most this long for the last spans.
     */
    exportTimeout: integer(100, 600_000).default(10_000),
  }),
});

/**
 * The configuration of a server process (after defaults). `cron` holds the schedule overrides of
 * scheduled tasks (docs/behaviour.md §10.2), by setting name (`APP_CRON__WRITE_DIGESTS`): `off`, or a
 * cron expression croner accepts.
 */
export type AppConfig = Omit<z.infer<typeof configSchema>, 'graphql' | 'database'> & {
  readonly database: { readonly url: string; readonly directUrl: string };
  readonly graphql: z.infer<typeof configSchema>['graphql'] & { readonly introspection: boolean };
  readonly cron: Readonly<Record<string, string>>;
};

/** What {@link loadConfig} knows of the application beside the fixed settings. */
export interface ConfigOptions {
  /**
   * The setting of each scheduled task (`APP_CRON__WRITE_DIGESTS`), from `generated/app.ts`. When
   * given, every `APP_CRON__*` variable must name one; when absent (commands that start no server),
   * the overrides are not read.
   */
  readonly cronSettings?: readonly string[];
}

/** Thrown by {@link loadConfig} when any variable is invalid; `problems` lists them all. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  ${problem.variable}: ${problem.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const camel = (snake: string): string => snake.toLowerCase().replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
const snake = (camelName: string): string => camelName.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();

/** Every variable the schema knows, as `APP_SECTION__KEY`. */
function knownVariables(): string[] {
  const names: string[] = [];
  for (const [section, shape] of Object.entries(configSchema.shape)) {
    for (const key of Object.keys(shape.shape)) names.push(`APP_${section.toUpperCase()}__${snake(key)}`);
  }
  return names.sort();
}

/**
 * Reads and validates the configuration from `env` (default `process.env`).
 * Returns the config and warnings (unknown variables, development secret in use). With
 * `options.cronSettings`, also the schedule overrides (`config.cron`; docs/behaviour.md §10.2).
 * Throws {@link ConfigError} listing every invalid variable, an `APP_CRON__*` naming no task among them.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: ConfigOptions = {}): { config: AppConfig; warnings: string[] } {
  const known = knownVariables();
  const raw: Record<string, Record<string, string>> = {};
  const warnings: string[] = [];
  // Only a caller that knows the application's tasks (the server) reads the overrides; the CLI ignores them.
  const { cron, problems: cronProblems } = options.cronSettings ? cronOverrides(env, options.cronSettings) : { cron: {}, problems: [] };
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('APP_') || name.startsWith(CRON_PREFIX) || value === undefined) continue;
    const match = /^APP_([A-Z0-9]+)__([A-Z0-9_]+)$/.exec(name);
    const section = match?.[1]?.toLowerCase();
    const key = match?.[2] ? camel(match[2]) : undefined;
    if (!match || !section || !key || !known.includes(name)) {
      warnings.push(`unknown variable ${name}${didYouMean(name, known)}`);
      continue;
    }
    (raw[section] ??= {})[key] = value;
  }
  for (const section of Object.keys(configSchema.shape)) raw[section] ??= {};
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success || cronProblems.length > 0) {
    throw new ConfigError([
      ...(parsed.error?.issues ?? []).map((issue) => {
        const [section, key] = issue.path.map(String);
        const variable = section && key ? `APP_${section.toUpperCase()}__${snake(key)}` : 'APP_*';
        const value = section && key ? raw[section]?.[key] : undefined;
        // A database URL's password is not echoed into logs.
        const given = section === 'database' ? value?.replace(/\/\/[^@/]*@/, '//…@') : value;
        return { variable, message: `${issue.message}${given !== undefined ? ` (got ${JSON.stringify(given)})` : ''}` };
      }),
      ...cronProblems,
    ]);
  }
  const database = { url: parsed.data.database.url, directUrl: parsed.data.database.directUrl ?? parsed.data.database.url };
  const directProblem = directUrlProblem(database);
  if (directProblem) throw new ConfigError([{ variable: 'APP_DATABASE__DIRECT_URL', message: directProblem }]);
  if (parsed.data.auth.secret === PROCESS_SECRET && !parsed.data.auth.jwksUrl) {
    if (env.NODE_ENV === 'production') {
      throw new ConfigError([{ variable: 'APP_AUTH__SECRET', message: 'must be set in production (at least 32 characters)' }]);
    }
    warnings.push(
      'APP_AUTH__SECRET is not set: tokens are checked against a random secret of this process, so none minted elsewhere verifies; set APP_AUTH__SECRET (the development commands use the one kept beside the development database)',
    );
  }
  // Introspection follows NODE_ENV unless set: a production server does not describe itself to strangers.
  const graphql = { ...parsed.data.graphql, introspection: parsed.data.graphql.introspection ?? env.NODE_ENV !== 'production' };
  return { config: { ...parsed.data, database, graphql, cron }, warnings };
}

/**
 * Why `directUrl` cannot stand beside `url` (docs/guide/deployment.md "A connection pooler"): it
 * must name a database of the same kind, and a database kept in a file (SQLite) has no pooler in
 * front of it, so a direct URL other than its own is refused rather than silently ignored.
 * Undefined when the pair is fine.
 */
function directUrlProblem({ url, directUrl }: { url: string; directUrl: string }): string | undefined {
  if (directUrl === url) return undefined;
  const dialect = findDialect(url);
  const direct = findDialect(directUrl);
  if (!dialect || !direct) return undefined;
  if (dialect.databaseFiles !== undefined)
    return `${dialect.title} (APP_DATABASE__URL=${dialect.urlForm}) has no connection pooler in front of it; unset APP_DATABASE__DIRECT_URL`;
  if (direct !== dialect)
    return `expected the same database as APP_DATABASE__URL, reached directly (${dialect.urlForm}), not ${direct.title} (${direct.urlForm})`;
  return undefined;
}
