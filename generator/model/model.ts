/**
 * The intermediate model: everything the generator knows about an application, as plain
 * readonly data (no ts-morph node gets past `parse/`). Validation rules read it; emitters
 * turn it into files. JSON-snapshottable, so rules are testable without parsing.
 */

/** A position in a declaration file; `file` is relative to the project root, with `/`. */
export interface SourceSpan {
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** Where an importable value is declared: emitters import `exportName` from `file`. */
export interface SourceRef {
  readonly file: string;
  readonly exportName: string;
}

/** Scalars on the wire (spec §4.1): `ID` for keys, `DateTime` as an ISO-8601 string. */
export type ScalarName = 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime';

/** A named type a field, argument or return value refers to. */
export type NamedType =
  | { readonly kind: 'scalar'; readonly name: ScalarName }
  | { readonly kind: 'enum'; readonly name: string }
  | { readonly kind: 'entity'; readonly name: string }
  | { readonly kind: 'input'; readonly name: string }
  | { readonly kind: 'unsupported'; readonly text: string; readonly reason: string };

/** A value's shape: a named type, possibly a list, possibly nullable. List items are non-null. */
export interface TypeShape {
  readonly named: NamedType;
  readonly list: boolean;
  readonly nullable: boolean;
}

/**
 * What an operation returns after unwrapping `Promise`:
 * `value` (T, T | null, T[]), or `page` (`Page<T>`, a keyset page). `result` marks `Result<…>`.
 */
export type ReturnShape =
  | { readonly kind: 'value'; readonly type: TypeShape; readonly result: boolean }
  | { readonly kind: 'page'; readonly item: NamedType; readonly result: boolean }
  | { readonly kind: 'void' };

/** An enum: a string-literal union type alias (`type PostStatus = 'draft' | 'published'`). */
export interface EnumModel {
  readonly kind: 'enum';
  readonly name: string;
  readonly values: readonly string[];
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** An input object type: an interface or object type alias used as an argument type. */
export interface InputModel {
  readonly kind: 'input';
  readonly name: string;
  readonly fields: readonly InputFieldModel[];
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** One field of an input object. */
export interface InputFieldModel {
  readonly name: string;
  readonly type: TypeShape;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** A stored column of an entity. */
export interface ColumnModel {
  readonly kind: 'column';
  readonly name: string;
  readonly type: TypeShape;
  readonly primaryKey: boolean;
  readonly unique: boolean;
  /** Literal default, or `'now'`. */
  readonly default: string | number | boolean | undefined;
  /** Whether the column is on the wire (GraphQL type, REST bodies). */
  readonly exposed: boolean;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** A relation declared on an entity (spec §2.1, §2.6). */
export type RelationModel = BelongsToModel | HasManyModel;

/** belongs_to: this entity's `column` holds the `target`'s primary key. */
export interface BelongsToModel {
  readonly kind: 'belongsTo';
  readonly name: string;
  readonly target: string;
  readonly column: string;
  readonly exposed: boolean;
  /** `via` written here is refused (spec §2.6); kept to report it. */
  readonly viaSpan: SourceSpan | undefined;
  readonly complexity: string | undefined;
  readonly nullable: boolean;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** has_many: rows of `target` whose key column (`via`, or the only one) points here. */
export interface HasManyModel {
  readonly kind: 'hasMany';
  readonly name: string;
  readonly target: string;
  readonly via: string | undefined;
  readonly exposed: boolean;
  readonly complexity: string | undefined;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** An entity: one Prisma model, one GraphQL type when exposed. */
export interface EntityModel {
  readonly kind: 'entity';
  readonly name: string;
  readonly source: SourceRef;
  readonly exposed: boolean;
  readonly columns: readonly ColumnModel[];
  readonly relations: readonly RelationModel[];
  /** Multi-column unique constraints, in declared order. */
  readonly uniques: readonly (readonly string[])[];
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** A validation or transform pipe bound to an argument: `new Class(...args)` or `Class`. */
export interface PipeModel {
  readonly class: SourceRef;
  /** Constructor arguments: references to exported values, or literal source text. */
  readonly args: readonly PipeArgument[];
  readonly span: SourceSpan;
}

/** One constructor argument of a pipe. */
export type PipeArgument =
  | { readonly kind: 'ref'; readonly ref: SourceRef }
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'unsupported'; readonly text: string };

/** Where an HTTP route parameter comes from. */
export type ParamSource = 'arg' | 'path' | 'query' | 'body';

/** One parameter of an operation or route method. */
export interface ParamModel {
  readonly name: string;
  readonly type: TypeShape;
  /** Written `name?:` — an absent or null argument is passed as `undefined`. */
  readonly optional: boolean;
  readonly source: ParamSource;
  readonly pipes: readonly PipeModel[];
  readonly span: SourceSpan;
}

/** An access posture (spec §1, §5): exactly one per operation. */
export type PostureModel =
  | { readonly kind: 'public'; readonly span: SourceSpan }
  | { readonly kind: 'authorized'; readonly action: string; readonly subject: string; readonly span: SourceSpan };

/** A GraphQL root field: query, mutation or subscription (spec §4.1). */
export interface OperationModel {
  readonly kind: 'operation';
  readonly operationType: 'query' | 'mutation' | 'subscription';
  /** The field name on the wire. */
  readonly fieldName: string;
  readonly methodName: string;
  /** The resolver class declaring it. */
  readonly owner: string;
  readonly params: readonly ParamModel[];
  readonly returns: ReturnShape;
  /** Every posture decorator written (validation requires exactly one). */
  readonly postures: readonly PostureModel[];
  readonly guards: readonly GuardBinding[];
  readonly complexity: string | undefined;
  readonly deprecationReason: string | undefined;
  /** Subscriptions: the event topic. */
  readonly topic: string | undefined;
  /** A `version` written on it (refused: spec §9.5). */
  readonly versionSpan: SourceSpan | undefined;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** A computed field (`@ResolveField`) on the resolver's entity type (spec §2.1). */
export interface FieldResolverModel {
  readonly kind: 'fieldResolver';
  readonly fieldName: string;
  readonly methodName: string;
  readonly owner: string;
  readonly entity: string | undefined;
  /** The parent parameter (first) and any further arguments. */
  readonly params: readonly ParamModel[];
  readonly returns: ReturnShape;
  readonly complexity: string | undefined;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** A guard bound to a class or method. */
export interface GuardBinding {
  readonly guard: SourceRef;
  readonly span: SourceSpan;
}

/** A constructor dependency of a provider, by its declared type. */
export interface DependencyModel {
  readonly parameterName: string;
  readonly typeName: string;
  /** Where the type is declared, when it resolves to an exported class. */
  readonly source: SourceRef | undefined;
  readonly span: SourceSpan;
}

/** What a class is, by its decorator. */
export type ProviderRole = 'service' | 'resolver' | 'controller' | 'abilities' | 'gateway' | 'mcpHost' | 'processor';

/** A call in a method body the generator can follow: `this.dependency.method(…)` or `this.method(…)`. */
export interface MethodCallModel {
  /** The constructor parameter called through, or undefined for a method of the same class. */
  readonly dependency: string | undefined;
  readonly method: string;
  readonly span: SourceSpan;
}

/** What one method of a provider calls, as far as it can be read without running it. */
export interface MethodModel {
  readonly name: string;
  readonly calls: readonly MethodCallModel[];
  /** Where the method calls the runtime's `runUnscoped` (spec §5.9). */
  readonly unscopedCalls: readonly SourceSpan[];
}

/** A class the container constructs. */
export interface ProviderModel {
  readonly kind: 'provider';
  readonly name: string;
  readonly role: ProviderRole;
  readonly source: SourceRef;
  readonly dependencies: readonly DependencyModel[];
  /** Its methods with a body, in declaration order. */
  readonly methods: readonly MethodModel[];
  readonly span: SourceSpan;
}

/** A GraphQL resolver class. */
export interface ResolverModel {
  readonly kind: 'resolver';
  readonly name: string;
  readonly entity: string | undefined;
  readonly operations: readonly OperationModel[];
  readonly fieldResolvers: readonly FieldResolverModel[];
  readonly guards: readonly GuardBinding[];
  /** A `version` written on the class (refused: spec §9.5). */
  readonly versionSpan: SourceSpan | undefined;
  readonly span: SourceSpan;
}

/** HTTP methods a route may declare. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP route (spec §4.2, §4.3). */
export interface RouteModel {
  readonly kind: 'route';
  readonly method: HttpMethod;
  /** Path relative to the controller path (`''`, `':id'`, `':id/publish'`). */
  readonly path: string;
  readonly methodName: string;
  readonly owner: string;
  readonly params: readonly ParamModel[];
  readonly returns: ReturnShape;
  readonly postures: readonly PostureModel[];
  readonly guards: readonly GuardBinding[];
  /** Route-level versions (`@Version`), or undefined for all of the controller's. */
  readonly versions: readonly string[] | undefined;
  readonly versionSpan: SourceSpan | undefined;
  readonly pagination: 'cursor' | 'none' | undefined;
  readonly httpCode: number | undefined;
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** An HTTP controller. */
export interface ControllerModel {
  readonly kind: 'controller';
  readonly name: string;
  readonly path: string;
  /** Declared versions; empty for an unversioned controller. */
  readonly versions: readonly string[];
  readonly versionSpan: SourceSpan | undefined;
  readonly routes: readonly RouteModel[];
  readonly guards: readonly GuardBinding[];
  readonly doc: string | undefined;
  readonly span: SourceSpan;
}

/** A transport that takes no `version` (spec §9.5), recorded to refuse one written on it. */
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
  readonly postures: readonly PostureModel[];
  readonly span: SourceSpan;
}

/** The lifecycle of one API version, declared on the root module (`versions`). */
export interface VersionPolicyModel {
  readonly version: string;
  /** `true`, or the date the version was deprecated. */
  readonly deprecated: true | string | undefined;
  readonly sunset: string | undefined;
  /** The module declaring it. */
  readonly module: string;
  readonly span: SourceSpan;
}

/** A module: what it imports and provides. Class names refer to declarations or built-ins. */
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

/** A class named in a module list, with where it is written. */
export interface ModuleEntry {
  readonly name: string;
  /** Where the class is declared; built-ins come from `runtime/`. */
  readonly source: SourceRef | undefined;
  readonly span: SourceSpan;
}

/** The whole application as declared. */
export interface AppModel {
  readonly entities: readonly EntityModel[];
  readonly enums: readonly EnumModel[];
  readonly inputs: readonly InputModel[];
  readonly providers: readonly ProviderModel[];
  readonly resolvers: readonly ResolverModel[];
  readonly controllers: readonly ControllerModel[];
  readonly gateways: readonly GatewayModel[];
  readonly unversionedTransports: readonly UnversionedTransportModel[];
  readonly modules: readonly ModuleModel[];
  readonly versionPolicies: readonly VersionPolicyModel[];
  /** Problems found while reading declarations (unreadable decorator arguments, …). */
  readonly parseProblems: readonly ParseProblem[];
}

/** Something `parse/` could not read; reported as a diagnostic by the `declaration-unreadable` rule. */
export interface ParseProblem {
  readonly message: string;
  readonly span: SourceSpan;
}
