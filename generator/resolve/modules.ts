/**
 * Modules, providers and what is mounted (docs/behaviour.md §1: the schema is composed from every resolver
 * registered in the running app; there is no central list): the modules reachable from
 * `AppModule` through `imports`, the providers, resolvers, controllers and gateways they list,
 * what every constructor dependency resolves to, and the order the container constructs
 * providers in. Dependency injection is decided here, at generate time.
 */
import path from 'node:path';
import { BUILTIN_PROVIDERS, isRuntimeRef, LOADER_SCOPE, ROOT_MODULE } from '../model/builtins.js';
import type { DeclaredClass } from '../model/declarations.js';
import type {
  ControllerModel,
  CronTaskModel,
  DependencyModel,
  DependencyTarget,
  EntityModel,
  FieldResolverModel,
  GatewayModel,
  McpHostModel,
  McpToolModel,
  ListenerModel,
  ModuleEntry,
  ModuleModel,
  MountedApp,
  ProcessorModel,
  ProviderModel,
  ProviderRole,
  QueueModel,
  ResolverModel,
  ResourceModel,
  VersionPolicyModel,
} from '../model/model.js';
import { repositoryClass, repositoryModule } from '../model/naming.js';
import type { SourceRef } from '../model/types.js';
import { readGuards } from './bindings.js';
import { requestEntryPoints } from './entry-points.js';
import { DEFAULT_MCP_PATH } from './mcp.js';
import { publishedTopics, queuesOf } from './jobs.js';
import type { NamedClass } from './operations.js';
import { argumentAt, DecoratorSet, optionOf, stringOf } from './values.js';

/** The role a class plays, by its decorator (first match wins). */
function roleOf(decorators: DecoratorSet): ProviderRole | undefined {
  if (decorators.has('Resolver')) return 'resolver';
  if (decorators.has('Controller')) return 'controller';
  if (decorators.has('Abilities')) return 'abilities';
  if (decorators.has('Gateway')) return 'gateway';
  if (decorators.has('McpHost')) return 'mcpHost';
  if (decorators.has('Processor')) return 'processor';
  if (decorators.has('Injectable')) return 'service';
  return undefined;
}

/** A `@Module()` class, and the version policies it declares (`versions`, docs/behaviour.md §9). */
export function resolveModule(cls: NamedClass): { module: ModuleModel; policies: VersionPolicyModel[] } {
  const decorators = new DecoratorSet(cls.decorators);
  const options = argumentAt(decorators.first('Module'), 0);
  const entries = (key: string): ModuleEntry[] => {
    const value = optionOf(options, key);
    if (value?.kind !== 'array') return [];
    return value.items.flatMap((item): ModuleEntry[] =>
      item.kind === 'reference' ? [{ name: item.ref?.exportName ?? item.name, source: item.ref, span: item.span }] : [],
    );
  };
  const policies: VersionPolicyModel[] = [];
  const versions = optionOf(options, 'versions');
  if (versions?.kind === 'object') {
    for (const property of versions.properties) {
      if (property.key === undefined || property.value.kind !== 'object') continue;
      const deprecated = optionOf(property.value, 'deprecated');
      const sunset = optionOf(property.value, 'sunset');
      policies.push({
        version: property.key,
        deprecated:
          deprecated?.kind === 'string' ? deprecated.value : deprecated?.kind === 'boolean' && deprecated.value ? true : undefined,
        deprecatedSpan: deprecated?.span,
        sunset: stringOf(sunset),
        sunsetSpan: sunset?.span,
        module: cls.name,
        span: property.keySpan,
      });
    }
  }
  const module: ModuleModel = {
    kind: 'module',
    name: cls.name,
    guards: readGuards(decorators.every('UseGuards')),
    imports: entries('imports'),
    providers: entries('providers'),
    controllers: entries('controllers'),
    span: cls.span,
  };
  return { module, policies };
}

/** A provider before its dependencies are resolved against what is mounted. */
interface WrittenProvider {
  readonly cls: NamedClass;
  readonly role: ProviderRole;
}

/** Everything mounting needs, resolved elsewhere. */
interface MountInput {
  readonly modules: readonly ModuleModel[];
  readonly providers: readonly WrittenProvider[];
  /** `@Resource` entities: their generated provider, controller and resolver are always mounted (docs/behaviour.md §4.7). */
  readonly resources: readonly ResourceModel[];
  readonly resolvers: readonly ResolverModel[];
  readonly controllers: readonly ControllerModel[];
  readonly gateways: readonly GatewayModel[];
  readonly entities: readonly EntityModel[];
  readonly mcpHosts: readonly McpHostModel[];
  readonly mcpTools: readonly McpToolModel[];
  readonly processors: readonly ProcessorModel[];
  readonly cronTasks: readonly CronTaskModel[];
  readonly listeners: readonly ListenerModel[];
}

const compareVersions = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** The modules reachable from `root` through their imports, breadth-first (none without a root). */
function reachableFrom(root: ModuleModel | undefined, moduleByName: ReadonlyMap<string, ModuleModel>): ModuleModel[] {
  const reachable: ModuleModel[] = [];
  const seen = new Set<string>();
  const queue = root ? [root] : [];
  while (queue.length > 0) {
    const module = queue.shift();
    if (!module || seen.has(module.name)) continue;
    seen.add(module.name);
    reachable.push(module);
    for (const entry of module.imports) {
      const imported = moduleByName.get(entry.name);
      if (imported) queue.push(imported);
    }
  }
  return reachable;
}

/** A provider with each constructor dependency resolved: by `targetOf`, or to the queue `@InjectQueue` names. */
function resolveProvider(
  { cls, role }: WrittenProvider,
  targetOf: (typeName: string | undefined, source: SourceRef | undefined) => DependencyTarget,
  queueByName: ReadonlyMap<string, QueueModel>,
): ProviderModel {
  const dependencies = cls.constructorParameters.map((parameter): DependencyModel => {
    const typeName = parameter.ref?.exportName ?? parameter.typeText;
    // `@InjectQueue('name')` decides the target whatever the type says (docs/behaviour.md §10.1).
    const queue = argumentAt(new DecoratorSet(parameter.decorators).first('InjectQueue'), 0);
    const queueName = stringOf(queue);
    const target: DependencyTarget =
      queue && queueName !== undefined
        ? { kind: 'queue', queue: queueName, queueKnown: queueByName.has(queueName), queueSpan: queue.span }
        : targetOf(typeName, parameter.ref);
    return { parameterName: parameter.name, typeName, source: parameter.ref, target, span: parameter.span };
  });
  const methods = cls.methods
    .filter((method) => method.hasBody)
    .map((method) => ({ name: method.name, calls: method.calls, unscopedCalls: method.unscopedCalls }));
  return {
    kind: 'provider',
    name: cls.name,
    role,
    source: { file: cls.file, exportName: cls.name },
    dependencies,
    methodByName: new Map(methods.map((method) => [method.name, method])),
    span: cls.span,
  };
}

/**
 * What is mounted, and every provider with its dependencies resolved against it.
 *
 * Takes the declared modules, providers (named classes with a role), resolvers, controllers,
 * gateways, entities, MCP hosts and tools; returns every provider (sorted by name) and the mounted application.
 * Never throws: a dependency nothing provides resolves to `missing`, a cycle is returned as
 * `cycle` (rules report both).
 */
export function mount(input: MountInput): { providers: ProviderModel[]; mounted: MountedApp } {
  const moduleByName = new Map(input.modules.map((module) => [module.name, module]));
  const root = moduleByName.get(ROOT_MODULE);
  const reachable = reachableFrom(root, moduleByName);
  const listed = new Set(reachable.flatMap((module) => [...module.providers, ...module.controllers].map((entry) => entry.name)));
  const builtinRefs = new Map<string, SourceRef>();
  const moduleOf = new Map<string, ModuleModel>();
  for (const module of reachable) {
    for (const entry of [...module.providers, ...module.imports])
      if (isRuntimeRef(entry.source) && entry.source) builtinRefs.set(entry.source.exportName, entry.source);
    for (const entry of module.providers) if (!moduleOf.has(entry.name)) moduleOf.set(entry.name, module);
  }
  const builtins = [...builtinRefs.values()].sort((a, b) => a.exportName.localeCompare(b.exportName));
  const builtinNames = new Set(builtins.map((ref) => ref.exportName));
  const mountedNames = new Set(input.providers.filter((provider) => listed.has(provider.cls.name)).map((provider) => provider.cls.name));
  // Only entities keyed by `id` or by a composite key get a repository: injecting another's is unresolved.
  const entityByRepository = new Map(
    input.entities.filter((entity) => entity.keyed || entity.compositeKey).map((entity) => [repositoryClass(entity.name), entity]),
  );
  const processors = input.processors.filter((processor) => mountedNames.has(processor.name));
  const queues = queuesOf(processors);
  const queueByName = new Map(queues.map((queue) => [queue.name, queue]));

  const targetOf = (typeName: string | undefined, source: SourceRef | undefined): DependencyTarget => {
    if (typeName === undefined) return { kind: 'missing' };
    if (mountedNames.has(typeName)) return { kind: 'provider', provider: typeName };
    const entity = entityByRepository.get(typeName);
    if (entity && source && path.posix.basename(source.file) === path.posix.basename(repositoryModule(entity.name)))
      return { kind: 'repository', entity: entity.name };
    const builtin = BUILTIN_PROVIDERS.find((candidate) => candidate.ref.exportName === typeName && source?.file === candidate.ref.file);
    if (builtin && (builtin.constructedBy === 'services' || builtinNames.has(builtin.ref.exportName))) return { kind: 'builtin', builtin };
    return { kind: 'missing' };
  };

  const providers = input.providers
    .map((provider) => resolveProvider(provider, targetOf, queueByName))
    .sort((a, b) => a.name.localeCompare(b.name));
  const generatedProviders = input.resources.map((resource) => resource.provider);
  const mountedProviders = [...providers.filter((provider) => mountedNames.has(provider.name)), ...generatedProviders].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const providerByName = new Map(mountedProviders.map((provider) => [provider.name, provider]));
  const { order, cycle } = constructionOrder(mountedProviders, providerByName);

  const mountedResolvers = [
    ...input.resolvers.filter((resolver) => listed.has(resolver.name)),
    ...input.resources.map((resource) => resource.resolver),
  ];
  const mountedControllers = [
    ...input.controllers.filter((controller) => listed.has(controller.name)),
    ...input.resources.map((resource) => resource.controller),
  ];
  const fieldResolversByEntity = new Map<string, FieldResolverModel[]>();
  for (const field of mountedResolvers.flatMap((resolver) => resolver.fieldResolvers)) {
    if (field.entity !== undefined) fieldResolversByEntity.set(field.entity, [...(fieldResolversByEntity.get(field.entity) ?? []), field]);
  }
  const mcpHosts = input.mcpHosts.filter((host) => listed.has(host.name));
  const mcpTools = input.mcpTools
    .filter((tool) => listed.has(tool.owner))
    .sort((a, b) => a.name.localeCompare(b.name) || a.span.file.localeCompare(b.span.file) || a.span.line - b.span.line);
  const mcpHost = mcpHosts[0];
  const mountedGateways = input.gateways.filter((gateway) => listed.has(gateway.name));
  const mounted: MountedApp = {
    root,
    modules: reachable,
    providers: mountedProviders,
    providerByName,
    resolvers: mountedResolvers,
    fieldResolversByEntity,
    controllers: mountedControllers,
    gateways: mountedGateways,
    requestEntryPoints: requestEntryPoints(mountedResolvers, mountedControllers, mountedGateways),
    builtins,
    containerBuiltins: BUILTIN_PROVIDERS.filter(
      (builtin) => builtin.constructedBy === 'container' && builtinNames.has(builtin.ref.exportName),
    ),
    loaderScope: builtinNames.has(LOADER_SCOPE),
    abilities: mountedProviders.filter((provider) => provider.role === 'abilities'),
    moduleOf,
    constructionOrder: order,
    cycle,
    versions: [...new Set(mountedControllers.flatMap((controller) => controller.versions))].sort(compareVersions),
    mcpHosts,
    mcp: mcpTools.length > 0 ? { host: mcpHost, path: mcpHost?.path ?? DEFAULT_MCP_PATH, tools: mcpTools } : undefined,
    processors,
    queues,
    queueByName,
    cronTasks: input.cronTasks.filter((task) => mountedNames.has(task.owner)),
    listeners: input.listeners.filter((listener) => mountedNames.has(listener.owner)),
    publishedTopics: publishedTopics(mountedProviders),
  };
  return { providers: [...providers, ...generatedProviders].sort((a, b) => a.name.localeCompare(b.name)), mounted };
}

/**
 * Providers in construction order (dependencies first), or the providers on a cycle when the
 * dependencies are circular. Ties are broken by name, so the order is deterministic.
 */
function constructionOrder(
  providers: readonly ProviderModel[],
  byName: ReadonlyMap<string, ProviderModel>,
): { order: ProviderModel[]; cycle: ProviderModel[] | undefined } {
  const order: ProviderModel[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: ProviderModel[] = [];
  let cycle: ProviderModel[] | undefined;
  const visit = (provider: ProviderModel): void => {
    if (cycle) return;
    const current = state.get(provider.name);
    if (current === 'done') return;
    if (current === 'visiting') {
      cycle = stack.slice(stack.indexOf(provider));
      return;
    }
    state.set(provider.name, 'visiting');
    stack.push(provider);
    for (const dependency of provider.dependencies) {
      const target = dependency.target.kind === 'provider' ? byName.get(dependency.target.provider) : undefined;
      if (target) visit(target);
    }
    stack.pop();
    state.set(provider.name, 'done');
    order.push(provider);
  };
  for (const provider of providers) visit(provider);
  return { order, cycle };
}

/** Classes with a provider role. */
export function writtenProviders(classes: readonly NamedClass[]): WrittenProvider[] {
  return classes.flatMap((cls) => {
    const role = roleOf(new DecoratorSet(cls.decorators));
    return role ? [{ cls, role }] : [];
  });
}

/** Named, decorated classes of the declarations. */
export function namedClasses(classes: readonly DeclaredClass[]): NamedClass[] {
  return classes.filter((cls): cls is NamedClass => cls.name !== undefined);
}
