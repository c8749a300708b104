/**
 * Reads `entities/` into the intermediate model (STYLE.md pipeline: parse → model). Walks every
 * decorated class, reads decorator arguments, parameter and return types, JSDoc and spans.
 * Never throws on bad declarations: what it cannot read becomes a `ParseProblem` or an
 * `unsupported` type, which validation rules report with `file:line:col`.
 */
import { type ClassDeclaration, type Decorator, type MethodDeclaration, Node, type ParameterDeclaration, type PropertyDeclaration, SyntaxKind } from './ts-morph.js';
import type {
  AppModel,
  BelongsToModel,
  ColumnModel,
  ControllerModel,
  DependencyModel,
  EntityModel,
  FieldResolverModel,
  GatewayModel,
  GuardBinding,
  HasManyModel,
  MethodCallModel,
  MethodModel,
  HttpMethod,
  ModuleEntry,
  ModuleModel,
  OperationModel,
  ParamModel,
  ParamSource,
  ParseProblem,
  PipeArgument,
  PipeModel,
  PostureModel,
  ProviderModel,
  ProviderRole,
  RelationModel,
  ResolverModel,
  RouteModel,
  SourceSpan,
  UnversionedTransportModel,
  VersionPolicyModel,
} from '../model/model.js';
import { fieldNameOf } from '../model/naming.js';
import { loadDeclarationProject, type ProjectLayout } from './project.js';
import { type DecoratorValue, decoratorArguments, decoratorsByName, docOf, ReferenceResolver, relativeFile, spanOf } from './references.js';
import { TypeReader, type TypeRegistry } from './types.js';

const HTTP_METHODS: Record<string, HttpMethod> = { Get: 'GET', Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };
const OPERATION_TYPES = { Query: 'query', Mutation: 'mutation', Subscription: 'subscription' } as const;

/** Options of {@link parseDeclarations}. */
export interface ParseOptions {
  /** Add files in reverse order (determinism tests: output must not depend on it). */
  readonly fileOrder?: 'sorted' | 'reversed';
}

/**
 * Parses every declaration under `layout.entitiesDir` into an {@link AppModel}.
 * Pure with respect to the file system content: same files, same model.
 */
export function parseDeclarations(layout: ProjectLayout, options: ParseOptions = {}): AppModel {
  const { declarationFiles } = loadDeclarationProject(layout, options.fileOrder);
  const resolver = new ReferenceResolver(layout);
  const classes = declarationFiles.flatMap((file) => file.getClasses());

  const entityKeys = new Set<string>();
  for (const cls of classes) {
    if (decoratorsByName(resolver, cls.getDecorators()).has('Entity') && cls.getName()) {
      entityKeys.add(`${relativeFile(layout, cls.getSourceFile().getFilePath())}#${cls.getName()}`);
    }
  }
  const registry: TypeRegistry = { enums: new Map(), inputs: new Map(), entityKeys };
  const reader = new DeclarationReader(layout, resolver, new TypeReader(layout, resolver, registry));
  for (const cls of classes) reader.readClass(cls);

  const byName = <T extends { name: string }>(items: T[]): T[] => items.sort((a, b) => a.name.localeCompare(b.name));
  return {
    entities: byName(reader.entities),
    enums: [...registry.enums.values()].sort((a, b) => a.name.localeCompare(b.name)),
    inputs: [...registry.inputs.values()].sort((a, b) => a.name.localeCompare(b.name)),
    providers: byName(reader.providers),
    resolvers: byName(reader.resolvers),
    controllers: byName(reader.controllers),
    gateways: byName(reader.gateways),
    unversionedTransports: reader.unversionedTransports.sort((a, b) => a.name.localeCompare(b.name) || a.span.line - b.span.line),
    modules: byName(reader.modules),
    versionPolicies: reader.versionPolicies.sort((a, b) => a.version.localeCompare(b.version)),
    parseProblems: reader.problems,
  };
}

class DeclarationReader {
  readonly entities: EntityModel[] = [];
  readonly providers: ProviderModel[] = [];
  readonly resolvers: ResolverModel[] = [];
  readonly controllers: ControllerModel[] = [];
  readonly gateways: GatewayModel[] = [];
  readonly unversionedTransports: UnversionedTransportModel[] = [];
  readonly modules: ModuleModel[] = [];
  readonly versionPolicies: VersionPolicyModel[] = [];
  readonly problems: ParseProblem[] = [];

  constructor(
    private readonly layout: ProjectLayout,
    private readonly resolver: ReferenceResolver,
    private readonly types: TypeReader,
  ) {}

  private span(node: Node): SourceSpan {
    return spanOf(this.layout, node);
  }

  private problem(node: Node, message: string): void {
    this.problems.push({ message, span: this.span(node) });
  }

  readClass(cls: ClassDeclaration): void {
    const name = cls.getName();
    const decorators = decoratorsByName(this.resolver, cls.getDecorators());
    if (decorators.size === 0) {
      this.readStandaloneMethods(cls);
      return;
    }
    if (!name) {
      this.problem(cls, 'a decorated class must be named and exported');
      return;
    }
    const source = { file: relativeFile(this.layout, cls.getSourceFile().getFilePath()), exportName: name };
    if (!cls.isExported()) this.problem(cls.getNameNode() ?? cls, `${name} is decorated but not exported; export it so generated code can import it`);
    const first = (decoratorName: string): Decorator | undefined => decorators.get(decoratorName)?.[0];

    const entity = first('Entity');
    if (entity) this.entities.push(this.readEntity(cls, name, source, entity, decorators.get('Unique') ?? []));
    const module = first('Module');
    if (module) this.modules.push(this.readModule(cls, name, module));

    const role = this.roleOf(decorators);
    if (role) this.providers.push({ kind: 'provider', name, role, source, dependencies: this.readDependencies(cls), methods: this.readMethods(cls), span: this.span(cls.getNameNode() ?? cls) });

    const resolverDecorator = first('Resolver');
    if (resolverDecorator) this.resolvers.push(this.readResolver(cls, name, resolverDecorator));
    const controller = first('Controller');
    if (controller) this.controllers.push(this.readController(cls, name, controller));
    const gateway = first('Gateway');
    if (gateway) this.gateways.push(this.readGateway(cls, name, gateway));
    for (const [decoratorName, transport] of [['McpHost', 'mcpHost'], ['Processor', 'processor']] as const) {
      const decorator = first(decoratorName);
      if (!decorator) continue;
      this.unversionedTransports.push({ kind: 'unversionedTransport', transport, name, versionSpan: this.versionOption(decorator), span: this.span(decorator) });
    }
    this.readStandaloneMethods(cls);
  }

  private roleOf(decorators: Map<string, Decorator[]>): ProviderRole | undefined {
    if (decorators.has('Resolver')) return 'resolver';
    if (decorators.has('Controller')) return 'controller';
    if (decorators.has('Abilities')) return 'abilities';
    if (decorators.has('Gateway')) return 'gateway';
    if (decorators.has('McpHost')) return 'mcpHost';
    if (decorators.has('Processor')) return 'processor';
    if (decorators.has('Injectable')) return 'service';
    return undefined;
  }

  /** Scheduled tasks and in-process listeners live on any class (spec §9.5). */
  private readStandaloneMethods(cls: ClassDeclaration): void {
    for (const method of cls.getMethods()) {
      const decorators = decoratorsByName(this.resolver, method.getDecorators());
      for (const [decoratorName, transport] of [['Cron', 'cron'], ['OnEvent', 'listener']] as const) {
        const decorator = decorators.get(decoratorName)?.[0];
        if (!decorator) continue;
        const versionDecorator = decorators.get('Version')?.[0];
        this.unversionedTransports.push({
          kind: 'unversionedTransport',
          transport,
          name: `${cls.getName() ?? '<anonymous>'}.${method.getName()}`,
          versionSpan: this.versionOption(decorator) ?? (versionDecorator ? this.span(versionDecorator) : undefined),
          span: this.span(decorator),
        });
      }
    }
  }

  /** The span of a `version:` key in a decorator's option objects, if written. */
  private versionOption(decorator: Decorator): SourceSpan | undefined {
    for (const argument of decoratorArguments(decorator)) {
      if (argument.kind !== 'object') continue;
      const version = argument.properties.get('version');
      if (version) return this.span(version.node.getParentOrThrow());
    }
    return undefined;
  }

  // ------------------------------------------------------------------------------- entities

  private readEntity(cls: ClassDeclaration, name: string, source: { file: string; exportName: string }, decorator: Decorator, uniqueDecorators: Decorator[]): EntityModel {
    const options = this.objectArgument(decorator, 0);
    const exposed = this.booleanOption(options, 'exposed') ?? true;
    const columns: ColumnModel[] = [];
    const relations: RelationModel[] = [];
    for (const property of cls.getProperties()) {
      const decorators = decoratorsByName(this.resolver, property.getDecorators());
      const primaryKey = decorators.get('PrimaryKey')?.[0];
      const column = decorators.get('Column')?.[0];
      const belongsTo = decorators.get('BelongsTo')?.[0];
      const hasMany = decorators.get('HasMany')?.[0];
      if (primaryKey || column) columns.push(this.readColumn(property, primaryKey !== undefined, column));
      if (belongsTo) relations.push(this.readBelongsTo(property, belongsTo));
      if (hasMany) relations.push(this.readHasMany(property, hasMany));
    }
    const foreignKeys = new Set(relations.filter((relation): relation is BelongsToModel => relation.kind === 'belongsTo').map((relation) => relation.column));
    // Keys are IDs on the wire: the primary key and every belongs_to column.
    const wireColumns = columns.map((column): ColumnModel =>
      (column.primaryKey || foreignKeys.has(column.name)) && column.type.named.kind === 'scalar' && column.type.named.name === 'String'
        ? { ...column, type: { ...column.type, named: { kind: 'scalar', name: 'ID' } } }
        : column,
    );
    const uniques = uniqueDecorators.map((unique) =>
      decoratorArguments(unique).flatMap((argument) => (argument.kind === 'string' ? [argument.value] : [])),
    );
    return { kind: 'entity', name, source, exposed, columns: wireColumns, relations, uniques, doc: docOf(cls), span: this.span(cls.getNameNode() ?? cls) };
  }

  private readColumn(property: PropertyDeclaration, primaryKey: boolean, decorator: Decorator | undefined): ColumnModel {
    const options = decorator ? this.objectArgument(decorator, 0) : undefined;
    const defaultValue = options?.properties.get('default');
    return {
      kind: 'column',
      name: property.getName(),
      type: this.types.readShape(property.getTypeNode(), property.hasQuestionToken()),
      primaryKey,
      unique: this.booleanOption(options, 'unique') ?? false,
      default: defaultValue && (defaultValue.kind === 'string' || defaultValue.kind === 'number' || defaultValue.kind === 'boolean') ? defaultValue.value : undefined,
      exposed: this.booleanOption(options, 'exposed') ?? true,
      doc: docOf(property),
      span: this.span(property.getNameNode()),
    };
  }

  private relationTarget(decorator: Decorator): string {
    const thunk = decoratorArguments(decorator)[0];
    if (thunk?.kind === 'thunk' && thunk.body.kind === 'identifier') {
      return this.resolver.resolve(thunk.body.identifier)?.ref.exportName ?? thunk.body.identifier.getText();
    }
    this.problem(decorator, 'the relation target must be written as a thunk: () => Entity');
    return '<unreadable>';
  }

  private readBelongsTo(property: PropertyDeclaration, decorator: Decorator): BelongsToModel {
    const options = this.objectArgument(decorator, 1);
    const column = this.stringOption(options, 'column');
    if (column === undefined) this.problem(decorator, `@BelongsTo on ${property.getName()} must name its column: { column: '${property.getName()}Id' }`);
    const via = options?.properties.get('via');
    return {
      kind: 'belongsTo',
      name: property.getName(),
      target: this.relationTarget(decorator),
      column: column ?? '<missing>',
      exposed: this.booleanOption(options, 'exposed') ?? false,
      viaSpan: via ? this.span(via.node.getParentOrThrow()) : undefined,
      complexity: this.complexityOption(options),
      nullable: property.hasQuestionToken(),
      doc: docOf(property),
      span: this.span(property.getNameNode()),
    };
  }

  private readHasMany(property: PropertyDeclaration, decorator: Decorator): HasManyModel {
    const options = this.objectArgument(decorator, 1);
    return {
      kind: 'hasMany',
      name: property.getName(),
      target: this.relationTarget(decorator),
      via: this.stringOption(options, 'via'),
      exposed: this.booleanOption(options, 'exposed') ?? false,
      complexity: this.complexityOption(options),
      doc: docOf(property),
      span: this.span(property.getNameNode()),
    };
  }

  private complexityOption(options: ObjectValue | undefined): string | undefined {
    const value = options?.properties.get('complexity');
    if (!value) return undefined;
    if (value.kind === 'string') return value.value;
    if (value.kind === 'number') return String(value.value);
    this.problem(value.node, 'complexity must be a number or a string expression over first and childComplexity');
    return undefined;
  }

  // ------------------------------------------------------------------------------- modules

  private readModule(cls: ClassDeclaration, name: string, decorator: Decorator): ModuleModel {
    const options = this.objectArgument(decorator, 0);
    const entries = (key: string): ModuleEntry[] => {
      const value = options?.properties.get(key);
      if (!value) return [];
      if (value.kind !== 'array') {
        this.problem(value.node, `${key} must be an array of classes`);
        return [];
      }
      return value.items.flatMap((item): ModuleEntry[] => {
        if (item.kind !== 'identifier') {
          this.problem(item.node, `${key} entries must be class names`);
          return [];
        }
        const resolved = this.resolver.resolve(item.identifier);
        return [{ name: resolved?.ref.exportName ?? item.identifier.getText(), source: resolved?.ref, span: this.span(item.node) }];
      });
    };
    const versions = options?.properties.get('versions');
    if (versions?.kind === 'object') {
      for (const [version, policyValue] of versions.properties) {
        if (policyValue.kind !== 'object') {
          this.problem(policyValue.node, `the policy of version ${version} must be an object: { deprecated: true, sunset: '2027-06-30' }`);
          continue;
        }
        const deprecated = policyValue.properties.get('deprecated');
        if (deprecated && !(deprecated.kind === 'boolean' && deprecated.value) && deprecated.kind !== 'string') this.problem(deprecated.node, "deprecated must be true or a date such as '2026-01-31'");
        this.versionPolicies.push({
          version,
          deprecated: deprecated?.kind === 'string' ? deprecated.value : deprecated?.kind === 'boolean' && deprecated.value ? true : undefined,
          sunset: this.stringOption(policyValue, 'sunset'),
          module: name,
          span: this.span(policyValue.node.getParentOrThrow()),
        });
      }
    } else if (versions) {
      this.problem(versions.node, "versions must be an object literal: { '1': { deprecated: true } }");
    }
    const guards = this.readGuards(decoratorsByName(this.resolver, cls.getDecorators()).get('UseGuards') ?? []);
    return { kind: 'module', name, guards, imports: entries('imports'), providers: entries('providers'), controllers: entries('controllers'), span: this.span(cls.getNameNode() ?? cls) };
  }

  /**
   * The calls each method body makes that can be followed statically (`this.x.m(…)` through a
   * constructor parameter `x`, `this.m(…)`), and its calls of the runtime's `runUnscoped`. Nested
   * functions count as the method's own: a callback it passes on runs on its behalf.
   */
  private readMethods(cls: ClassDeclaration): MethodModel[] {
    const parameters = new Set((cls.getConstructors()[0]?.getParameters() ?? []).map((parameter) => parameter.getName()));
    const methods: MethodModel[] = [];
    for (const method of cls.getMethods()) {
      const body = method.getBody();
      if (!body) continue;
      const calls: MethodCallModel[] = [];
      const unscopedCalls: SourceSpan[] = [];
      for (const call of body.getDescendantsOfKind(SyntaxKind.CallExpression)) {
        const callee = call.getExpression();
        if (Node.isIdentifier(callee)) {
          const resolved = this.resolver.resolve(callee);
          if (resolved?.ref.file === 'runtime/context.ts' && resolved.ref.exportName === 'runUnscoped') unscopedCalls.push(this.span(callee));
          continue;
        }
        if (!Node.isPropertyAccessExpression(callee)) continue;
        const target = callee.getExpression();
        if (target.getKind() === SyntaxKind.ThisKeyword) {
          calls.push({ dependency: undefined, method: callee.getName(), span: this.span(callee.getNameNode()) });
        } else if (Node.isPropertyAccessExpression(target) && target.getExpression().getKind() === SyntaxKind.ThisKeyword && parameters.has(target.getName())) {
          calls.push({ dependency: target.getName(), method: callee.getName(), span: this.span(callee.getNameNode()) });
        }
      }
      methods.push({ name: method.getName(), calls, unscopedCalls });
    }
    return methods;
  }

  private readDependencies(cls: ClassDeclaration): DependencyModel[] {
    const constructor = cls.getConstructors()[0];
    if (!constructor) return [];
    return constructor.getParameters().map((parameter) => {
      const typeNode = parameter.getTypeNode();
      const typeName = typeNode && Node.isTypeReference(typeNode) ? typeNode.getTypeName() : undefined;
      const resolved = typeName && Node.isIdentifier(typeName) ? this.resolver.resolve(typeName) : undefined;
      return {
        parameterName: parameter.getName(),
        typeName: resolved?.ref.exportName ?? typeNode?.getText() ?? '(untyped)',
        source: resolved?.ref,
        span: this.span(parameter),
      };
    });
  }

  // ------------------------------------------------------------------------------- GraphQL

  private readResolver(cls: ClassDeclaration, name: string, decorator: Decorator): ResolverModel {
    const thunk = decoratorArguments(decorator)[0];
    const entity = thunk?.kind === 'thunk' && thunk.body.kind === 'identifier' ? this.resolver.resolve(thunk.body.identifier)?.ref.exportName : undefined;
    const operations: OperationModel[] = [];
    const fieldResolvers: FieldResolverModel[] = [];
    for (const method of cls.getMethods()) {
      const decorators = decoratorsByName(this.resolver, method.getDecorators());
      for (const [decoratorName, operationType] of Object.entries(OPERATION_TYPES)) {
        const operationDecorator = decorators.get(decoratorName)?.[0];
        if (operationDecorator) operations.push(this.readOperation(name, method, decorators, operationDecorator, operationType));
      }
      const resolveField = decorators.get('ResolveField')?.[0];
      if (resolveField) fieldResolvers.push(this.readFieldResolver(name, entity, method, decorators, resolveField));
    }
    return {
      kind: 'resolver',
      name,
      entity,
      operations,
      fieldResolvers,
      guards: this.readGuards(decoratorsByName(this.resolver, cls.getDecorators()).get('UseGuards') ?? []),
      versionSpan: this.versionOption(decorator),
      span: this.span(cls.getNameNode() ?? cls),
    };
  }

  private readOperation(owner: string, method: MethodDeclaration, decorators: Map<string, Decorator[]>, decorator: Decorator, operationType: OperationModel['operationType']): OperationModel {
    const options = this.objectArgument(decorator, 0);
    const methodName = method.getName();
    const versionDecorator = decorators.get('Version')?.[0];
    const parameters = method.getParameters();
    // A subscription method receives the published item first; it is not a GraphQL argument.
    const argumentParameters = operationType === 'subscription' ? parameters.slice(1) : parameters;
    return {
      kind: 'operation',
      operationType,
      fieldName: this.stringOption(options, 'name') ?? fieldNameOf(methodName),
      methodName,
      owner,
      params: this.readParams(argumentParameters, decorators, undefined),
      returns: this.types.readReturn(method.getReturnTypeNode()),
      postures: this.readPostures(decorators),
      guards: this.readGuards(decorators.get('UseGuards') ?? []),
      complexity: this.complexityDecorator(decorators),
      deprecationReason: this.stringOption(options, 'deprecationReason'),
      topic: operationType === 'subscription' ? (this.stringOption(options, 'topic') ?? fieldNameOf(methodName)) : undefined,
      versionSpan: this.versionOption(decorator) ?? (versionDecorator ? this.span(versionDecorator) : undefined),
      doc: docOf(method),
      span: this.span(method.getNameNode()),
    };
  }

  private readFieldResolver(owner: string, entity: string | undefined, method: MethodDeclaration, decorators: Map<string, Decorator[]>, decorator: Decorator): FieldResolverModel {
    const options = this.objectArgument(decorator, 0);
    return {
      kind: 'fieldResolver',
      fieldName: this.stringOption(options, 'name') ?? fieldNameOf(method.getName()),
      methodName: method.getName(),
      owner,
      entity,
      params: this.readParams(method.getParameters().slice(1), decorators, undefined),
      returns: this.types.readReturn(method.getReturnTypeNode()),
      complexity: this.complexityDecorator(decorators),
      doc: docOf(method),
      span: this.span(method.getNameNode()),
    };
  }

  private complexityDecorator(decorators: Map<string, Decorator[]>): string | undefined {
    const decorator = decorators.get('Complexity')?.[0];
    if (!decorator) return undefined;
    const value = decoratorArguments(decorator)[0];
    if (value?.kind === 'string') return value.value;
    if (value?.kind === 'number') return String(value.value);
    this.problem(decorator, '@Complexity takes a number or a string expression over first and childComplexity');
    return undefined;
  }

  private readPostures(decorators: Map<string, Decorator[]>): PostureModel[] {
    const postures: PostureModel[] = [];
    for (const decorator of decorators.get('Public') ?? []) postures.push({ kind: 'public', span: this.span(decorator) });
    for (const decorator of decorators.get('Authorized') ?? []) {
      const [action, subject] = decoratorArguments(decorator);
      const subjectName =
        subject?.kind === 'string' ? subject.value : subject?.kind === 'identifier' ? (this.resolver.resolve(subject.identifier)?.ref.exportName ?? subject.identifier.getText()) : undefined;
      if (action?.kind !== 'string' || subjectName === undefined) {
        this.problem(decorator, "@Authorized takes an action string and an entity: @Authorized('read', User)");
        continue;
      }
      postures.push({ kind: 'authorized', action: action.value, subject: subjectName, span: this.span(decorator) });
    }
    return postures.sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);
  }

  private readGuards(decorators: readonly Decorator[]): GuardBinding[] {
    return decorators.flatMap((decorator) =>
      decoratorArguments(decorator).flatMap((argument): GuardBinding[] => {
        if (argument.kind !== 'identifier') {
          this.problem(argument.node, '@UseGuards takes guard classes');
          return [];
        }
        const resolved = this.resolver.resolve(argument.identifier);
        return resolved ? [{ guard: resolved.ref, span: this.span(argument.node) }] : [];
      }),
    );
  }

  // ------------------------------------------------------------------------------- parameters

  private readParams(parameters: readonly ParameterDeclaration[], methodDecorators: Map<string, Decorator[]>, pathParams: ReadonlySet<string> | undefined): ParamModel[] {
    const methodPipes = (methodDecorators.get('UsePipes') ?? []).flatMap((decorator) => this.readPipes(decoratorArguments(decorator)));
    return parameters.map((parameter) => {
      const decorators = decoratorsByName(this.resolver, parameter.getDecorators());
      const pipeDecorator = decorators.get('Args')?.[0] ?? decorators.get('Body')?.[0] ?? decorators.get('Param')?.[0];
      const name = parameter.getName();
      let source: ParamSource = 'arg';
      if (pathParams) {
        if (decorators.has('Body')) source = 'body';
        else if (decorators.has('Param') || pathParams.has(name)) source = 'path';
        else source = 'query';
      }
      return {
        name,
        type: this.types.readShape(parameter.getTypeNode(), parameter.hasQuestionToken()),
        optional: parameter.hasQuestionToken(),
        source,
        pipes: [...methodPipes, ...(pipeDecorator ? this.readPipes(decoratorArguments(pipeDecorator)) : [])],
        span: this.span(parameter.getNameNode()),
      };
    });
  }

  private readPipes(values: readonly DecoratorValue[]): PipeModel[] {
    return values.flatMap((value): PipeModel[] => {
      if (value.kind === 'identifier') {
        const resolved = this.resolver.resolve(value.identifier);
        if (resolved) return [{ class: resolved.ref, args: [], span: this.span(value.node) }];
      }
      if (value.kind === 'new' && value.identifier) {
        const resolved = this.resolver.resolve(value.identifier);
        if (resolved) return [{ class: resolved.ref, args: value.args.map((argument) => this.pipeArgument(argument)), span: this.span(value.node) }];
      }
      if (value.kind === 'string' && value.node.getParent()?.getKindName() === 'CallExpression') return [];
      this.problem(value.node, 'a pipe must be an exported pipe class or `new PipeClass(...)` with exported values or literals as arguments');
      return [];
    });
  }

  private pipeArgument(value: DecoratorValue): PipeArgument {
    if (value.kind === 'identifier') {
      const resolved = this.resolver.resolve(value.identifier);
      if (resolved) return { kind: 'ref', ref: resolved.ref };
    }
    if (value.kind === 'string' || value.kind === 'number' || value.kind === 'boolean') return { kind: 'literal', text: value.node.getText() };
    return { kind: 'unsupported', text: value.node.getText() };
  }

  // ------------------------------------------------------------------------------- HTTP

  private readController(cls: ClassDeclaration, name: string, decorator: Decorator): ControllerModel {
    const first = decoratorArguments(decorator)[0];
    let controllerPath = '';
    let versions: string[] = [];
    let versionSpan: SourceSpan | undefined;
    if (first?.kind === 'string') controllerPath = first.value;
    else if (first?.kind === 'object') {
      controllerPath = this.stringOption(first, 'path') ?? '';
      const version = first.properties.get('version');
      if (version) {
        versionSpan = this.span(version.node);
        versions = this.readVersionList(version);
      }
    }
    const routes: RouteModel[] = [];
    for (const method of cls.getMethods()) {
      const decorators = decoratorsByName(this.resolver, method.getDecorators());
      for (const [decoratorName, httpMethod] of Object.entries(HTTP_METHODS)) {
        const routeDecorator = decorators.get(decoratorName)?.[0];
        if (routeDecorator) routes.push(this.readRoute(name, controllerPath, method, decorators, routeDecorator, httpMethod));
      }
    }
    return {
      kind: 'controller',
      name,
      path: trimSlashes(controllerPath),
      versions,
      versionSpan,
      routes,
      guards: this.readGuards(decoratorsByName(this.resolver, cls.getDecorators()).get('UseGuards') ?? []),
      doc: docOf(cls),
      span: this.span(cls.getNameNode() ?? cls),
    };
  }

  private readVersionList(value: DecoratorValue): string[] {
    if (value.kind === 'string') return [value.value];
    if (value.kind === 'array') {
      return value.items.flatMap((item) => {
        if (item.kind === 'string') return [item.value];
        this.problem(item.node, 'versions must be string literals');
        return [];
      });
    }
    this.problem(value.node, "version must be a string or an array of strings: version: '1' or version: ['1', '2']");
    return [];
  }

  private readRoute(owner: string, controllerPath: string, method: MethodDeclaration, decorators: Map<string, Decorator[]>, decorator: Decorator, httpMethod: HttpMethod): RouteModel {
    const [pathValue, optionsValue] = decoratorArguments(decorator);
    const routePath = pathValue?.kind === 'string' ? pathValue.value : '';
    const options = optionsValue?.kind === 'object' ? optionsValue : pathValue?.kind === 'object' ? pathValue : undefined;
    const pagination = this.stringOption(options, 'pagination');
    const fullPath = [trimSlashes(controllerPath), trimSlashes(routePath)].filter(Boolean).join('/');
    const pathParams = new Set([...fullPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? ''));
    const versionDecorator = decorators.get('Version')?.[0];
    const httpCodeDecorator = decorators.get('HttpCode')?.[0];
    const httpCode = httpCodeDecorator ? decoratorArguments(httpCodeDecorator)[0] : undefined;
    if (pagination !== undefined && pagination !== 'cursor' && pagination !== 'none') this.problem(decorator, "pagination must be 'cursor' or 'none'");
    return {
      kind: 'route',
      method: httpMethod,
      path: trimSlashes(routePath),
      methodName: method.getName(),
      owner,
      params: this.readParams(method.getParameters(), decorators, pathParams),
      returns: this.types.readReturn(method.getReturnTypeNode()),
      postures: this.readPostures(decorators),
      guards: this.readGuards(decorators.get('UseGuards') ?? []),
      versions: versionDecorator ? decoratorArguments(versionDecorator).flatMap((value) => this.readVersionList(value)) : undefined,
      versionSpan: versionDecorator ? this.span(versionDecorator) : undefined,
      pagination: pagination === 'cursor' || pagination === 'none' ? pagination : undefined,
      httpCode: httpCode?.kind === 'number' ? httpCode.value : undefined,
      doc: docOf(method),
      span: this.span(method.getNameNode()),
    };
  }

  private readGateway(cls: ClassDeclaration, name: string, decorator: Decorator): GatewayModel {
    const options = this.objectArgument(decorator, 0);
    const version = options?.properties.get('version');
    const handlers = cls.getMethods().flatMap((method) => {
      const decorators = decoratorsByName(this.resolver, method.getDecorators());
      const subscribe = decorators.get('SubscribeMessage')?.[0];
      if (!subscribe) return [];
      const event = decoratorArguments(subscribe)[0];
      if (event?.kind !== 'string') {
        this.problem(subscribe, "@SubscribeMessage takes the event name: @SubscribeMessage('ping')");
        return [];
      }
      return [{ event: event.value, methodName: method.getName(), takesData: method.getParameters().length > 0, postures: this.readPostures(decorators), span: this.span(method.getNameNode()) }];
    });
    return {
      kind: 'gateway',
      name,
      path: trimSlashes(this.stringOption(options, 'path') ?? ''),
      version: this.stringOption(options, 'version'),
      versionSpan: version ? this.span(version.node) : undefined,
      handlers,
      span: this.span(decorator),
    };
  }

  // ------------------------------------------------------------------------------- options

  private objectArgument(decorator: Decorator, index: number): ObjectValue | undefined {
    const value = decoratorArguments(decorator)[index];
    if (value === undefined) return undefined;
    if (value.kind === 'object') return value;
    if (index === 0 || value.kind !== 'other') this.problem(value.node, 'expected an options object literal');
    return undefined;
  }

  private stringOption(options: ObjectValue | undefined, key: string): string | undefined {
    const value = options?.properties.get(key);
    if (!value) return undefined;
    if (value.kind === 'string') return value.value;
    this.problem(value.node, `${key} must be a string literal`);
    return undefined;
  }

  private booleanOption(options: ObjectValue | undefined, key: string): boolean | undefined {
    const value = options?.properties.get(key);
    if (!value) return undefined;
    if (value.kind === 'boolean') return value.value;
    this.problem(value.node, `${key} must be true or false`);
    return undefined;
  }
}

type ObjectValue = Extract<DecoratorValue, { kind: 'object' }>;

function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}
