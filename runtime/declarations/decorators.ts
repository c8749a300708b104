/**
 * The declaration vocabulary of `entities/` (docs/decisions.md §1, NestJS names).
 *
 * Every decorator here is read statically by the generator (`generator/parse/`) and is
 * inert at run time: it returns a decorator that does nothing. What a decorator means is
 * documented on it; the generator is the only place that acts on it, and it refuses
 * (with `file:line:col` and a fix) a declaration it cannot honour.
 */
import type { PipeTransform } from './pipes.js';

/** Any class, as a value (used in `() => Entity` thunks and `@Authorized(action, Entity)`). */
export type ClassRef = abstract new (...args: never[]) => unknown;

/** A pipe bound to an argument: a transform instance, or a transform class (instantiated once). */
export type PipeRef = PipeTransform | (new () => PipeTransform);

const inertClass: ClassDecorator = () => undefined;
const inertMember: MethodDecorator & PropertyDecorator = () => undefined;
const inertParameter: ParameterDecorator = () => undefined;
type MemberDecorator = MethodDecorator & PropertyDecorator;

// ---------------------------------------------------------------------------------------------
// Entities (docs/behaviour.md §2)
// ---------------------------------------------------------------------------------------------

/** Options of {@link Entity}. */
export interface EntityOptions {
  /**
   * Whether the entity appears on the wire (GraphQL type, REST bodies, OpenAPI schema).
   * Default `true`. A storage-only entity (`false`) may have a composite primary key.
   */
  exposed?: boolean;
}

/** Marks a class as a stored entity: one Prisma model, and (when exposed) one GraphQL type. */
export function Entity(_options: EntityOptions = {}): ClassDecorator {
  return inertClass;
}

/**
 * Marks the primary key. Keys are UUID v7 (time-ordered, so keyset order is creation order;
 * docs/decisions.md §2). Several `@PrimaryKey()` fields form a composite key, refused on an exposed
 * entity (docs/behaviour.md §2.6).
 */
export function PrimaryKey(): MemberDecorator {
  return inertMember;
}

/** Options of {@link Column}. */
export interface ColumnOptions {
  /** A default applied by the database layer: a literal, or `'now'` for the current time. */
  default?: string | number | boolean;
  /** Adds a unique constraint over this one column. */
  unique?: boolean;
  /** Default `true`: the column is part of the GraphQL type and REST bodies. */
  exposed?: boolean;
  /** A string column's greatest length, checked on a resource's inputs (docs/behaviour.md §4.7). */
  maxLength?: number;
  /** A string column's least length, checked on a resource's inputs (docs/behaviour.md §4.7). */
  minLength?: number;
  /** A number column's least value, checked on a resource's inputs (docs/behaviour.md §4.7). */
  min?: number;
  /** A number column's greatest value, checked on a resource's inputs (docs/behaviour.md §4.7). */
  max?: number;
  /** A regular expression (source text) a string column matches, checked on a resource's inputs (docs/behaviour.md §4.7). */
  pattern?: string;
  /** A string column's format, checked on a resource's inputs (docs/behaviour.md §4.7). */
  format?: 'email';
  /**
   * Marks the field deprecated, saying why (`'Use heading.'`): `@deprecated(reason:)` in the GraphQL
   * schema, `deprecated: true` in OpenAPI, `@deprecated` in the typed clients; once released, removing
   * the column is not a breaking change (docs/behaviour.md §2.7). A docstring's `@deprecated` tag says the same.
   */
  deprecationReason?: string;
}

/**
 * Marks a stored column. Its TypeScript type decides the storage and wire type:
 * `string` → String, `Int` (from the runtime) → Int, `number` → Float, `boolean` → Boolean,
 * `Date` → DateTime, a string-literal union type alias → an enum named after the alias;
 * `?` or `| null` makes it nullable.
 */
export function Column(_options: ColumnOptions = {}): MemberDecorator {
  return inertMember;
}

/** The operations a resource can generate (docs/behaviour.md §4.7). */
export type ResourceOperation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** Options of {@link Resource}. */
export interface ResourceOptions {
  /** The REST path of the collection, without the version: `'comments'` → `/v2/comments`. */
  path: string;
  /** The API version the routes are mounted under (docs/behaviour.md §9). */
  version?: string;
  /** The operations generated; default all five. */
  operations?: ResourceOperation[];
  /** Operations that skip authentication and authorization, each named explicitly (docs/behaviour.md §5). */
  public?: ResourceOperation[];
  /** How `list` answers: keyset pages (`'cursor'`, the default) or the whole scoped collection (`'none'`), as on routes (docs/behaviour.md §4.2). */
  pagination?: 'cursor' | 'none';
  /** The complexity of `list` in a GraphQL query, as `@Complexity` takes it (docs/behaviour.md §8): `'1 + childComplexity'`. */
  complexity?: string | number;
}

/**
 * Makes an entity a resource: its list, get, create, update and delete operations over REST and
 * GraphQL, each authorized with the action of its kind on the entity (docs/behaviour.md §4.7).
 */
export function Resource(_options: ResourceOptions): ClassDecorator {
  return inertClass;
}

/**
 * Lets a resource's list be filtered by equality on this column (docs/behaviour.md §4.7): a REST
 * query parameter and a GraphQL argument of the same name. A `(column, id)` index is emitted so the
 * keyset walk of a filtered list stays an index range.
 */
export function Filterable(): MemberDecorator {
  return inertMember;
}

/** A unique constraint over several columns of this entity, in order. */
export function Unique(..._columns: string[]): ClassDecorator {
  return inertClass;
}

/** Options shared by relation decorators. */
export interface RelationOptions {
  /** Whether the relation gets a GraphQL field (docs/behaviour.md §2.1). Default `false`. */
  exposed?: boolean;
  /**
   * Overrides the field's complexity score (docs/behaviour.md §8): a number, or an arithmetic expression
   * over `first` and `childComplexity`, for example `'first * childComplexity + 5'`.
   */
  complexity?: string | number;
  /** Marks the relation's field deprecated, saying why, as on a column (docs/behaviour.md §2.7). */
  deprecationReason?: string;
}

/** Options of {@link BelongsTo}. */
export interface BelongsToOptions extends RelationOptions {
  /** The column of this entity holding the parent's primary key, for example `'orgId'`. */
  column: string;
  /** Not accepted: `via` goes on the parent's `@HasMany` (docs/behaviour.md §2.6). Present only so `generate` can say so. */
  via?: never;
}

/** Options of {@link HasMany}. */
export interface HasManyOptions extends RelationOptions {
  /**
   * The child's column this relation follows. Required when the child has several keys to
   * this entity (docs/behaviour.md §2.6), not needed when it has exactly one.
   */
  via?: string;
}

/** Options of {@link ManyToMany}. */
export interface ManyToManyOptions extends RelationOptions {
  /** The join entity, each row of which links one row of this entity to one of the target: `() => IssueLabel`. */
  through: () => ClassRef;
  /**
   * The join entity's column holding this entity's key. Required when the join entity has several
   * keys to this entity (a join of an entity with itself), not needed with exactly one.
   */
  via?: string;
  /** The join entity's column holding the target's key; required, likewise, only when it has several. */
  targetVia?: string;
}

/**
 * belongs_to: this entity holds the parent's key in `options.column`. Exposed, it resolves
 * through a primary-key loader and is `null` when the caller may not read the parent (docs/behaviour.md §5.8).
 */
export function BelongsTo(_target: () => ClassRef, _options: BelongsToOptions): MemberDecorator {
  return inertMember;
}

/**
 * has_many: children whose key column points at this entity. Exposed, it becomes a connection
 * field (`edges`, `pageInfo`) paged per parent in one statement (docs/behaviour.md §2.4, §8).
 */
export function HasMany(_target: () => ClassRef, _options: HasManyOptions = {}): MemberDecorator {
  return inertMember;
}

/**
 * many_to_many: the target's rows linked to this row by the rows of a join entity (`through`),
 * each holding one key of each side (docs/behaviour.md §2.6). Exposed, it becomes a connection field
 * paged per parent in one statement, both the join rows and the target's read under the caller's
 * scope (docs/behaviour.md §5.8).
 */
export function ManyToMany(_target: () => ClassRef, _options: ManyToManyOptions): MemberDecorator {
  return inertMember;
}

// ---------------------------------------------------------------------------------------------
// Providers and modules
// ---------------------------------------------------------------------------------------------

/**
 * A provider constructed once at boot by the generated container. Its constructor parameters
 * are other providers (resolved by type at build time) or generated repositories.
 */
export function Injectable(): ClassDecorator {
  return inertClass;
}

/** The lifecycle of one API version (docs/behaviour.md §9: a deprecated version answers with headers saying so). */
export interface VersionPolicy {
  /** Deprecated: `true`, or the date it was deprecated (`'2026-01-31'`). Responses carry `Deprecation`. */
  deprecated?: true | string;
  /** When the version stops being served (`'2027-06-30'`); responses carry `Sunset`. */
  sunset?: string;
}

/** Options of {@link Module}. */
export interface ModuleOptions {
  /** Modules whose providers, resolvers and controllers this module brings in. */
  imports?: ClassRef[];
  /** Services, resolvers, guards and batch-context providers. */
  providers?: ClassRef[];
  /** HTTP controllers. */
  controllers?: ClassRef[];
  /** Root module only: the lifecycle of API versions, by version (`{ '1': { deprecated: true } }`). */
  versions?: Record<string, VersionPolicy>;
}

/**
 * Groups providers and controllers. The application is what is reachable from the module
 * named `AppModule` through `imports`; nothing else is mounted (docs/behaviour.md §1: no central list).
 */
export function Module(_options: ModuleOptions): ClassDecorator {
  return inertClass;
}

/**
 * Marks the class whose `for(principal)` method builds the CASL ability of a principal
 * (docs/decisions.md §3). Exactly one per application.
 */
export function Abilities(): ClassDecorator {
  return inertClass;
}

// ---------------------------------------------------------------------------------------------
// GraphQL transport (docs/behaviour.md §4.1)
// ---------------------------------------------------------------------------------------------

/** Options common to GraphQL operation decorators. */
export interface OperationOptions {
  /** The field name on the wire. Default: the method name in camelCase. */
  name?: string;
  /** Marks the field `@deprecated(reason:)`; the schema is unversioned (docs/behaviour.md §9.5). */
  deprecationReason?: string;
  /** Not accepted: the GraphQL schema is unversioned (docs/behaviour.md §9.5). Present only so `generate` can say so. */
  version?: never;
}

/** Options of {@link ResolveField}. */
export interface ResolveFieldOptions {
  /** The field name on the wire. Default: the method name in camelCase. */
  name?: string;
  /** Marks the field deprecated, saying why, as on a column (docs/behaviour.md §2.7). */
  deprecationReason?: string;
}

/** Options accepted by `@Resolver` (a resolver takes no `version`: docs/behaviour.md §9.5). */
export interface ResolverOptions {
  /** Not accepted: the GraphQL schema is unversioned. Present only so `generate` can say so. */
  version?: never;
}

/** A class of GraphQL operations and field resolvers, optionally for one entity type. */
export function Resolver(_entity?: () => ClassRef, _options: ResolverOptions = {}): ClassDecorator {
  return inertClass;
}

/** A query field. Arguments are the method's parameters; the type is inferred from its return type. */
export function Query(_options: OperationOptions = {}): MethodDecorator {
  return inertMember;
}

/** A mutation field. */
export function Mutation(_options: OperationOptions = {}): MethodDecorator {
  return inertMember;
}

/** Options of {@link Subscription}. */
export interface SubscriptionOptions extends OperationOptions {
  /** The event topic delivering items. Default: the field name. */
  topic?: string;
}

/**
 * A subscription field over graphql-ws. The method receives each published item and returns
 * it (or a transformed value); it is gated at subscribe time and every item is filtered by
 * the subscriber's ability and masked.
 */
export function Subscription(_options: SubscriptionOptions = {}): MethodDecorator {
  return inertMember;
}

/**
 * A computed field on the resolver's entity type: the method takes the parent object and
 * returns a value or a list (docs/behaviour.md §2.1), in place of an unexposed relation for example.
 */
export function ResolveField(_options: ResolveFieldOptions = {}): MethodDecorator {
  return inertMember;
}

/** Overrides a field's complexity score (docs/behaviour.md §8); the expression may name `first`. */
export function Complexity(_expression: string | number): MemberDecorator {
  return inertMember;
}

/**
 * Binds pipes (validation or transform) to one GraphQL argument. The schema still shows the
 * argument's plain type; a rejection is a `BAD_USER_INPUT` error and the body does not run.
 */
export function Args(..._pipes: PipeRef[]): ParameterDecorator {
  return inertParameter;
}

// ---------------------------------------------------------------------------------------------
// Access postures (docs/behaviour.md §1, §5)
// ---------------------------------------------------------------------------------------------

/** Posture: deliberately ungated. Reading the principal inside errors when none was seeded. */
export function Public(): MethodDecorator {
  return inertMember;
}

/**
 * Posture: the ability must allow `action` on `subject` before the body runs; the returned
 * value is masked to the fields the ability permits after it (docs/behaviour.md §5.5).
 */
export function Authorized(_action: string, _subject: ClassRef | string): MethodDecorator {
  return inertMember;
}

/** Binds guards to a resolver/controller class or one method (docs/behaviour.md §5.2). */
export function UseGuards(..._guards: ClassRef[]): ClassDecorator & MethodDecorator {
  return inertMember as ClassDecorator & MethodDecorator;
}

/** Binds pipes to every argument of one operation. */
export function UsePipes(..._pipes: PipeRef[]): MethodDecorator {
  return inertMember;
}

// ---------------------------------------------------------------------------------------------
// HTTP transport (docs/behaviour.md §4.2, §4.3, §9)
// ---------------------------------------------------------------------------------------------

/** Options of {@link Controller}. */
export interface ControllerOptions {
  /** The path every route of the controller is mounted under, for example `'posts'`. */
  path?: string;
  /** One version or several; the controller mounts all its routes under each (docs/behaviour.md §9.1). */
  version?: string | string[];
}

/** A class of HTTP routes. */
export function Controller(_options: string | ControllerOptions = {}): ClassDecorator {
  return inertClass;
}

/** Options of route decorators. */
export interface RouteOptions {
  /**
   * For a list route: `'cursor'` (default, keyset pages, docs/behaviour.md §8) or `'none'` (the whole
   * scoped collection, capped at `LIST_CAP`).
   */
  pagination?: 'cursor' | 'none';
}

/** `GET` route at `path` (relative to the controller path; `:name` segments are path parameters). */
export function Get(_path = '', _options: RouteOptions = {}): MethodDecorator {
  return inertMember;
}
/** `POST` route. */
export function Post(_path = '', _options: RouteOptions = {}): MethodDecorator {
  return inertMember;
}
/** `PUT` route. */
export function Put(_path = '', _options: RouteOptions = {}): MethodDecorator {
  return inertMember;
}
/** `PATCH` route. */
export function Patch(_path = '', _options: RouteOptions = {}): MethodDecorator {
  return inertMember;
}
/** `DELETE` route. */
export function Delete(_path = '', _options: RouteOptions = {}): MethodDecorator {
  return inertMember;
}

/**
 * Groups a controller's routes in the OpenAPI documents under these tags (as `@nestjs/swagger`'s
 * `@ApiTags` does). The controller's docstring, as callers read it (docs/guide/declaring.md
 * "Descriptions on the wire"), describes each tag. Without it a controller's tag is its path (`posts`; `root` for the
 * empty path), so controllers serving one path under different versions share a tag.
 */
export function ApiTags(_tag: string, ..._moreTags: string[]): ClassDecorator {
  return inertClass;
}

/** Options of {@link ApiOperation}. */
export interface ApiOperationOptions {
  /** The operation's one-line summary. Default: the first sentence of the method's docstring. */
  summary?: string;
  /**
   * The operation's description. Default: the rest of the method's docstring after its first
   * sentence, or all of it when `summary` is declared.
   */
  description?: string;
}

/**
 * What the OpenAPI documents say about a route (as `@nestjs/swagger`'s `@ApiOperation` does), in
 * place of what its docstring says.
 */
export function ApiOperation(_options: ApiOperationOptions): MethodDecorator {
  return inertMember;
}

/** Restricts a route to a subset of its controller's versions (docs/behaviour.md §9.1). */
export function Version(..._versions: string[]): MethodDecorator {
  return inertMember;
}

/** The parameter is the JSON request body, passed through the given pipes. */
export function Body(..._pipes: PipeRef[]): ParameterDecorator {
  return inertParameter;
}

/** The parameter is the path parameter of the same name, passed through the given pipes. */
export function Param(..._pipes: PipeRef[]): ParameterDecorator {
  return inertParameter;
}

// ---------------------------------------------------------------------------------------------
// Other transports (docs/behaviour.md §9.5): declared so that `version` on them is refused at build time
// ---------------------------------------------------------------------------------------------

/** Options of {@link Gateway}. */
export interface GatewayOptions {
  /** The socket path, for example `'ws'`. */
  path: string;
  /** A WebSocket gateway takes a version in its socket URL, for example `/v1/ws`. */
  version?: string;
}

/** A WebSocket gateway (versioned by its socket URL). */
export function Gateway(_options: GatewayOptions): ClassDecorator {
  return inertClass;
}

/**
 * A gateway method answering messages `{ "event": name, "data": … }`; its return value is sent back
 * as `{ "event": name, "data": result }`. Like every operation it declares a posture.
 */
export function SubscribeMessage(_event: string): MethodDecorator {
  return inertMember;
}

/** Options of {@link McpHost}: the host is versioned by its path, not by `version`. */
export interface McpHostOptions {
  /** Mount path, default `/mcp`; version it by path (`/mcp/v1`). */
  path?: string;
  /** Not accepted: a model-context host is versioned by its path (docs/behaviour.md §9.5). Present only so `generate` can say so. */
  version?: never;
}

/**
 * The application's Model Context Protocol host (docs/behaviour.md §4.6), listed in a module's
 * `providers` like any provider. Optional: the operations marked {@link McpTool} are served at
 * `/mcp` without one. It sets the path, and its docstring (the part callers read) becomes the
 * `instructions` the host gives clients when they connect.
 */
export function McpHost(_options: McpHostOptions = {}): ClassDecorator {
  return inertClass;
}

/** Options of {@link McpTool}. */
export interface McpToolOptions {
  /**
   * The tool's name, 1 to 128 of `A-Z a-z 0-9 _ - .` (the MCP tool-name charset). Default: an
   * operation's GraphQL field name (`publishPost`); a route's controller path and method (`posts_get`).
   */
  name?: string;
  /** A display name for people (MCP `title`), for example `'Publish a post'`. */
  title?: string;
}

/**
 * Exposes a GraphQL query or mutation, or an HTTP route, as a tool of the MCP host
 * (docs/behaviour.md §4.6): the tool's description is the method's docstring as callers read it,
 * its input schema comes from the parameters' types and validation pipes, and it runs under the
 * operation's posture (gate before, masking after) with the caller's bearer token.
 */
export function McpTool(_options: McpToolOptions = {}): MethodDecorator {
  return inertMember;
}

/** Options of transports that take no version (docs/behaviour.md §9.5): job processors, scheduled tasks, listeners. */
export interface UnversionedOptions {
  /** Not accepted: see docs/behaviour.md §9.5 for what each of these transports does instead. Present only so `generate` can say so. */
  version?: never;
}

/**
 * A job processor for queue `queue` (docs/behaviour.md §10.1): its `@Process(name, schema)` methods
 * run the queue's jobs. The queue's name is its address — letters, digits, `_` and `-` — and it
 * takes no version (§9.5). List the class in a module's providers like any provider.
 */
export function Processor(_queue: string, _options: UnversionedOptions = {}): ClassDecorator {
  return inertClass;
}

/**
 * The handler of job `name` in its class's `@Processor` queue (docs/behaviour.md §10.1). `schema` is
 * the zod schema of the job's payload: `queue.add(name, payload)` refuses a payload it rejects, at
 * the caller, and the handler receives what it parses. The method takes the payload and, optionally,
 * the job's `JobContext` (runtime/jobs/queue.ts: id, attempt, a logger carrying the job id).
 */
export function Process(_name: string, _schema: unknown): MethodDecorator {
  return inertMember;
}

/**
 * Injects queue `queue` into a constructor parameter of type `Queue<…>` (runtime/jobs/queue.ts), as
 * `@nestjs/bullmq`'s `@InjectQueue` does: `@InjectQueue('notifications') private readonly queue:
 * Queue<NotificationsJobs>`. Some mounted `@Processor(queue)` must process it.
 */
export function InjectQueue(_queue: string): ParameterDecorator {
  return inertParameter;
}

/** Options of {@link Cron}. */
export interface CronOptions extends UnversionedOptions {
  /**
   * The task's name: its setting is `APP_CRON__<NAME>` (constant case) and logs name it. Default:
   * the method's name (`writeDigests` → `APP_CRON__WRITE_DIGESTS`).
   */
  name?: string;
}

/**
 * A scheduled task (docs/behaviour.md §10.2): the method runs at every tick of `expression` (croner
 * syntax: five fields, or six with seconds first), once per tick for the whole server however many
 * processes it has, unscoped, with no caller and no wire. `APP_CRON__<NAME>` overrides the
 * expression or, set to `off`, switches the task off. The method may take a `TaskContext`
 * (runtime/jobs/schedule.ts: the tick, the previous tick and a logger).
 */
export function Cron(_expression: string, _options: CronOptions = {}): MethodDecorator {
  return inertMember;
}

/**
 * An in-process listener (docs/behaviour.md §10.3): the method runs for every `event` published on
 * the event bus in this process (the same events subscriptions see), after the publishing write
 * committed, unscoped and without a caller; its error is logged and never reaches the request that
 * raised the event. It takes the event's payload.
 */
export function OnEvent(_event: string, _options: UnversionedOptions = {}): MethodDecorator {
  return inertMember;
}

/** Sets the success status of a route (default: 201 for POST, 204 for a route returning nothing, 200 otherwise). */
export function HttpCode(_status: number): MethodDecorator {
  return inertMember;
}
