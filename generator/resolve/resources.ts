/**
 * Resources, resolved (docs/behaviour.md §4.7): each `@Resource` entity's operations decided once —
 * which of the five are generated, the route and GraphQL field of each, the action it is
 * authorized with and whether it is public — and then written out as the models a hand-written
 * resource has: a provider on the entity's repository, a controller with the REST routes, a
 * resolver with the GraphQL fields, and the create and update input types. Everything downstream
 * (mounting, rules, routes, SDL, OpenAPI, posture gates, masking) reads those like any other.
 * Names written in `operations` or `public` that cannot be honoured are kept for the rules that
 * report them (resource-operation-unknown, resource-public-not-generated).
 */
import type { DeclaredClass, DeclaredValue } from '../model/declarations.js';
import type { ResourceColumn, ResourceColumnConstraints } from '../../runtime/data/resource-input.js';
import type {
  ColumnModel,
  ControllerModel,
  EntityModel,
  GuardBinding,
  OperationModel,
  ParamBinding,
  ParamModel,
  ParamSource,
  ProviderModel,
  ResolverModel,
  ResourceModel,
  ResourceNameModel,
  ResourceOperationKind,
  ResourceOperationModel,
  RouteModel,
  WrittenPathModel,
} from '../model/model.js';
import { repositoryClass, repositoryModule, resourceClass, resourceInputName, resourceModule } from '../model/naming.js';
import type { DeprecationModel, InputModel, ReturnShape, SourceSpan, TypeShape } from '../model/types.js';
import { AUTHORIZATION_GUARD } from '../model/builtins.js';
import { guardChain } from './bindings.js';
import { fixedOnCreate, type Grants } from './grants.js';
import { pathParametersOf, readWrittenPath } from './route-paths.js';
import { argumentAt, DecoratorSet, expressionOf, optionOf, stringOf } from './values.js';

/** The operations in the order they are generated. */
export const RESOURCE_OPERATIONS: readonly ResourceOperationKind[] = ['list', 'get', 'create', 'update', 'delete'];

const isOperation = (name: string): name is ResourceOperationKind => (RESOURCE_OPERATIONS as readonly string[]).includes(name);
const lowerFirst = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

/** The names written in a list option, each with where it is written. */
function namesOf(value: DeclaredValue | undefined): ResourceNameModel[] {
  if (value?.kind !== 'array') return [];
  return value.items.flatMap((item) => (item.kind === 'string' ? [{ name: item.value, span: item.span }] : []));
}

/** Column `column` as an input reads it, or undefined when no input can carry its type. */
function inputColumnOf(column: ColumnModel, enumValues: ReadonlyMap<string, readonly string[]>): ResourceColumn | undefined {
  const { named } = column.type;
  if (column.type.list) return undefined;
  const base = {
    name: column.name,
    nullable: column.type.nullable,
    generated: column.primaryKey || column.default !== undefined,
    constraints: column.constraints,
  };
  if (named.kind === 'enum') {
    const [first, ...rest] = enumValues.get(named.name) ?? [];
    return first === undefined ? undefined : { ...base, type: { enum: [first, ...rest] } };
  }
  if (named.kind !== 'scalar') return undefined;
  const types = {
    ID: column.key ? 'id' : 'string',
    String: 'string',
    Int: 'int',
    Float: 'float',
    Boolean: 'boolean',
    DateTime: 'datetime',
  } as const;
  return { ...base, type: types[named.name] };
}

/** The route, GraphQL field and action of one operation of entity `entity` at `fullPath`. */
function operationOf(
  kind: ResourceOperationKind,
  entity: string,
  path: string,
  fullPath: string,
  isPublic: boolean,
): ResourceOperationModel {
  const single = lowerFirst(entity);
  switch (kind) {
    case 'list':
      return {
        kind,
        action: 'read',
        public: isPublic,
        method: 'GET',
        fullPath,
        fieldName: lowerFirst(path.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_match, letter: string) => letter.toUpperCase())),
        rootType: 'Query',
      };
    case 'get':
      return { kind, action: 'read', public: isPublic, method: 'GET', fullPath: `${fullPath}/:id`, fieldName: single, rootType: 'Query' };
    case 'create':
      return { kind, action: 'create', public: isPublic, method: 'POST', fullPath, fieldName: `create${entity}`, rootType: 'Mutation' };
    case 'update':
      return {
        kind,
        action: 'update',
        public: isPublic,
        method: 'PATCH',
        fullPath: `${fullPath}/:id`,
        fieldName: `update${entity}`,
        rootType: 'Mutation',
      };
    case 'delete':
      return {
        kind,
        action: 'delete',
        public: isPublic,
        method: 'DELETE',
        fullPath: `${fullPath}/:id`,
        fieldName: `delete${entity}`,
        rootType: 'Mutation',
      };
  }
}

const ID: TypeShape = { named: { kind: 'scalar', name: 'ID' }, list: false, nullable: false };

const characters = (count: number): string => `${count} character${count === 1 ? '' : 's'}`;

/** The constraints of a column in words, for the input field's description (GraphQL has no keywords for them). */
function constraintText(constraints: ResourceColumnConstraints): string | undefined {
  const parts = [
    constraints.minLength === undefined ? undefined : `at least ${characters(constraints.minLength)}`,
    constraints.maxLength === undefined ? undefined : `at most ${characters(constraints.maxLength)}`,
    constraints.min === undefined ? undefined : `at least ${constraints.min}`,
    constraints.max === undefined ? undefined : `at most ${constraints.max}`,
    constraints.pattern === undefined ? undefined : `matching /${constraints.pattern}/`,
    constraints.format === 'email' ? 'an email address' : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? `Must be ${parts.join(', ')}.` : undefined;
}

/**
 * The wire input of a resource's create or update (docs/behaviour.md §4.7). An update's fields are
 * all optional; a create's field is required (non-null) when the column needs a value and no
 * create rule of the grants fixes it — `fixed` (undefined when the grants could not be read: then
 * no field is required on the wire, and the input schema names a missing value at run time).
 */
function inputModelOf(
  entity: EntityModel,
  columns: readonly ResourceColumn[],
  mode: 'create' | 'update',
  span: SourceSpan,
  file: string,
  fixed: ReadonlySet<string> | undefined,
): InputModel {
  const fields = columns.flatMap((input) => {
    const column = entity.columnByName.get(input.name);
    if (!column) return [];
    const needed = mode === 'create' && !input.nullable && !input.generated;
    const required = needed && fixed !== undefined && !fixed.has(input.name);
    const note =
      !needed || required
        ? undefined
        : fixed === undefined
          ? 'Required, unless your grant to create sets it (then it may not be sent).'
          : 'Set by the create rule of some grants (then it may not be sent); required otherwise.';
    const description =
      [column.description, constraintText(input.constraints), note].filter((part): part is string => part !== undefined).join('\n\n') ||
      undefined;
    return [
      {
        name: column.name,
        type: { ...column.type, nullable: !required },
        constraints: input.constraints,
        // GraphQL cannot deprecate a required input field: callers must still send it (docs/behaviour.md §2.7).
        ...(column.deprecation && !required ? { deprecation: column.deprecation } : {}),
        doc: description,
        description,
        span,
      },
    ];
  });
  const verb = mode === 'create' ? 'create' : 'update';
  const description =
    mode === 'create' ? `What a ${entity.name} is created from.` : `What an update of a ${entity.name} changes: only the fields sent.`;
  return {
    kind: 'input',
    name: resourceInputName(entity.name, mode),
    fields,
    doc: `${description} (${verb}, docs/behaviour.md §4.7)`,
    description,
    span: { ...span, file },
  };
}

/** One parameter of a generated operation (of `entry`, as its shape lists it), read from `source` by `binding`. */
function param(entry: OperationShape['params'][number], source: ParamSource, binding: ParamBinding, span: SourceSpan): ParamModel {
  const { name, type, optional, deprecation } = entry;
  return { name, type, optional, source, binding, pipes: [], ...(deprecation ? { deprecation } : {}), span };
}

/** What each operation's method takes and returns, and the words callers read about it. */
interface OperationShape {
  readonly params: readonly {
    readonly name: string;
    readonly type: TypeShape;
    readonly rest: ParamSource;
    readonly restBinding: ParamBinding;
    readonly optional: boolean;
    /** A filter on a deprecated column is deprecated with it (docs/behaviour.md §2.7). */
    readonly deprecation?: DeprecationModel;
  }[];
  readonly returns: ReturnShape;
  readonly summary: string;
  readonly description: string;
}

/**
 * What a create's description says of the values a create rule fixes (docs/behaviour.md §4.7), in
 * this application's own words: the fields the grants fix (`fixed`, generator/resolve/grants.ts
 * `fixedOnCreate`), named; nothing when they fix none; when the grants could not be read, that
 * such values may exist, naming none.
 */
function fixedText(fixed: ReadonlySet<string> | undefined): string | undefined {
  if (fixed === undefined) return "A value the caller's create rule sets may not be sent.";
  const fields = [...fixed].sort().map((field) => `\`${field}\``);
  if (fields.length === 0) return undefined;
  const named = fields.length === 1 ? fields.join('') : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1) ?? ''}`;
  return `${named} ${fields.length === 1 ? 'is' : 'are'} set by the create rule of some grants, and then may not be sent.`;
}

function shapeOf(
  resource: {
    readonly entity: EntityModel;
    readonly path: string;
    readonly pagination: 'cursor' | 'none';
    readonly filters: readonly ColumnModel[];
    /** The fields some create rule fixes (generator/resolve/grants.ts `fixedOnCreate`); undefined when the grants could not be read. */
    readonly fixedOnCreate: ReadonlySet<string> | undefined;
  },
  kind: ResourceOperationKind,
): OperationShape {
  const name = resource.entity.name;
  const entity: TypeShape = { named: { kind: 'entity', name }, list: false, nullable: false };
  const input = (mode: 'create' | 'update'): TypeShape => ({
    named: { kind: 'input', name: resourceInputName(name, mode) },
    list: false,
    nullable: false,
  });
  const id = { name: 'id', type: ID, rest: 'path' as const, restBinding: 'pathText' as const, optional: false };
  const one: ReturnShape = { kind: 'value', type: entity, result: true, promised: true };
  const notFound = `A row that does not exist and one the caller may not read look the same: not found.`;
  switch (kind) {
    case 'list': {
      const filters = resource.filters.map((column) => ({
        name: column.name,
        type: { ...column.type, nullable: true },
        rest: 'query' as const,
        restBinding: 'query' as const,
        optional: true,
        ...(column.deprecation ? { deprecation: column.deprecation } : {}),
      }));
      if (resource.pagination === 'none') {
        return {
          params: filters,
          returns: { kind: 'value', type: { ...entity, list: true }, result: false, promised: true },
          summary: `List every ${name} the caller may read.`,
          description: `The whole collection in the caller's row scope, capped at 1 000 rows${filters.length > 0 ? '; each filter given keeps the rows whose column equals it' : ''}.`,
        };
      }
      const page = [
        {
          name: 'first',
          type: { named: { kind: 'scalar', name: 'Int' }, list: false, nullable: true } satisfies TypeShape,
          rest: 'query' as const,
          restBinding: 'pageSize' as const,
          optional: true,
        },
        {
          name: 'after',
          type: { named: { kind: 'scalar', name: 'String' }, list: false, nullable: true } satisfies TypeShape,
          rest: 'query' as const,
          restBinding: 'cursor' as const,
          optional: true,
        },
      ];
      return {
        params: [...page, ...filters],
        returns: { kind: 'page', item: entity.named, result: false, promised: true },
        summary: `List the ${name} rows the caller may read, a keyset page at a time.`,
        description: `Oldest first; pass the last id as \`after\` for the next page${filters.length > 0 ? '; each filter given keeps the rows whose column equals it' : ''}.`,
      };
    }
    case 'get':
      return { params: [id], returns: one, summary: `One ${name} by id.`, description: notFound };
    case 'create':
      return {
        params: [{ name: 'input', type: input('create'), rest: 'body', restBinding: 'body', optional: false }],
        returns: one,
        summary: `Create a ${name}.`,
        description: [fixedText(resource.fixedOnCreate), 'A value breaking a unique constraint is a conflict.']
          .filter((part) => part !== undefined)
          .join(' '),
      };
    case 'update':
      return {
        params: [id, { name: 'input', type: input('update'), rest: 'body', restBinding: 'body', optional: false }],
        returns: one,
        summary: `Update a ${name}: only the fields sent.`,
        description: `Only fields the caller's update rule permits may be sent. ${notFound}`,
      };
    case 'delete':
      return {
        params: [id],
        returns: { kind: 'void', promised: true },
        summary: `Delete a ${name}.`,
        description: `A row the caller may read but not delete is forbidden, and nothing changes. ${notFound}`,
      };
  }
}

/** The posture of a generated operation: public when named so, else authorized with its action on the entity. */
function postureOf(operation: ResourceOperationModel, entity: string, span: SourceSpan): RouteModel['posture'] & object {
  return operation.public
    ? { kind: 'public', span }
    : { kind: 'authorized', action: operation.action, actionSpan: span, subject: entity, subjectSpan: span, span };
}

interface ResourceCore {
  readonly entity: EntityModel;
  readonly complexity: string | undefined;
  readonly complexitySpan: SourceSpan | undefined;
  readonly path: string;
  /** `path:` as written, read by path-to-regexp (generator/resolve/route-paths.ts). */
  readonly writtenPath: WrittenPathModel;
  readonly fullPath: string;
  readonly version: string | undefined;
  readonly pagination: 'cursor' | 'none';
  readonly filters: readonly ColumnModel[];
  /** The fields some create rule fixes (generator/resolve/grants.ts); undefined when the grants could not be read. */
  readonly fixedOnCreate: ReadonlySet<string> | undefined;
  readonly operations: readonly ResourceOperationModel[];
  readonly className: string;
  readonly file: string;
  readonly span: SourceSpan;
}

/** A resource's OpenAPI tag: its path in words, capitalised (`audit-records` → `Audit records`). */
function tagOf(path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The REST routes of a resource, as a generated controller. */
function controllerOf(core: ResourceCore): ControllerModel {
  const versions = core.version === undefined ? [] : [core.version];
  const routes = core.operations.map((operation): RouteModel => {
    const shape = shapeOf(core, operation.kind);
    const params = shape.params.map((entry) => param(entry, entry.rest, entry.restBinding, core.span));
    const posture = postureOf(operation, core.entity.name, core.span);
    const isPage = shape.returns.kind === 'page';
    const path = operation.fullPath.slice(core.fullPath.length).replace(/^\//, '');
    const writtenPath = readWrittenPath(path, undefined, { under: core.writtenPath.parameters });
    return {
      kind: 'route',
      method: operation.method,
      path,
      writtenPath,
      fullPath: operation.fullPath,
      pathParameters: pathParametersOf([core.writtenPath, writtenPath]),
      methodName: operation.kind,
      owner: core.className,
      file: core.file,
      params,
      returns: shape.returns,
      returnedEntity: core.entity.name,
      reply: isPage ? 'page' : shape.returns.kind === 'void' ? 'empty' : shape.returns.type.list ? 'list' : 'value',
      status: operation.method === 'POST' ? 201 : shape.returns.kind === 'void' ? 204 : 200,
      takesBody: params.some((entry) => entry.source === 'body'),
      posture,
      postures: [posture],
      versions,
      routeVersions: undefined,
      versionSpan: undefined,
      pagination: operation.kind === 'list' ? core.pagination : undefined,
      paginationKnown: true,
      page: isPage
        ? { first: params.find((entry) => entry.binding === 'pageSize'), after: params.find((entry) => entry.binding === 'cursor') }
        : undefined,
      operationText: { summary: shape.summary, description: shape.description },
      doc: `${shape.summary} Generated by @Resource on ${core.entity.name} (docs/behaviour.md §4.7).`,
      description: `${shape.summary} ${shape.description}`,
      span: core.span,
    };
  });
  return {
    kind: 'controller',
    name: core.className,
    file: core.file,
    path: core.path,
    writtenPath: core.writtenPath,
    versions,
    versionTokens: [],
    versionsKnown: true,
    versionSpan: undefined,
    routes,
    // Tagged like the demo's controllers: the collection in words, capitalised (`Comments`, `Audit records`).
    tags: [tagOf(core.path)],
    resource: core.entity.name,
    doc: core.entity.doc,
    description: core.entity.description,
    span: core.span,
  };
}

/** The GraphQL fields of a resource, as a generated resolver; `rootGuards` are the root module's guards. */
function resolverOf(core: ResourceCore, rootGuards: readonly GuardBinding[]): ResolverModel {
  // The authorization guard seeds the ability every generated field is authorized with (docs/behaviour.md §5.3).
  const guards: GuardBinding[] = [{ name: AUTHORIZATION_GUARD.ref.exportName, ref: AUTHORIZATION_GUARD.ref, span: core.span }];
  const chain = guardChain(rootGuards, guards);
  const operations = core.operations.map((operation): OperationModel => {
    const shape = shapeOf(core, operation.kind);
    const posture = postureOf(operation, core.entity.name, core.span);
    return {
      kind: 'operation',
      operationType: operation.rootType === 'Query' ? 'query' : 'mutation',
      rootType: operation.rootType,
      fieldName: operation.fieldName,
      methodName: operation.kind,
      owner: core.className,
      file: core.file,
      params: shape.params.map((entry) => param(entry, 'arg', 'argument', core.span)),
      returns: shape.returns,
      returnedEntity: core.entity.name,
      posture,
      postures: [posture],
      guards: [],
      guardChain: chain,
      complexity: operation.kind === 'list' ? core.complexity : undefined,
      complexitySpan: operation.kind === 'list' ? core.complexitySpan : undefined,
      deprecation: undefined,
      itemParam: undefined,
      topic: undefined,
      eventEntity: undefined,
      versionSpan: undefined,
      doc: `${shape.summary} Generated by @Resource on ${core.entity.name} (docs/behaviour.md §4.7).`,
      description: `${shape.summary} ${shape.description}`,
      span: core.span,
    };
  });
  return {
    kind: 'resolver',
    name: core.className,
    file: core.file,
    entity: undefined,
    entitySpan: undefined,
    entityWritten: false,
    operations,
    fieldResolvers: [],
    guards,
    versionSpan: undefined,
    resource: core.entity.name,
    span: core.span,
  };
}

/** The provider the container constructs for a resource: its class on the entity's repository. */
function providerOf(core: ResourceCore, outputDir: string): ProviderModel {
  const repository = repositoryClass(core.entity.name);
  return {
    kind: 'provider',
    name: core.className,
    role: 'controller',
    source: { file: core.file, exportName: core.className },
    dependencies: [
      {
        parameterName: 'repository',
        typeName: repository,
        source: { file: `${outputDir}/${repositoryModule(core.entity.name)}`, exportName: repository },
        target: { kind: 'repository', entity: core.entity.name },
        span: core.span,
      },
    ],
    methodByName: new Map(),
    span: core.span,
  };
}

/**
 * Resolves every `@Resource` entity (docs/behaviour.md §4.7).
 *
 * Takes the declared classes, the resolved entities by name, the values of each declared enum, the
 * root module's guards (first in every GraphQL field's chain), the output folder relative to
 * the project root (`generated`: the generated classes live there) and the grants read from the
 * abilities (which create fields they fix, generator/resolve/grants.ts); returns one resource per entity
 * carrying `@Resource` (one written on a class that is not an entity is decorator-misplaced's), sorted by
 * name. `operations` defaults to all five; the list field is the path in camelCase
 * (`comments`), the others are named after the entity (`comment`, `createComment`, …).
 */
export function resolveResources(
  classes: readonly DeclaredClass[],
  entityByName: ReadonlyMap<string, EntityModel>,
  enumValues: ReadonlyMap<string, readonly string[]>,
  rootGuards: readonly GuardBinding[],
  outputDir: string,
  grants: Grants,
): ResourceModel[] {
  const resources: ResourceModel[] = [];
  for (const cls of classes) {
    const decorator = new DecoratorSet(cls.decorators).first('Resource');
    const entity = cls.name === undefined ? undefined : entityByName.get(cls.name);
    if (!decorator || !entity) continue;
    const options = argumentAt(decorator, 0);
    const pathValue = optionOf(options, 'path');
    const pathText = stringOf(pathValue);
    const writtenPath = readWrittenPath(pathText ?? '', pathText === undefined ? undefined : pathValue?.span, { resource: true });
    const path = writtenPath.text.replace(/^\/+|\/+$/g, '');
    const fullPath = `/${path}`;
    const operationsWritten = optionOf(options, 'operations');
    const written =
      operationsWritten === undefined ? RESOURCE_OPERATIONS.map((name) => ({ name, span: decorator.span })) : namesOf(operationsWritten);
    const chosen = new Set(written.flatMap((entry) => (isOperation(entry.name) ? [entry.name] : [])));
    const publicNames = namesOf(optionOf(options, 'public'));
    const publicChosen = new Set(publicNames.map((entry) => entry.name));
    // The key and server timestamps (`default: 'now'`) are the server's; hidden columns are not on the wire.
    const inputColumns = entity.columns.flatMap((column) =>
      column.exposed && !column.primaryKey && column.default !== 'now' ? (inputColumnOf(column, enumValues) ?? []) : [],
    );
    const file = `${outputDir}/${resourceModule(entity.name)}`;
    const complexity = optionOf(options, 'complexity');
    const fixed = fixedOnCreate(grants, entity.name);
    const core: ResourceCore = {
      entity,
      complexity: expressionOf(complexity),
      complexitySpan: complexity?.span,
      path,
      writtenPath,
      fullPath,
      version: stringOf(optionOf(options, 'version')),
      pagination: stringOf(optionOf(options, 'pagination')) === 'none' ? 'none' : 'cursor',
      filters: entity.columns.filter((column) => column.filterable && column.exposed && !column.type.list),
      fixedOnCreate: fixed,
      operations: RESOURCE_OPERATIONS.filter((kind) => chosen.has(kind)).map((kind) =>
        operationOf(kind, entity.name, path, fullPath, publicChosen.has(kind)),
      ),
      className: resourceClass(entity.name),
      file,
      span: decorator.span,
    };
    resources.push({
      ...core,
      name: entity.name,
      inputColumns,
      createInput: inputModelOf(entity, inputColumns, 'create', decorator.span, file, fixed),
      updateInput: inputModelOf(entity, inputColumns, 'update', decorator.span, file, undefined),
      provider: providerOf(core, outputDir),
      controller: controllerOf(core),
      resolver: resolverOf(core, rootGuards),
      unknownOperations: written.filter((entry) => !isOperation(entry.name)),
      unknownPublic: publicNames.filter((entry) => !isOperation(entry.name) || !chosen.has(entry.name)),
    });
  }
  return resources.sort((a, b) => a.name.localeCompare(b.name));
}
