/**
 * The settings of the GraphQL transports and the engine they share, `APP_GRAPHQL__*`
 * (docs/behaviour.md §4.1, §4.5; docs/hostile-input.md §2, §3, §14, §16): the path both GraphQL
 * transports serve, the playground, introspection, the bounds of an operation, and what a
 * graphql-ws connection may hold. Collected into the configuration by runtime/transports/settings.ts.
 */
import { z } from 'zod';
import { booleanFlag, integer, settingsSection } from '../server/settings.js';

/** The `graphql` section (`APP_GRAPHQL__PATH`, `APP_GRAPHQL__MAX_DEPTH`, …). */
export const GRAPHQL_SETTINGS = settingsSection(
  'graphql',
  z.object({
    path: z
      .string()
      .regex(/^\/[A-Za-z0-9/_-]*$/, { message: 'expected a path such as /graphql' })
      .default('/graphql'),
    playground: booleanFlag.default(false),
    /**
     * Whether `__schema` and `__type` are answered and refusals suggest names ("Did you mean …?");
     * unset: on, but off when NODE_ENV is production (docs/hostile-input.md §10).
     */
    introspection: booleanFlag.optional(),
    emitSdl: booleanFlag.default(false),
    /**
     * Persisted documents (docs/behaviour.md §4.10): `off` (default) answers query texts only; `allow`
     * also answers the documents of the manifest `generate` wrote, by hash; `require` answers those only.
     */
    trustedDocuments: z.enum(['off', 'allow', 'require'], { message: 'expected off, allow or require' }).default('off'),
    maxDepth: integer(1, 1000).default(10),
    maxComplexity: integer(1, 100_000_000).default(10_000),
    /** Tokens one document may have, counted before it is parsed (docs/hostile-input.md §2). */
    maxTokens: integer(1, 1_000_000).default(2_000),
    /** Brackets (`{`, `(`, `[`) a document may have open at once, counted before it is parsed. */
    maxNesting: integer(2, 10_000).default(64),
    /** Operations one document may define. */
    maxOperations: integer(1, 10_000).default(20),
    /** Directives on one location (a field, fragment, operation or variable). */
    maxDirectives: integer(1, 1_000).default(10),
    /** Aliases one document may use once its fragments are expanded. */
    maxAliases: integer(0, 1_000_000).default(30),
    /** Field selections one document may make once its fragments are expanded. */
    maxFields: integer(1, 10_000_000).default(1_000),
    /** Rows one operation (or one subscription event) may materialise: the last line behind the complexity score. */
    maxRows: integer(1, 100_000_000).default(10_000),
    /** Bytes of JSON one operation's answer (or one subscription event's) may write, counted as its rows are used and as it is written (docs/hostile-input.md §14). */
    maxResponseBytes: integer(1_024, 1_073_741_824).default(8 * 1024 * 1024),
    /** Milliseconds a WebSocket client has to send `connection_init` before it is closed (4408). */
    connectionInitTimeout: integer(100, 600_000).default(10_000),
    /** Operations (subscriptions, queries, mutations) one graphql-ws connection may run at once. */
    maxSubscriptions: integer(1, 100_000).default(100),
    /** Subscriptions one caller may run at once across all its connections (docs/hostile-input.md §16). */
    maxSubscriptionsPerCaller: integer(1, 1_000_000).default(200),
    /** Events a subscription may have waiting for a slow client before its connection is closed (1013). */
    subscriptionQueue: integer(1, 1_000_000).default(1_000),
    /**
     * Milliseconds events are kept in the database for a process that lost its connection to catch
     * up on (PostgreSQL); a process cut off longer tells its subscribers `EVENTS_MISSED`
     * (docs/behaviour.md §4.1, docs/decisions.md §4).
     */
    eventReplayWindow: integer(1_000, 86_400_000).default(300_000),
  }),
);
