/**
 * The resolved model (docs/architecture.md §1; after Prisma's DMMF helper): everything the
 * generator knows about an application, decided once by `resolve/` from what `parse/` read
 * (model/declarations.ts) — defaults applied, key types normalised, each relation's key column,
 * each route's status, reply kind and page parameters, what every operation returns, what is
 * mounted — with lookups as maps. Validation rules and emitters read only this model; none of
 * them searches lists or re-derives a fact another one already decided.
 *
 * Plain readonly data (no ts-morph node gets past `parse/`): rules are testable without parsing.
 */
import type { DecoratorTarget } from '../../runtime/declarations/decorator-signatures.js';
import type { Grants } from '../resolve/grants.js';
import type { ResourceColumn, ResourceColumnConstraints } from '../../runtime/data/resource-input.js';
import type { HttpMethod, ReplyKind } from '../../runtime/http/routes.js';
import type { DeclaredAbilityRule, DeclaredDecorator, DeclaredImportProblem, MethodCallModel } from './declarations.js';
import type { DocText } from './docs.js';
import type { DeprecationModel, EnumModel, InputModel, ReturnShape, SourceRef, SourceSpan, TypeShape } from './types.js';

/** A stored column of an entity. */
export interface ColumnModel extends DocText {
  readonly kind: 'column';
  readonly name: string;
  /**
   * The wire type; the primary key, every belongs_to column and a column typed `ID` are `ID` (docs/decisions.md §2).
   * A column of a composite key keeps its type unless it is a belongs_to column.
   */
  readonly type: TypeShape;
  readonly primaryKey: boolean;
  /**
   * Whether it stores a row's key — the primary key or a belongs_to column: a UUID, in the
   * dialect's key type (PostgreSQL `uuid`), checked as one in inputs and filters. A column typed
   * with the runtime's `ID` alias is `ID` on the wire but stored as text (docs/decisions.md §2), and
   * so is a column of a composite key that no belongs_to names (docs/behaviour.md §2.6).
   */
  readonly key: boolean;
  readonly unique: boolean;
  /** Literal default, or `'now'`. */
  readonly default: string | number | boolean | undefined;
  /** Whether the column is on the wire (GraphQL type, REST bodies). Default true. */
  readonly exposed: boolean;
  /** What a resource's inputs check of it (docs/behaviour.md §4.7): only the constraints written. */
  readonly constraints: ColumnConstraints;
  /** `@Filterable()`: a resource's list takes an equality filter on it, backed by a `(column, id)` index (docs/behaviour.md §4.7). */
  readonly filterable: boolean;
  /** Deprecated on the wire, and why (docs/behaviour.md §2.7). */
  readonly deprecation: DeprecationModel | undefined;
  readonly span: SourceSpan;
}

/** The value constraints written on a column (`@Column({ maxLength: 2000 })`), as the runtime checks them (docs/behaviour.md §4.7). */
export type ColumnConstraints = ResourceColumnConstraints;

/** A relation declared on an entity (docs/behaviour.md §2.1, §2.6). */
export type RelationModel = BelongsToModel | HasManyModel | ManyToManyModel;

/** belongs_to: this entity's key column holds the target's primary key (direction: to one parent). */
export interface BelongsToModel extends DocText {
  readonly kind: 'belongsTo';
  readonly name: string;
  /** The entity declaring it. */
  readonly entity: string;
  /** The target as written (`() => Org`), undefined when it is not a thunk. */
  readonly target: string | undefined;
  /** Whether the target is an `@Entity()`. */
  readonly targetKnown: boolean;
  readonly targetSpan: SourceSpan | undefined;
  /** The column named by `column:` — this entity's column holding the parent's id. */
  readonly keyColumn: string | undefined;
  readonly keyColumnSpan: SourceSpan | undefined;
  /** Whether the entity declares that column. */
  readonly keyColumnKnown: boolean;
  /** Whether the key column is nullable (the parent is optional). */
  readonly optional: boolean;
  /** The has_many on the target that follows this key, when one is declared. */
  readonly inverse: string | undefined;
  /** Whether it gets a GraphQL field. Default false. */
  readonly exposed: boolean;
  /** `via` written here (refused: docs/behaviour.md §2.6), to report it. */
  readonly viaSpan: SourceSpan | undefined;
  /** A complexity override (docs/behaviour.md §8), and where it is written. */
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  /** Its field deprecated, and why (docs/behaviour.md §2.7). */
  readonly deprecation: DeprecationModel | undefined;
  readonly span: SourceSpan;
}

/**
 * The key a has_many follows, decided once: `resolved` (the child's belongs_to), or why not —
 * `unknown` when the target or one of the child's keys is itself unknown (another rule reports
 * that, so rules about the key stay silent), `missing`, `ambiguous`, or `viaUnknown`.
 */
export type HasManyKey =
  | { readonly kind: 'resolved'; readonly key: BelongsToModel }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly BelongsToModel[] }
  | { readonly kind: 'viaUnknown'; readonly candidates: readonly BelongsToModel[] };

/** has_many: rows of the target whose key column points here (direction: to many children). */
export interface HasManyModel extends DocText {
  readonly kind: 'hasMany';
  readonly name: string;
  readonly entity: string;
  readonly target: string | undefined;
  readonly targetKnown: boolean;
  readonly targetSpan: SourceSpan | undefined;
  readonly via: string | undefined;
  readonly viaSpan: SourceSpan | undefined;
  readonly key: HasManyKey;
  /** The child's column it follows, when the key is resolved. */
  readonly keyColumn: string | undefined;
  readonly exposed: boolean;
  /** A complexity override (docs/behaviour.md §8), and where it is written. */
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  /** Its field deprecated, and why (docs/behaviour.md §2.7). */
  readonly deprecation: DeprecationModel | undefined;
  readonly span: SourceSpan;
}

/**
 * The two keys of a join entity a many_to_many follows, decided once: `resolved` (its belongs_to to
 * this entity, `from`, and to the target, `to`), or why not — `unknown` when the join entity or a
 * key of it is itself unknown (another rule says so), `missing` a side without a key (`side`),
 * `ambiguous` a side with several and no `via`/`targetVia` naming one, `viaUnknown` a `via` or
 * `targetVia` naming none of that side's keys.
 */
export type JoinKeys =
  | { readonly kind: 'resolved'; readonly from: BelongsToModel; readonly to: BelongsToModel }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'missing'; readonly side: 'entity' | 'target' }
  | { readonly kind: 'ambiguous'; readonly side: 'entity' | 'target'; readonly candidates: readonly BelongsToModel[] }
  | { readonly kind: 'viaUnknown'; readonly side: 'entity' | 'target'; readonly candidates: readonly BelongsToModel[] };

/**
 * many_to_many: rows of the target linked to this row by the rows of a join entity (`through`), each
 * holding a key to either side (docs/behaviour.md §2.6).
 */
export interface ManyToManyModel extends DocText {
  readonly kind: 'manyToMany';
  readonly name: string;
  readonly entity: string;
  readonly target: string | undefined;
  readonly targetKnown: boolean;
  readonly targetSpan: SourceSpan | undefined;
  /** The join entity as written (`through: () => IssueLabel`), undefined when it is not a thunk. */
  readonly through: string | undefined;
  readonly throughKnown: boolean;
  readonly throughSpan: SourceSpan | undefined;
  /** `via` and `targetVia` as written: the join's columns toward this entity and toward the target. */
  readonly via: string | undefined;
  readonly viaSpan: SourceSpan | undefined;
  readonly targetVia: string | undefined;
  readonly targetViaSpan: SourceSpan | undefined;
  readonly join: JoinKeys;
  /** The join entity's column holding this entity's key, when the keys are resolved. */
  readonly keyColumn: string | undefined;
  /** The join entity's column holding the target's key, when the keys are resolved. */
  readonly targetColumn: string | undefined;
  readonly exposed: boolean;
  /** A complexity override (docs/behaviour.md §8), and where it is written. */
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  /** Its field deprecated, and why (docs/behaviour.md §2.7). */
  readonly deprecation: DeprecationModel | undefined;
  readonly span: SourceSpan;
}

/** A belongs_to of another entity pointing here, with the has_many following it (Prisma back-relations). */
export interface InverseModel {
  readonly child: string;
  readonly key: BelongsToModel;
  readonly hasMany: HasManyModel | undefined;
}

/** A multi-column unique constraint. */
export interface UniqueModel {
  readonly columns: readonly string[];
  readonly span: SourceSpan;
}

/** An entity: one Prisma model, one GraphQL type when exposed. */
export interface EntityModel extends DocText {
  readonly kind: 'entity';
  readonly name: string;
  readonly source: SourceRef;
  /** Whether it is on the wire. Default true. */
  readonly exposed: boolean;
  readonly columns: readonly ColumnModel[];
  readonly columnByName: ReadonlyMap<string, ColumnModel>;
  readonly primaryKeys: readonly ColumnModel[];
  /** Keyed by a single `id` column: it gets a repository (cursors are ids). */
  readonly keyed: boolean;
  /**
   * Keyed by two or more `@PrimaryKey()` columns and not exposed (docs/behaviour.md §2.6): a join
   * table. Its key is the Prisma schema's `@@id`, every key column is given by the writer (none is
   * generated), and it gets a composite-key repository (runtime/data/composite-key-repository.ts).
   */
  readonly compositeKey: boolean;
  readonly relations: readonly RelationModel[];
  /**
   * The relations that get a field on the wire — a GraphQL field, a relation of the runtime's entity
   * descriptor, a complexity score — decided once (docs/behaviour.md §2.1): written `exposed: true`
   * on an exposed entity, pointing at a declared entity, by a known key column. Empty for a hidden entity.
   */
  readonly wireRelations: readonly WireRelationModel[];
  /** Its relations by the entity they point at — a relation by both ends: `post.relationsTo.get('User')`. */
  readonly relationsTo: ReadonlyMap<string, readonly RelationModel[]>;
  /** belongs_to relations of other entities (and its own) pointing at this one, by child then declaration order. */
  readonly inverses: readonly InverseModel[];
  /** Multi-column unique constraints, in declared order. */
  readonly uniques: readonly UniqueModel[];
  readonly span: SourceSpan;
}

/** A relation on the wire (`EntityModel.wireRelations`): its target and key column are known. */
export type WireRelationModel = RelationModel & { readonly target: string; readonly keyColumn: string };

/** A validation or transform pipe bound to an argument: `new Class(...args)` or `Class`. */
export interface PipeModel {
  readonly class: SourceRef;
  /** Constructor arguments: references to exported values, or literal source text. */
  readonly args: readonly PipeArgument[];
  readonly span: SourceSpan;
}

/** One constructor argument of a pipe: an exported value, or a literal. */
export type PipeArgument =
  { readonly kind: 'ref'; readonly ref: SourceRef } | { readonly kind: 'literal'; readonly value: string | number | boolean };

/** Where an HTTP route parameter comes from. */
export type ParamSource = 'arg' | 'path' | 'query' | 'body';

/**
 * How a handler obtains a parameter's value, decided once: a GraphQL `argument`; for a keyset
 * route, the `pageSize` (`first`, clamped) and the `cursor` (`after`, parsed); a `pathText`
 * segment passed as text, a `path` segment or `query` value coerced to its type, or the `body`.
 */
export type ParamBinding = 'argument' | 'pageSize' | 'cursor' | 'pathText' | 'path' | 'query' | 'body';

/** One parameter of an operation or route method. */
export interface ParamModel {
  readonly name: string;
  readonly type: TypeShape;
  /** Written `name?:` — an absent or null argument is passed as `undefined`. */
  readonly optional: boolean;
  readonly source: ParamSource;
  readonly binding: ParamBinding;
  readonly pipes: readonly PipeModel[];
  /** The argument deprecated, and why: a resource's filter on a deprecated column (docs/behaviour.md §2.7); absent otherwise. */
  readonly deprecation?: DeprecationModel;
  readonly span: SourceSpan;
}

/** An access posture (docs/behaviour.md §1, §5): exactly one per operation. */
export type PostureModel =
  | { readonly kind: 'public'; readonly span: SourceSpan }
  | {
      readonly kind: 'authorized';
      readonly action: string;
      readonly actionSpan: SourceSpan;
      readonly subject: string;
      readonly subjectSpan: SourceSpan;
      readonly span: SourceSpan;
    };

/**
 * A posture decorator as written: a posture, or an `@Authorized(…)` whose arguments could not be
 * read (rule `decorator-argument-invalid` reports it; posture rules count it as written).
 */
export type WrittenPosture = PostureModel | { readonly kind: 'unreadable'; readonly span: SourceSpan };

/** A guard bound to a class or method; `ref` is undefined when the name could not be followed. */
export interface GuardBinding {
  readonly name: string;
  readonly ref: SourceRef | undefined;
  readonly span: SourceSpan;
}

/** GraphQL root types. */
export type OperationType = 'query' | 'mutation' | 'subscription';

/** A GraphQL root field: query, mutation or subscription (docs/behaviour.md §4.1). */
export interface OperationModel extends DocText {
  readonly kind: 'operation';
  readonly operationType: OperationType;
  /** `Query`, `Mutation` or `Subscription`. */
  readonly rootType: string;
  /** The field name on the wire (`name:` or the camelCase method name). */
  readonly fieldName: string;
  readonly methodName: string;
  /** The resolver class declaring it, and its file. */
  readonly owner: string;
  readonly file: string;
  readonly params: readonly ParamModel[];
  /**
   * What it returns on the wire. A subscription's is what it sends, never null: the method
   * answering null leaves that item out for the subscriber (docs/behaviour.md §4.1), so `Post | null`
   * is sent as `Post!`.
   */
  readonly returns: ReturnShape;
  /** The entity it returns (alone, in a list or in a page), if any. */
  readonly returnedEntity: string | undefined;
  /** The posture in force (the first written); `postures` holds every one written. */
  readonly posture: PostureModel | undefined;
  readonly postures: readonly WrittenPosture[];
  readonly guards: readonly GuardBinding[];
  /** Global, resolver and operation guards, each once (docs/behaviour.md §5.2). */
  readonly guardChain: readonly GuardBinding[];
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  /** The field deprecated, and why (`deprecationReason` or a `@deprecated` tag; docs/behaviour.md §2.7). */
  readonly deprecation: DeprecationModel | undefined;
  /** Subscriptions: the method's first parameter, which receives each published item (not a GraphQL argument). */
  readonly itemParam: ParamModel | undefined;
  /** Subscriptions: the event topic (`topic:` or the method name in camelCase). */
  readonly topic: string | undefined;
  /**
   * Subscriptions: the entity every pushed item is, when it is one (a value, not a keyset page) —
   * items are then filtered per subscriber (docs/behaviour.md §5.5) and travel between processes as ids.
   */
  readonly eventEntity: string | undefined;
  /** A `version` written on it (refused: docs/behaviour.md §9.5). */
  readonly versionSpan: SourceSpan | undefined;
  readonly span: SourceSpan;
}

/** A computed field (`@ResolveField`) on the resolver's entity type (docs/behaviour.md §2.1). */
export interface FieldResolverModel extends DocText {
  readonly kind: 'fieldResolver';
  readonly fieldName: string;
  readonly methodName: string;
  readonly owner: string;
  readonly file: string;
  readonly entity: string | undefined;
  /**
   * Whether the method takes every parent of a level at once (its parent parameter is a list, as
   * in `reviewerNames(posts: Post[])`) and answers one value per parent, in order: one call per level
   * through the request's loaders (docs/behaviour.md §2.1, §8).
   */
  readonly batched: boolean;
  /** Arguments after the parent parameter. */
  readonly params: readonly ParamModel[];
  /** What it answers for one parent (a batched method's list element). */
  readonly returns: ReturnShape;
  readonly returnedEntity: string | undefined;
  /** A complexity override (docs/behaviour.md §8), and where it is written. */
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  /** The field deprecated, and why (docs/behaviour.md §2.7). */
  readonly deprecation: DeprecationModel | undefined;
  readonly span: SourceSpan;
}

/**
 * What a constructor dependency resolves to: a provider, a repository, a runtime built-in, the
 * queue `@InjectQueue(queue)` names (docs/behaviour.md §10.1; `queueKnown` when a mounted processor
 * processes it), or nothing.
 */
export type DependencyTarget =
  | { readonly kind: 'provider'; readonly provider: string }
  | { readonly kind: 'repository'; readonly entity: string }
  | { readonly kind: 'builtin'; readonly builtin: BuiltinProvider }
  | { readonly kind: 'queue'; readonly queue: string; readonly queueKnown: boolean; readonly queueSpan: SourceSpan }
  | { readonly kind: 'missing' };

/** A provider the runtime library supplies. */
export interface BuiltinProvider {
  readonly ref: SourceRef;
  /** `services`: made by the runtime at boot (one per process); `container`: constructed in the container when a module lists it. */
  readonly constructedBy: 'services' | 'container';
}

/** A constructor dependency of a provider, by its declared type. */
export interface DependencyModel {
  readonly parameterName: string;
  /** The class the type names (its export name, or the type as written); undefined when untyped. */
  readonly typeName: string | undefined;
  readonly source: SourceRef | undefined;
  /** What the container passes for it, in the mounted application. */
  readonly target: DependencyTarget;
  readonly span: SourceSpan;
}

/** What a class is, by its decorator. */
export type ProviderRole = 'service' | 'resolver' | 'controller' | 'abilities' | 'gateway' | 'mcpHost' | 'processor';

/** What one method of a provider calls, as far as it can be read without running it. */
export interface MethodModel {
  readonly name: string;
  readonly calls: readonly MethodCallModel[];
  /** Where the method calls the runtime's `runUnscoped` (docs/behaviour.md §5.9). */
  readonly unscopedCalls: readonly SourceSpan[];
}

/** An injectable class the container constructs ("provider" always means this, never a database). */
export interface ProviderModel {
  readonly kind: 'provider';
  readonly name: string;
  readonly role: ProviderRole;
  readonly source: SourceRef;
  readonly dependencies: readonly DependencyModel[];
  /** Its methods with a body, by name. */
  readonly methodByName: ReadonlyMap<string, MethodModel>;
  readonly span: SourceSpan;
}

/** A GraphQL resolver class. */
export interface ResolverModel {
  readonly kind: 'resolver';
  readonly name: string;
  readonly file: string;
  /** The entity type its computed fields extend (`@Resolver(() => User)`), as written. */
  readonly entity: string | undefined;
  readonly entitySpan: SourceSpan | undefined;
  /** Whether an entity argument was written at all (possibly unreadable). */
  readonly entityWritten: boolean;
  readonly operations: readonly OperationModel[];
  readonly fieldResolvers: readonly FieldResolverModel[];
  readonly guards: readonly GuardBinding[];
  /** A `version` written on the class (refused: docs/behaviour.md §9.5). */
  readonly versionSpan: SourceSpan | undefined;
  /** The `@Resource` entity it is generated for (docs/behaviour.md §4.7), undefined when hand-written. */
  readonly resource: string | undefined;
  readonly span: SourceSpan;
}

/** A version as written, with where. */
export interface VersionToken {
  readonly version: string;
  readonly span: SourceSpan;
}

/** The page parameters of a keyset route (docs/behaviour.md §4.2): `first` and `after`, when declared. */
export interface PageParameters {
  readonly first: ParamModel | undefined;
  readonly after: ParamModel | undefined;
}

/** One HTTP route (docs/behaviour.md §4.2, §4.3). */
export interface RouteModel extends DocText {
  readonly kind: 'route';
  readonly method: HttpMethod;
  /** Path relative to the controller path (`''`, `':id'`, `':id/publish'`). */
  readonly path: string;
  /** The path its decorator writes (`@Get(':id')`), as path-to-regexp reads it (generator/resolve/route-paths.ts). */
  readonly writtenPath: WrittenPathModel;
  /** The full path without prefix or version: `/posts/:id/publish`. */
  readonly fullPath: string;
  /**
   * Its parameters, in order, as path-to-regexp reads the full path — the names the runtime's
   * router hands the route; undefined when its controller's path or its own has a problem
   * (`route-path-invalid` reports it, and the rules about parameters stay silent).
   */
  readonly pathParameters: readonly string[] | undefined;
  readonly methodName: string;
  readonly owner: string;
  readonly file: string;
  readonly params: readonly ParamModel[];
  readonly returns: ReturnShape;
  readonly returnedEntity: string | undefined;
  /** How the result is sent (runtime/http/routes.ts). */
  readonly reply: ReplyKind;
  /** The success status: `@HttpCode`, else 201 for POST, 204 when it returns nothing, else 200. */
  readonly status: number;
  readonly takesBody: boolean;
  readonly posture: PostureModel | undefined;
  readonly postures: readonly WrittenPosture[];
  /** The versions it mounts under: the route's `@Version`, else its controller's. */
  readonly versions: readonly string[];
  /** The versions `@Version` names, when written. */
  readonly routeVersions: readonly VersionToken[] | undefined;
  readonly versionSpan: SourceSpan | undefined;
  /** `pagination:` as written (`'cursor'` is the default for a page). */
  readonly pagination: 'cursor' | 'none' | undefined;
  /** False when `pagination:` is written but is not one of those (rules about it stay silent). */
  readonly paginationKnown: boolean;
  /** For a route returning a keyset page: its page parameters. */
  readonly page: PageParameters | undefined;
  /** What callers read about the operation: `@ApiOperation({ summary, description })`, else its docstring's description split by {@link RouteText}. */
  readonly operationText: RouteText;
  readonly span: SourceSpan;
}

/**
 * A path written in a decorator (`@Controller('posts')`, `@Get(':id')`, `@Resource({ path })`) as
 * path-to-regexp 8 reads it — the parser of Express 5's router and of the runtime's version router
 * (docs/behaviour.md §4.2; generator/resolve/route-paths.ts).
 */
export interface WrittenPathModel {
  /** The string as written, slashes included; `''` when none is written. */
  readonly text: string;
  /** Where the string is written; undefined when no path is (`@Get()`). */
  readonly span: SourceSpan | undefined;
  /** Its `:name` parameters, in order, as path-to-regexp's tokens give them (empty when it refuses the path). */
  readonly parameters: readonly string[];
  /** What in it the server refuses at boot, or would bind in a way the generated code cannot carry; empty for text and `:name` parameters only. */
  readonly problems: readonly RoutePathProblem[];
}

/**
 * One thing of a written path `route-path-invalid` reports, at `index` (its first character in the
 * text): path-to-regexp refused the path (`syntax`, with its reason: `Unexpected ? at index 8`); a
 * wildcard (`*rest`: an array of segments); an optional group (`{/:id}`); a parameter name that is
 * not letters, digits and `_`, or quoted; a backslash escape; a parameter named twice on the full
 * path; a parameter in a resource's path.
 */
export type RoutePathProblem =
  | { readonly kind: 'syntax'; readonly reason: string; readonly index: number | undefined }
  | {
      readonly kind: 'wildcard' | 'parameterName' | 'duplicateParameter' | 'resourceParameter';
      readonly name: string;
      readonly index: number;
    }
  | { readonly kind: 'group' | 'escape'; readonly index: number };

/**
 * A route's OpenAPI `summary` and `description`: each as `@ApiOperation` declares it; otherwise
 * the summary is the first sentence of the method's caller-facing description (model/docs.ts) and
 * the description the rest of it — all of it when the summary is declared.
 */
export interface RouteText {
  readonly summary: string | undefined;
  readonly description: string | undefined;
}

/** An HTTP controller. */
export interface ControllerModel extends DocText {
  readonly kind: 'controller';
  readonly name: string;
  readonly file: string;
  readonly path: string;
  /** The path `@Controller` writes, as path-to-regexp reads it (a resource's: its `@Resource` path). */
  readonly writtenPath: WrittenPathModel;
  /** Declared versions; empty for an unversioned controller. */
  readonly versions: readonly string[];
  readonly versionTokens: readonly VersionToken[];
  /** False when a declared version could not be read (rules comparing versions stay silent). */
  readonly versionsKnown: boolean;
  readonly versionSpan: SourceSpan | undefined;
  readonly routes: readonly RouteModel[];
  /**
   * The OpenAPI tags of its routes: `@ApiTags(…)` as declared (duplicates dropped), else one
   * derived from its path — the path without its slashes (`posts`, `orgs/:orgId/users`), `root`
   * for the empty path — so controllers sharing a path share a tag.
   */
  readonly tags: readonly string[];
  /** The `@Resource` entity it is generated for (docs/behaviour.md §4.7), undefined when hand-written. */
  readonly resource: string | undefined;
  readonly span: SourceSpan;
}

/** A transport that takes no `version` (docs/behaviour.md §9.5), recorded to refuse one written on it. */
export interface UnversionedTransportModel {
  readonly kind: 'unversionedTransport';
  readonly transport: 'mcpHost' | 'processor' | 'cron' | 'listener';
  readonly name: string;
  readonly versionSpan: SourceSpan | undefined;
  readonly span: SourceSpan;
}

/** A WebSocket gateway (versioned by its socket URL). */
export interface GatewayModel {
  readonly kind: 'gateway';
  readonly name: string;
  readonly file: string;
  readonly path: string;
  readonly version: string | undefined;
  readonly versionSpan: SourceSpan | undefined;
  readonly handlers: readonly GatewayHandlerModel[];
  readonly span: SourceSpan;
}

/** One message handler of a gateway (`@SubscribeMessage(event)`). */
export interface GatewayHandlerModel {
  readonly event: string;
  readonly methodName: string;
  /** Whether the method takes the message's data as its parameter. */
  readonly takesData: boolean;
  /** Whether that parameter declares a type narrower than `unknown` (the data is cast to it). */
  readonly dataTyped: boolean;
  readonly posture: PostureModel | undefined;
  readonly postures: readonly WrittenPosture[];
  readonly span: SourceSpan;
}

/**
 * How an MCP tool obtains one parameter from the call's `arguments` (docs/behaviour.md §4.6): a
 * `value` checked against the parameter's type; or, on an operation returning a keyset page, the
 * `pageSize` (`first`, clamped) and the `cursor` (`after`, parsed) as REST lists read them.
 */
export type McpParamBinding = 'value' | 'pageSize' | 'cursor';

/** One parameter of an MCP tool: a property of its input schema. */
export interface McpToolParamModel {
  readonly name: string;
  readonly type: TypeShape;
  /**
   * Whether `arguments` may leave it out: an optional parameter, or a nullable one without a zod
   * schema (a `ZodValidationPipe` would refuse the missing value, so the schema says it is required).
   */
  readonly optional: boolean;
  /** What the method receives when it is left out: `undefined` (written `name?:`) or `null`. */
  readonly absent: 'undefined' | 'null';
  readonly binding: McpParamBinding;
  readonly pipes: readonly PipeModel[];
  /**
   * The zod schema of the parameter's first `ZodValidationPipe`, when it has one: the input schema
   * describes the parameter with it (what the pipe accepts), else with the parameter's type.
   */
  readonly zodSchema: SourceRef | undefined;
}

/** Where an MCP tool's operation is declared, and what kind of operation it is. */
export type McpToolSource =
  | { readonly kind: 'operation'; readonly operationType: OperationType; readonly fieldName: string }
  | { readonly kind: 'route'; readonly method: HttpMethod; readonly fullPath: string };

/**
 * A tool of the MCP host (docs/behaviour.md §4.6): an operation or route marked `@McpTool()`, with
 * its name, description, input, posture and output decided once.
 */
export interface McpToolModel extends DocText {
  readonly kind: 'mcpTool';
  /** The tool name: `name:` as written, else the operation's field name or the route's path and method. */
  readonly name: string;
  /** Where the name comes from: the `name:` value, or the decorator when defaulted. */
  readonly nameSpan: SourceSpan;
  /** Whether the name was written (`name:`) rather than derived. */
  readonly nameWritten: boolean;
  readonly title: string | undefined;
  readonly source: McpToolSource;
  /** Whether it only reads (a query, a GET route): the tool's `readOnlyHint`. */
  readonly readOnly: boolean;
  readonly owner: string;
  readonly methodName: string;
  readonly file: string;
  readonly params: readonly McpToolParamModel[];
  readonly returns: ReturnShape;
  readonly returnedEntity: string | undefined;
  readonly posture: PostureModel | undefined;
  /** The `@McpTool` decorator. */
  readonly span: SourceSpan;
}

/** `@McpTool` written where no tool can come from (refused by rule mcp-tool-not-operation). */
export interface McpToolMisplacedModel {
  /** `PostResolver.postPublished`. */
  readonly declaration: string;
  /** What the method is: a subscription, a computed field, a gateway handler, or nothing a caller reaches. */
  readonly reason: 'subscription' | 'fieldResolver' | 'gatewayHandler' | 'notOperation';
  readonly span: SourceSpan;
}

/** An `@McpHost()` class: the host's path and what it tells clients (docs/behaviour.md §4.6). */
export interface McpHostModel extends DocText {
  readonly kind: 'mcpHost';
  readonly name: string;
  readonly file: string;
  /** The mount path, `/` + the written path without surrounding slashes; `/mcp` by default. */
  readonly path: string;
  readonly span: SourceSpan;
}

/** The MCP host of the mounted application: present when a mounted operation is a tool. */
export interface MountedMcpModel {
  /** The mounted `@McpHost()` class, if any (else the defaults). */
  readonly host: McpHostModel | undefined;
  readonly path: string;
  /** The tools of mounted resolvers and controllers, sorted by name. */
  readonly tools: readonly McpToolModel[];
}

/** One `@Process(name, schema)` method of a `@Processor(queue)` class (docs/behaviour.md §10.1). */
export interface JobHandlerModel {
  readonly kind: 'jobHandler';
  /** The processor's queue, when it could be read. */
  readonly queue: string | undefined;
  /** The job's name, when it could be read, and where it is written. */
  readonly job: string | undefined;
  readonly jobSpan: SourceSpan;
  readonly processor: string;
  readonly methodName: string;
  readonly file: string;
  /** The exported zod schema of the payload, when it could be followed. */
  readonly schema: SourceRef | undefined;
  /** Whether the method takes the job's context (a second parameter). */
  readonly takesJob: boolean;
  readonly span: SourceSpan;
}

/** A `@Processor(queue)` class (docs/behaviour.md §10.1). */
export interface ProcessorModel {
  readonly kind: 'processor';
  readonly name: string;
  readonly file: string;
  readonly queue: string | undefined;
  readonly queueSpan: SourceSpan | undefined;
  readonly handlers: readonly JobHandlerModel[];
  readonly span: SourceSpan;
}

/** A queue some mounted processor processes: its processors and every handler, by job name. */
export interface QueueModel {
  readonly kind: 'queue';
  readonly name: string;
  readonly processors: readonly ProcessorModel[];
  /** Every handler of the queue's processors, in declaration order (duplicates included: a rule reports them). */
  readonly handlers: readonly JobHandlerModel[];
  /** The first handler of each job name. */
  readonly handlerByJob: ReadonlyMap<string, JobHandlerModel>;
}

/** A `@Cron(expression)` method (docs/behaviour.md §10.2). */
export interface CronTaskModel {
  readonly kind: 'cronTask';
  /** `name:` or the method's name. */
  readonly name: string;
  /** `name:` as written, when written. */
  readonly nameSpan: SourceSpan | undefined;
  /** The setting overriding its schedule: `APP_CRON__<NAME>`. */
  readonly setting: string;
  readonly expression: string | undefined;
  readonly expressionSpan: SourceSpan | undefined;
  readonly owner: string;
  readonly methodName: string;
  readonly file: string;
  /** Whether the method takes the task's context. */
  readonly takesContext: boolean;
  readonly span: SourceSpan;
}

/** An `@OnEvent(event)` method (docs/behaviour.md §10.3). */
export interface ListenerModel {
  readonly kind: 'listener';
  readonly event: string | undefined;
  readonly eventSpan: SourceSpan | undefined;
  readonly owner: string;
  readonly methodName: string;
  readonly file: string;
  /** Whether the method takes the event's payload, and whether that parameter declares a type narrower than `unknown`. */
  readonly takesPayload: boolean;
  readonly payloadTyped: boolean;
  readonly span: SourceSpan;
}

/**
 * The topics mounted providers publish on the event bus (`this.events.publish('postPublished', …)`),
 * read from their method bodies. `decidable` is false when some call names its topic with anything
 * but a string literal: then what is published cannot be known at build time.
 */
export interface PublishedTopics {
  readonly topics: ReadonlySet<string>;
  readonly decidable: boolean;
}

/** The lifecycle of one API version, declared on a module (`versions`). */
export interface VersionPolicyModel {
  readonly version: string;
  /** `true`, or the date the version was deprecated. */
  readonly deprecated: true | string | undefined;
  readonly deprecatedSpan: SourceSpan | undefined;
  readonly sunset: string | undefined;
  readonly sunsetSpan: SourceSpan | undefined;
  /** The module declaring it. */
  readonly module: string;
  /** The version key. */
  readonly span: SourceSpan;
}

/** A class named in a module list, with where it is written. */
export interface ModuleEntry {
  readonly name: string;
  /** Where the class is declared; built-ins come from `runtime/`. */
  readonly source: SourceRef | undefined;
  readonly span: SourceSpan;
}

/** A module: what it imports and provides. */
export interface ModuleModel {
  readonly kind: 'module';
  readonly name: string;
  /** `@UseGuards(…)` on the module class: global guards when it is the root module. */
  readonly guards: readonly GuardBinding[];
  readonly imports: readonly ModuleEntry[];
  readonly providers: readonly ModuleEntry[];
  readonly controllers: readonly ModuleEntry[];
  readonly span: SourceSpan;
}

/** A decorated class, for rules about the class itself. */
export interface ClassModel {
  readonly name: string | undefined;
  readonly exported: boolean;
  readonly span: SourceSpan;
}

/** One application of a runtime decorator, where it is, and what is written beside it. */
export interface DecoratorUse {
  readonly decorator: DeclaredDecorator;
  readonly target: DecoratorTarget;
  /** What it decorates, for messages: `Note`, `Note.text`, `NoteResolver.note`, `parameter id of NotesController.get`. */
  readonly declaration: string;
  /** The enclosing class's name. */
  readonly className: string;
  /** The runtime decorators on the enclosing class. */
  readonly classDecorators: readonly string[];
  /** The runtime decorators on the same class or method (for a parameter: on its method), itself excluded. */
  readonly beside: readonly string[];
}

/** What is mounted: reachable from `AppModule` (docs/behaviour.md §1: no central list). */
export interface MountedApp {
  readonly root: ModuleModel | undefined;
  /** Reachable modules, in breadth-first order from the root. */
  readonly modules: readonly ModuleModel[];
  /** Providers listed by reachable modules (services, resolvers, abilities, …), sorted by name. */
  readonly providers: readonly ProviderModel[];
  readonly providerByName: ReadonlyMap<string, ProviderModel>;
  readonly resolvers: readonly ResolverModel[];
  readonly controllers: readonly ControllerModel[];
  readonly gateways: readonly GatewayModel[];
  /** The request entry points of the mounted resolvers, controllers and gateways, in that order. */
  readonly requestEntryPoints: readonly RequestEntryPointModel[];
  /** The computed fields of mounted resolvers, by the entity type they extend. */
  readonly fieldResolversByEntity: ReadonlyMap<string, readonly FieldResolverModel[]>;
  /** Built-ins listed by reachable modules (for example `LoaderScope`), by export name. */
  readonly builtins: readonly SourceRef[];
  /** Built-ins the container constructs. */
  readonly containerBuiltins: readonly BuiltinProvider[];
  /** Whether `LoaderScope` is provided (docs/behaviour.md §5.10). */
  readonly loaderScope: boolean;
  /** The `@Abilities()` providers mounted (exactly one is valid). */
  readonly abilities: readonly ProviderModel[];
  /** The first reachable module listing each provider, by provider name. */
  readonly moduleOf: ReadonlyMap<string, ModuleModel>;
  /** Providers in construction order (dependencies first, ties by name). */
  readonly constructionOrder: readonly ProviderModel[];
  /** The providers on a dependency cycle, if any (then the order is partial). */
  readonly cycle: readonly ProviderModel[] | undefined;
  /** Every version a mounted controller declares, numeric-aware order. */
  readonly versions: readonly string[];
  /** The mounted `@McpHost()` classes (at most one is valid). */
  readonly mcpHosts: readonly McpHostModel[];
  /** The MCP host, when a mounted operation or route is marked `@McpTool()` (docs/behaviour.md §4.6). */
  readonly mcp: MountedMcpModel | undefined;
  /** Mounted `@Processor` classes, by name (docs/behaviour.md §10.1). */
  readonly processors: readonly ProcessorModel[];
  /** The queues mounted processors process, sorted by name, and by name. */
  readonly queues: readonly QueueModel[];
  readonly queueByName: ReadonlyMap<string, QueueModel>;
  /** Scheduled tasks of mounted providers, by name then source (docs/behaviour.md §10.2). */
  readonly cronTasks: readonly CronTaskModel[];
  /** In-process listeners of mounted providers, by event then source (docs/behaviour.md §10.3). */
  readonly listeners: readonly ListenerModel[];
  /** What mounted providers publish on the event bus. */
  readonly publishedTopics: PublishedTopics;
}

/** One of the five operations a resource generates (docs/behaviour.md §4.7). */
export type ResourceOperationKind = 'list' | 'get' | 'create' | 'update' | 'delete';

/** A generated operation of a resource, decided once: its route, GraphQL field and posture (docs/behaviour.md §4.7). */
export interface ResourceOperationModel {
  readonly kind: ResourceOperationKind;
  /** The ability action it is authorized with: `read` for list and get, else its kind. */
  readonly action: 'read' | 'create' | 'update' | 'delete';
  /** Whether `public:` names it: no authentication, no authorization. */
  readonly public: boolean;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The full path without prefix or version: `/comments/:id`. */
  readonly fullPath: string;
  /** The GraphQL root field: `comments`, `comment`, `createComment`, `updateComment`, `deleteComment`. */
  readonly fieldName: string;
  readonly rootType: 'Query' | 'Mutation';
}

/** A name written in a resource's `operations` or `public` that it cannot honour. */
export interface ResourceNameModel {
  readonly name: string;
  readonly span: SourceSpan;
}

/** An `@Resource` entity (docs/behaviour.md §4.7): the operations it generates, decided once. */
export interface ResourceModel {
  /** The entity's name. */
  readonly name: string;
  readonly entity: EntityModel;
  /** The collection path as written (`'comments'`), and its full path (`/comments`). */
  readonly path: string;
  readonly fullPath: string;
  /** The version its routes mount under, when written. */
  readonly version: string | undefined;
  /** The generated operations, in the order list, get, create, update, delete. */
  readonly operations: readonly ResourceOperationModel[];
  /**
   * The columns create and update take, as the runtime's input schema reads them: exposed
   * columns other than the primary key and server timestamps (`default: 'now'`), in declared
   * order (a column of a type no input can carry is left out).
   */
  readonly inputColumns: readonly ResourceColumn[];
  /** The complexity expression of `list` (`complexity:`, docs/behaviour.md §8), and where it is written. */
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  /** How `list` answers: keyset pages, or the whole scoped collection (`pagination: 'none'`). */
  readonly pagination: 'cursor' | 'none';
  /** The `@Filterable()` columns list takes an equality filter on, in declared order. */
  readonly filters: readonly ColumnModel[];
  /** The generated class serving the operations (`CommentResource`), in `file` (under the output folder). */
  readonly className: string;
  readonly file: string;
  /** The input types of create and update, on the wire (docs/behaviour.md §4.7). */
  readonly createInput: InputModel;
  readonly updateInput: InputModel;
  /**
   * The operations as the rest of the generator sees hand-written ones: a provider the container
   * constructs on the entity's repository, a controller with the REST routes, and a resolver with
   * the GraphQL fields — mounted always, so routes, SDL, OpenAPI, MCP-less posture gates and rules
   * treat them like any other.
   */
  readonly provider: ProviderModel;
  readonly controller: ControllerModel;
  readonly resolver: ResolverModel;
  /** Names in `operations` that are no operation. */
  readonly unknownOperations: readonly ResourceNameModel[];
  /** Names in `public` that are not among the generated operations. */
  readonly unknownPublic: readonly ResourceNameModel[];
  readonly span: SourceSpan;
}

/**
 * Something a request reaches (docs/behaviour.md §5.9): a GraphQL operation or computed field, an
 * HTTP route, or a gateway's message handler.
 */
export interface RequestEntryPointModel {
  readonly kind: 'operation' | 'computedField' | 'route' | 'message';
  /** How diagnostics name it: `Query.posts`, `Post.excerpt`, `GET /posts`, `message ping of ChatGateway`. */
  readonly name: string;
  /** The class whose method serves it, and that method. */
  readonly owner: string;
  readonly methodName: string;
  /** The postures written on it (none on a computed field, which its parent's gate covers). */
  readonly postures: readonly WrittenPosture[];
  readonly span: SourceSpan;
}

/** The whole application, resolved. */
export interface ResolvedApp {
  /** Every declared entity, by name. */
  readonly entities: readonly EntityModel[];
  readonly entityByName: ReadonlyMap<string, EntityModel>;
  /** Every `@Resource` entity, by name (docs/behaviour.md §4.7). */
  readonly resources: readonly ResourceModel[];
  /** Enums and inputs used by columns, operations and routes, by name. */
  readonly enums: readonly EnumModel[];
  readonly enumByName: ReadonlyMap<string, EnumModel>;
  readonly inputs: readonly InputModel[];
  readonly inputByName: ReadonlyMap<string, InputModel>;
  /** Every declared injectable class, by name. */
  readonly providers: readonly ProviderModel[];
  readonly providerByName: ReadonlyMap<string, ProviderModel>;
  /** The declared `@Abilities()` classes (mounted or not). */
  readonly abilities: readonly ProviderModel[];
  readonly resolvers: readonly ResolverModel[];
  readonly controllers: readonly ControllerModel[];
  readonly gateways: readonly GatewayModel[];
  /** The request entry points of every declared resolver, controller and gateway (mounted or not), in that order. */
  readonly requestEntryPoints: readonly RequestEntryPointModel[];
  /** Every declared `@Processor` class, by name; scheduled tasks by name; listeners by event (mounted or not). */
  readonly processors: readonly ProcessorModel[];
  readonly cronTasks: readonly CronTaskModel[];
  readonly listeners: readonly ListenerModel[];
  readonly unversionedTransports: readonly UnversionedTransportModel[];
  /** Every `@McpHost()` class (mounted or not). */
  readonly mcpHosts: readonly McpHostModel[];
  /** Every operation or route marked `@McpTool()` (mounted or not), in source order. */
  readonly mcpTools: readonly McpToolModel[];
  /** `@McpTool()` written on a method no tool can come from. */
  readonly misplacedMcpTools: readonly McpToolMisplacedModel[];
  readonly modules: readonly ModuleModel[];
  readonly moduleByName: ReadonlyMap<string, ModuleModel>;
  readonly versionPolicies: readonly VersionPolicyModel[];
  /** Every decorated class. */
  readonly classes: readonly ClassModel[];
  /** Every application of a runtime decorator, in source order. */
  readonly decorators: readonly DecoratorUse[];
  /** The `can`/`cannot` calls of every `@Abilities()` class, as read (docs/behaviour.md §5.5). */
  readonly abilityRules: readonly DeclaredAbilityRule[];
  /** Imports of declaration files that resolve to nothing. */
  readonly importProblems: readonly DeclaredImportProblem[];
  readonly mounted: MountedApp;
  /** The grants the ability rules write, for the documents (generator/resolve/grants.ts). */
  readonly grants: Grants;
}
