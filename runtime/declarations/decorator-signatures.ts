/**
 * What each decorator of runtime/declarations/decorators.ts takes, as the generator reads it statically: its
 * arguments and the kind of value each one is, the option keys of its options object, where it
 * may be written, and what it needs beside it. The generator refuses anything else with a
 * diagnostic (an unknown decorator, an unknown option key, a value of the wrong kind, a decorator
 * where it would be ignored), so nothing written in a declaration is silently ignored.
 *
 * One place, checked by the compiler against the decorators themselves: the table has exactly one
 * entry per function runtime/declarations/decorators.ts exports ({@link DecoratorName}), and each options table
 * has exactly the keys of the options interface it describes ({@link options}), required keys
 * marked required and `never`-typed keys (`version` on a resolver, `via` on a belongs_to) marked
 * `refused` — so adding an option to an interface fails to compile until the generator is told
 * what kind of value it takes.
 *
 * Read by `generator/` only; inert at run time.
 */
import type * as Decorators from './decorators.js';
import type {
  ApiOperationOptions,
  BelongsToOptions,
  ColumnOptions,
  ControllerOptions,
  CronOptions,
  EntityOptions,
  GatewayOptions,
  HasManyOptions,
  ManyToManyOptions,
  McpHostOptions,
  McpToolOptions,
  ModuleOptions,
  OperationOptions,
  ResolveFieldOptions,
  ResolverOptions,
  ResourceOptions,
  RouteOptions,
  SubscriptionOptions,
  UnversionedOptions,
  VersionPolicy,
} from './decorators.js';
import type { HttpMethod } from '../http/routes.js';

type DecoratorExports = typeof Decorators;

/** The name of every decorator runtime/declarations/decorators.ts exports. */
export type DecoratorName = {
  [K in keyof DecoratorExports]: DecoratorExports[K] extends (...args: never[]) => unknown ? K : never;
}[keyof DecoratorExports];

/**
 * The kind of value an argument or option takes, as written in the declaration:
 * - `string`, `number`, `boolean`: a literal of that type; `true`: the literal `true`;
 * - `class`: the name of a class (declared in `entities/` or exported by the runtime);
 * - `value`: the name of an exported value (a zod schema), followed to its declaration;
 * - `thunk`: `() => ClassName`;
 * - `pipe`: a pipe class, or `new PipeClass(…)` whose arguments are literals or exported names;
 * - `refused`: a key the option types declare `never`, reported by a dedicated rule;
 * - `anyOf`, `listOf` (an array literal), `oneOf` (one of these strings), `options` (an object
 *   literal with these keys), `recordOf` (an object literal with any keys, values of one kind).
 */
export type ValueKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'true'
  | 'class'
  | 'value'
  | 'thunk'
  | 'pipe'
  | 'refused'
  | { readonly anyOf: readonly ValueKind[] }
  | { readonly listOf: ValueKind }
  | { readonly oneOf: readonly string[] }
  | { readonly options: OptionTable }
  | { readonly recordOf: ValueKind };

/** One option: its kind, wrapped in `required` when the options type requires the key. */
type OptionSpec = ValueKind | { readonly required: ValueKind };

/** The options an options object takes, by key. */
export type OptionTable = { readonly [key: string]: OptionSpec };

/**
 * The option table of options type `T`: exactly its keys; a required key takes `{ required: kind }`,
 * a `never`-typed key takes `'refused'`, an optional key takes its kind.
 */
type OptionKinds<T> = {
  readonly [K in keyof T]-?: [NonNullable<T[K]>] extends [never]
    ? 'refused'
    : Pick<T, K> extends Required<Pick<T, K>>
      ? { readonly required: ValueKind }
      : Exclude<ValueKind, 'refused'>;
};

/**
 * An `options` kind for options type `T`. Passing the table as an object literal makes the compiler
 * refuse a key `T` lacks and demand every key it has.
 */
function options<T>(table: OptionKinds<T>): { readonly options: OptionTable } {
  return { options: table };
}

/** Where a decorator is written. */
export type DecoratorTarget = 'class' | 'property' | 'method' | 'parameter' | 'constructor parameter';

/** One positional argument of a decorator. */
export interface ArgumentSpec {
  readonly name: string;
  readonly kind: ValueKind;
  readonly required?: true;
  /** How it is written, for messages: `() => Org`. */
  readonly example?: string;
}

/** What a decorator takes, where it acts, and what must be written beside it. */
export interface DecoratorSignature {
  /** What it may decorate. */
  readonly on: readonly DecoratorTarget[];
  /** Positional arguments. */
  readonly arguments: readonly ArgumentSpec[];
  /** Any number of further arguments, each of this kind (`@UseGuards(A, B)`). */
  readonly rest?: ArgumentSpec;
  /** For a member or parameter: the class must carry one of these, or the decorator is ignored. */
  readonly within?: readonly DecoratorName[];
  /** The same class or method (for a parameter: its method) must carry one of these, or it is ignored. */
  readonly beside?: readonly DecoratorName[];
  /** Route decorators: the HTTP method they declare. */
  readonly httpMethod?: HttpMethod;
}

const COMPLEXITY: ValueKind = { anyOf: ['string', 'number'] };
const VERSIONS: ValueKind = { anyOf: ['string', { listOf: 'string' }] };
const ROUTE_DECORATORS = ['Get', 'Post', 'Put', 'Patch', 'Delete'] as const satisfies readonly DecoratorName[];
const OPERATION_DECORATORS = ['Query', 'Mutation', 'Subscription'] as const satisfies readonly DecoratorName[];

const route = (httpMethod: HttpMethod): DecoratorSignature => ({
  on: ['method'],
  within: ['Controller'],
  httpMethod,
  arguments: [
    { name: 'path', kind: 'string', example: "':id'" },
    { name: 'options', kind: options<RouteOptions>({ pagination: { oneOf: ['cursor', 'none'] } }), example: "{ pagination: 'none' }" },
  ],
});

const OPERATION_OPTIONS = options<OperationOptions>({ name: 'string', deprecationReason: 'string', version: 'refused' });
const UNVERSIONED_OPTIONS = options<UnversionedOptions>({ version: 'refused' });
const RELATION_TARGET: ArgumentSpec = { name: 'target', kind: 'thunk', required: true, example: '() => Org' };

/** Every decorator of runtime/declarations/decorators.ts, by exported name. */
export const DECORATOR_SIGNATURES: { readonly [Name in DecoratorName]: DecoratorSignature } = {
  // Entities (docs/behaviour.md §2)
  Entity: {
    on: ['class'],
    arguments: [{ name: 'options', kind: options<EntityOptions>({ exposed: 'boolean' }), example: '{ exposed: false }' }],
  },
  PrimaryKey: { on: ['property'], within: ['Entity'], arguments: [] },
  Column: {
    on: ['property'],
    within: ['Entity'],
    arguments: [
      {
        name: 'options',
        kind: options<ColumnOptions>({
          default: { anyOf: ['string', 'number', 'boolean'] },
          unique: 'boolean',
          exposed: 'boolean',
          maxLength: 'number',
          minLength: 'number',
          min: 'number',
          max: 'number',
          pattern: 'string',
          format: { oneOf: ['email'] },
          deprecationReason: 'string',
        }),
        example: "{ default: 'draft' }",
      },
    ],
  },
  Resource: {
    on: ['class'],
    beside: ['Entity'],
    arguments: [
      {
        name: 'options',
        kind: options<ResourceOptions>({
          path: { required: 'string' },
          version: 'string',
          operations: { listOf: 'string' },
          public: { listOf: 'string' },
          pagination: { oneOf: ['cursor', 'none'] },
          complexity: COMPLEXITY,
        }),
        required: true,
        example: "{ path: 'comments', version: '2' }",
      },
    ],
  },
  Filterable: { on: ['property'], within: ['Entity'], beside: ['Column'], arguments: [] },
  Unique: { on: ['class'], beside: ['Entity'], arguments: [], rest: { name: 'column', kind: 'string', example: "'orgId', 'email'" } },
  BelongsTo: {
    on: ['property'],
    within: ['Entity'],
    arguments: [
      RELATION_TARGET,
      {
        name: 'options',
        kind: options<BelongsToOptions>({
          column: { required: 'string' },
          exposed: 'boolean',
          complexity: COMPLEXITY,
          deprecationReason: 'string',
          via: 'refused',
        }),
        required: true,
        example: "{ column: 'orgId' }",
      },
    ],
  },
  HasMany: {
    on: ['property'],
    within: ['Entity'],
    arguments: [
      RELATION_TARGET,
      {
        name: 'options',
        kind: options<HasManyOptions>({ via: 'string', exposed: 'boolean', complexity: COMPLEXITY, deprecationReason: 'string' }),
        example: "{ exposed: true, via: 'authorId' }",
      },
    ],
  },
  ManyToMany: {
    on: ['property'],
    within: ['Entity'],
    arguments: [
      RELATION_TARGET,
      {
        name: 'options',
        kind: options<ManyToManyOptions>({
          through: { required: 'thunk' },
          via: 'string',
          targetVia: 'string',
          exposed: 'boolean',
          complexity: COMPLEXITY,
          deprecationReason: 'string',
        }),
        required: true,
        example: '{ through: () => IssueLabel, exposed: true }',
      },
    ],
  },

  // Providers and modules
  Injectable: { on: ['class'], arguments: [] },
  Module: {
    on: ['class'],
    arguments: [
      {
        name: 'options',
        kind: options<ModuleOptions>({
          imports: { listOf: 'class' },
          providers: { listOf: 'class' },
          controllers: { listOf: 'class' },
          versions: { recordOf: options<VersionPolicy>({ deprecated: { anyOf: ['true', 'string'] }, sunset: 'string' }) },
        }),
        required: true,
        example: '{ imports: [UsersModule], providers: [UserService] }',
      },
    ],
  },
  Abilities: { on: ['class'], arguments: [] },

  // GraphQL transport (docs/behaviour.md §4.1)
  Resolver: {
    on: ['class'],
    arguments: [
      { name: 'entity', kind: 'thunk', example: '() => User' },
      { name: 'options', kind: options<ResolverOptions>({ version: 'refused' }) },
    ],
  },
  Query: { on: ['method'], within: ['Resolver'], arguments: [{ name: 'options', kind: OPERATION_OPTIONS, example: "{ name: 'users' }" }] },
  Mutation: {
    on: ['method'],
    within: ['Resolver'],
    arguments: [{ name: 'options', kind: OPERATION_OPTIONS, example: "{ name: 'createUser' }" }],
  },
  Subscription: {
    on: ['method'],
    within: ['Resolver'],
    arguments: [
      {
        name: 'options',
        kind: options<SubscriptionOptions>({ name: 'string', deprecationReason: 'string', version: 'refused', topic: 'string' }),
        example: "{ topic: 'postPublished' }",
      },
    ],
  },
  ResolveField: {
    on: ['method'],
    within: ['Resolver'],
    arguments: [
      {
        name: 'options',
        kind: options<ResolveFieldOptions>({ name: 'string', deprecationReason: 'string' }),
        example: "{ name: 'authorName' }",
      },
    ],
  },
  Complexity: {
    on: ['method'],
    within: ['Resolver'],
    beside: [...OPERATION_DECORATORS, 'ResolveField'],
    arguments: [{ name: 'expression', kind: COMPLEXITY, required: true, example: "'first * childComplexity'" }],
  },
  Args: {
    on: ['parameter'],
    beside: [...OPERATION_DECORATORS, 'ResolveField'],
    arguments: [],
    rest: { name: 'pipe', kind: 'pipe', example: 'new ZodValidationPipe(CreateUserSchema)' },
  },

  // Access postures (docs/behaviour.md §1, §5)
  Public: { on: ['method'], beside: [...OPERATION_DECORATORS, ...ROUTE_DECORATORS, 'SubscribeMessage'], arguments: [] },
  Authorized: {
    on: ['method'],
    beside: [...OPERATION_DECORATORS, ...ROUTE_DECORATORS, 'SubscribeMessage'],
    arguments: [
      { name: 'action', kind: 'string', required: true, example: "'read'" },
      { name: 'subject', kind: { anyOf: ['class', 'string'] }, required: true, example: 'User' },
    ],
  },
  // Guard chains exist for GraphQL operations only (docs/behaviour.md §5.2): on a module (global), a resolver or an operation.
  UseGuards: {
    on: ['class', 'method'],
    beside: ['Module', 'Resolver', ...OPERATION_DECORATORS],
    arguments: [],
    rest: { name: 'guard', kind: 'class', example: 'AuthenticationGuard' },
  },
  UsePipes: {
    on: ['method'],
    beside: [...OPERATION_DECORATORS, 'ResolveField', ...ROUTE_DECORATORS],
    arguments: [],
    rest: { name: 'pipe', kind: 'pipe', example: 'new ZodValidationPipe(Schema)' },
  },

  // HTTP transport (docs/behaviour.md §4.2, §4.3, §9)
  Controller: {
    on: ['class'],
    arguments: [
      {
        name: 'options',
        kind: { anyOf: ['string', options<ControllerOptions>({ path: 'string', version: VERSIONS })] },
        example: "{ path: 'posts', version: ['1', '2'] }",
      },
    ],
  },
  Get: route('GET'),
  Post: route('POST'),
  Put: route('PUT'),
  Patch: route('PATCH'),
  Delete: route('DELETE'),
  // On a GraphQL operation, a scheduled task or a listener it is read to be refused (rule version-on-unversioned-transport).
  Version: {
    on: ['method'],
    beside: [...ROUTE_DECORATORS, ...OPERATION_DECORATORS, 'Cron', 'OnEvent'],
    arguments: [],
    rest: { name: 'version', kind: 'string', example: "'2'" },
  },
  Body: {
    on: ['parameter'],
    beside: ROUTE_DECORATORS,
    arguments: [],
    rest: { name: 'pipe', kind: 'pipe', example: 'new ZodValidationPipe(CreatePostSchema)' },
  },
  Param: { on: ['parameter'], beside: ROUTE_DECORATORS, arguments: [], rest: { name: 'pipe', kind: 'pipe', example: 'ParseIdPipe' } },
  HttpCode: { on: ['method'], beside: ROUTE_DECORATORS, arguments: [{ name: 'status', kind: 'number', required: true, example: '200' }] },
  ApiTags: {
    on: ['class'],
    beside: ['Controller'],
    arguments: [{ name: 'tag', kind: 'string', required: true, example: "'Posts'" }],
    rest: { name: 'tag', kind: 'string', example: "'Posts', 'Drafts'" },
  },
  ApiOperation: {
    on: ['method'],
    beside: ROUTE_DECORATORS,
    arguments: [
      {
        name: 'options',
        kind: options<ApiOperationOptions>({ summary: 'string', description: 'string' }),
        required: true,
        example: "{ summary: 'Publishes a draft' }",
      },
    ],
  },

  // Other transports (docs/behaviour.md §9.5)
  Gateway: {
    on: ['class'],
    arguments: [
      {
        name: 'options',
        kind: options<GatewayOptions>({ path: { required: 'string' }, version: 'string' }),
        required: true,
        example: "{ path: 'ws', version: '1' }",
      },
    ],
  },
  SubscribeMessage: {
    on: ['method'],
    within: ['Gateway'],
    arguments: [{ name: 'event', kind: 'string', required: true, example: "'ping'" }],
  },
  McpHost: {
    on: ['class'],
    arguments: [{ name: 'options', kind: options<McpHostOptions>({ path: 'string', version: 'refused' }), example: "{ path: '/mcp/v1' }" }],
  },
  // Where it may go (a query, a mutation or a route) is rule mcp-tool-not-operation's, whose message says why.
  McpTool: {
    on: ['method'],
    arguments: [{ name: 'options', kind: options<McpToolOptions>({ name: 'string', title: 'string' }), example: "{ name: 'list_posts' }" }],
  },
  Processor: {
    on: ['class'],
    arguments: [
      { name: 'queue', kind: 'string', required: true, example: "'notifications'" },
      { name: 'options', kind: UNVERSIONED_OPTIONS },
    ],
  },
  Process: {
    on: ['method'],
    within: ['Processor'],
    arguments: [
      { name: 'name', kind: 'string', required: true, example: "'post-published'" },
      { name: 'schema', kind: 'value', required: true, example: 'PostPublishedJobSchema' },
    ],
  },
  InjectQueue: {
    on: ['constructor parameter'],
    arguments: [{ name: 'queue', kind: 'string', required: true, example: "'notifications'" }],
  },
  Cron: {
    on: ['method'],
    arguments: [
      { name: 'expression', kind: 'string', required: true, example: "'0 * * * *'" },
      { name: 'options', kind: options<CronOptions>({ name: 'string', version: 'refused' }), example: "{ name: 'writeDigests' }" },
    ],
  },
  OnEvent: {
    on: ['method'],
    arguments: [
      { name: 'event', kind: 'string', required: true, example: "'postPublished'" },
      { name: 'options', kind: UNVERSIONED_OPTIONS },
    ],
  },
};
