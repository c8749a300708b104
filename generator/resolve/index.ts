/**
 * The resolve stage (docs/architecture.md §1): what `parse/` read → one indexed, fully
 * decided model (`ResolvedApp`, model/model.ts) that every rule and emitter reads. Each fact is
 * decided here once — a has_many's key column, a route's status, reply kind and page parameters,
 * what an operation returns, which relations are on the wire, which methods a request enters
 * by, what is mounted and how the container wires it — and the lookups
 * rules and emitters need are maps built here, like Prisma's DMMF helper.
 *
 * Resolution never fails: what cannot be decided is left `undefined` or marked unknown, and the
 * rule about that mistake reports it (the others stay silent rather than cascading).
 */
import { ROOT_MODULE } from '../model/builtins.js';
import type { DeclaredApp, DeclaredClass } from '../model/declarations.js';
import type {
  ClassModel,
  CronTaskModel,
  DecoratorUse,
  ListenerModel,
  ResolvedApp,
  UnversionedTransportModel,
  VersionPolicyModel,
} from '../model/model.js';
import type { NamedType, TypeShape } from '../model/types.js';
import { resolveEntities } from './entities.js';
import { requestEntryPoints } from './entry-points.js';
import { cronTasksOf, listenersOf, resolveProcessor } from './jobs.js';
import { mount, namedClasses, resolveModule, writtenProviders } from './modules.js';
import { resolveMcpHost, resolveMcpTools } from './mcp.js';
import { resolveGateway, resolveResolver, unversionedTransports } from './operations.js';
import { resolveResources } from './resources.js';
import { grantsOf } from './grants.js';
import { resolveController } from './routes.js';
import { returnTypes, usedTypes } from './types.js';

const byName = <T extends { readonly name: string }>(items: T[]): T[] => items.sort((a, b) => a.name.localeCompare(b.name));
const has = (cls: DeclaredClass, decorator: string): boolean => cls.decorators.some((candidate) => candidate.name === decorator);

/** Every runtime decorator application, with what it decorates and what is written beside it. */
function decoratorUses(classes: readonly DeclaredClass[]): DecoratorUse[] {
  const uses: DecoratorUse[] = [];
  for (const cls of classes) {
    const className = cls.name ?? '(anonymous class)';
    const classDecorators = cls.decorators.map((decorator) => decorator.name);
    const others = (all: readonly string[], index: number): string[] => all.filter((_name, at) => at !== index);
    cls.decorators.forEach((decorator, index) =>
      uses.push({ decorator, target: 'class', declaration: className, className, classDecorators, beside: others(classDecorators, index) }),
    );
    for (const parameter of cls.constructorParameters) {
      for (const decorator of parameter.decorators) {
        uses.push({
          decorator,
          target: 'constructor parameter',
          declaration: `constructor parameter ${parameter.name} of ${className}`,
          className,
          classDecorators,
          beside: [],
        });
      }
    }
    for (const field of cls.fields) {
      const names = field.decorators.map((decorator) => decorator.name);
      field.decorators.forEach((decorator, index) =>
        uses.push({
          decorator,
          target: 'property',
          declaration: `${className}.${field.name}`,
          className,
          classDecorators,
          beside: others(names, index),
        }),
      );
    }
    for (const method of cls.methods) {
      const names = method.decorators.map((decorator) => decorator.name);
      method.decorators.forEach((decorator, index) =>
        uses.push({
          decorator,
          target: 'method',
          declaration: `${className}.${method.name}`,
          className,
          classDecorators,
          beside: others(names, index),
        }),
      );
      for (const parameter of method.parameters) {
        for (const decorator of parameter.decorators) {
          uses.push({
            decorator,
            target: 'parameter',
            declaration: `parameter ${parameter.name} of ${className}.${method.name}`,
            className,
            classDecorators,
            beside: names,
          });
        }
      }
    }
  }
  return uses;
}

/**
 * Resolves the declarations into the model rules and emitters read.
 *
 * Takes what `parse/` read and the output folder relative to the project root (where generated
 * resource classes live); returns the {@link ResolvedApp}: declared entities and resources, enums and inputs in
 * use, providers, resolvers, controllers, gateways, MCP hosts and tools, modules (each sorted by
 * name), every decorator application, and what `AppModule` mounts. Pure and total: never throws on bad declarations.
 */
export function resolveApp(declared: DeclaredApp, outputDir = 'generated'): ResolvedApp {
  const named = namedClasses(declared.classes);
  const { entities, entityByName } = resolveEntities(declared.classes);

  const modulesAndPolicies = named.filter((cls) => has(cls, 'Module')).map(resolveModule);
  const modules = byName(modulesAndPolicies.map((entry) => entry.module));
  const moduleByName = new Map(modules.map((module) => [module.name, module]));
  const versionPolicies: VersionPolicyModel[] = modulesAndPolicies
    .flatMap((entry) => entry.policies)
    .sort((a, b) => a.version.localeCompare(b.version));
  const rootGuards = moduleByName.get(ROOT_MODULE)?.guards ?? [];
  const grants = grantsOf(declared.abilityRules);
  const resources = resolveResources(
    declared.classes,
    entityByName,
    new Map(declared.enums.map((model) => [model.name, model.values])),
    rootGuards,
    outputDir,
    grants,
  );

  const resolvers = byName(named.filter((cls) => has(cls, 'Resolver')).map((cls) => resolveResolver(cls, rootGuards)));
  const controllers = byName(named.filter((cls) => has(cls, 'Controller')).map(resolveController));
  const gateways = byName(named.filter((cls) => has(cls, 'Gateway')).map(resolveGateway));
  const transports: UnversionedTransportModel[] = declared.classes
    .flatMap(unversionedTransports)
    .sort((a, b) => a.name.localeCompare(b.name) || a.span.line - b.span.line);
  const mcpHosts = byName(named.filter((cls) => has(cls, 'McpHost')).map(resolveMcpHost));
  const mcp = resolveMcpTools({ classes: named, resolvers, controllers, gateways });
  const processors = byName(named.filter((cls) => has(cls, 'Processor')).map(resolveProcessor));
  const bySource = (
    a: { readonly file: string; readonly span: { readonly line: number } },
    b: { readonly file: string; readonly span: { readonly line: number } },
  ): number => a.file.localeCompare(b.file) || a.span.line - b.span.line;
  const cronTasks: CronTaskModel[] = named.flatMap(cronTasksOf).sort((a, b) => a.name.localeCompare(b.name) || bySource(a, b));
  const listeners: ListenerModel[] = named
    .flatMap(listenersOf)
    .sort((a, b) => (a.event ?? '').localeCompare(b.event ?? '') || bySource(a, b));
  const { providers, mounted } = mount({
    modules,
    providers: writtenProviders(named),
    resources,
    resolvers,
    controllers,
    gateways,
    entities,
    mcpHosts,
    mcpTools: mcp.tools,
    processors,
    cronTasks,
    listeners,
  });

  // Enums and inputs in use: those named by columns, operations, computed fields and routes.
  const roots: (NamedType | TypeShape)[] = [
    ...entities.flatMap((entity) => entity.columns.map((column) => column.type)),
    ...resolvers.flatMap((resolver) =>
      [...resolver.operations, ...resolver.fieldResolvers].flatMap((operation) => [
        ...operation.params.map((param) => param.type),
        ...returnTypes(operation.returns),
      ]),
    ),
    ...controllers.flatMap((controller) =>
      controller.routes.flatMap((route) => [...route.params.map((param) => param.type), ...returnTypes(route.returns)]),
    ),
    ...resources.flatMap((resource) => resource.resolver.operations.flatMap((operation) => operation.params.map((param) => param.type))),
  ];
  const { enums, inputs } = usedTypes(
    declared.enums,
    [...declared.inputs, ...resources.flatMap((resource) => [resource.createInput, resource.updateInput])],
    roots,
  );

  const classes: ClassModel[] = declared.classes
    .filter((cls) => cls.decorators.length > 0)
    .map((cls) => ({ name: cls.name, exported: cls.exported, span: cls.span }));
  return {
    entities,
    entityByName,
    resources,
    enums,
    enumByName: new Map(enums.map((model) => [model.name, model])),
    inputs,
    inputByName: new Map(inputs.map((model) => [model.name, model])),
    providers,
    providerByName: new Map(providers.map((provider) => [provider.name, provider])),
    abilities: providers.filter((provider) => provider.role === 'abilities'),
    resolvers,
    controllers,
    gateways,
    requestEntryPoints: requestEntryPoints(resolvers, controllers, gateways),
    processors,
    cronTasks,
    listeners,
    unversionedTransports: transports,
    mcpHosts,
    mcpTools: mcp.tools,
    misplacedMcpTools: mcp.misplaced,
    modules,
    moduleByName,
    versionPolicies,
    classes,
    decorators: decoratorUses(declared.classes),
    abilityRules: declared.abilityRules,
    grants,
    importProblems: declared.importProblems,
    mounted,
  };
}
