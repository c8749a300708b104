/**
 * What is mounted: the modules reachable from `AppModule` through `imports`, and the providers,
 * resolvers and controllers they list (spec §1: the schema is composed from every resolver
 * registered in the running app; there is no central list). Also the order the container
 * constructs providers in, from their constructor dependencies.
 *
 * Pure functions of the model; validation rules report what these functions find missing.
 */
import path from 'node:path';
import type { AppModel, ControllerModel, DependencyModel, EntityModel, GatewayModel, GuardBinding, ModuleModel, ProviderModel, ResolverModel, SourceRef } from './model.js';
import { repositoryClass, repositoryModule } from './naming.js';

/** The name of the root module. */
export const ROOT_MODULE = 'AppModule';

/** Valid version tokens (spec §8): alphanumerics, `.` and `-`, at most 32 bytes. */
export const VERSION_TOKEN = /^[A-Za-z0-9.-]{1,32}$/;

/** Every version a mounted controller declares, in a stable order (numeric-aware). */
export function declaredVersions(application: Application): string[] {
  const versions = new Set(application.controllers.flatMap((controller) => controller.versions));
  return [...versions].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** A provider the runtime library supplies. */
export interface BuiltinProvider {
  readonly ref: SourceRef;
  /** `services`: made by the runtime at boot (one per process); `container`: constructed in the container when a module lists it. */
  readonly constructedBy: 'services' | 'container';
}

/** Built-in providers, by `runtime/` file and export name. */
export const BUILTIN_PROVIDERS: readonly BuiltinProvider[] = [
  { ref: { file: 'runtime/events.ts', exportName: 'EventBus' }, constructedBy: 'services' },
  { ref: { file: 'runtime/graphql/loaders.ts', exportName: 'LoaderScope' }, constructedBy: 'container' },
];

/** The GraphQL batch-context provider (spec §5.10). */
export const LOADER_SCOPE = 'LoaderScope';

/** A guard the runtime supplies, and the module that provides it (undefined: always available). */
export interface BuiltinGuard {
  readonly ref: SourceRef;
  /** The runtime's instance of it (`RuntimeGuards` key). */
  readonly runtimeKey: string;
  readonly providedBy: SourceRef | undefined;
}

/** The authentication guard (spec §5.2), bound globally. */
export const AUTHENTICATION_GUARD: BuiltinGuard = { ref: { file: 'runtime/guards.ts', exportName: 'AuthenticationGuard' }, runtimeKey: 'authentication', providedBy: undefined };
/** The GraphQL authorization guard (spec §5.3), provided by GraphQLAuthorizationModule. */
export const AUTHORIZATION_GUARD: BuiltinGuard = {
  ref: { file: 'runtime/guards.ts', exportName: 'GraphQLAuthorizationGuard' },
  runtimeKey: 'graphqlAuthorization',
  providedBy: { file: 'runtime/guards.ts', exportName: 'GraphQLAuthorizationModule' },
};
/** Every guard the runtime supplies. */
export const BUILTIN_GUARDS: readonly BuiltinGuard[] = [AUTHENTICATION_GUARD, AUTHORIZATION_GUARD];

const sameRef = (a: SourceRef, b: SourceRef): boolean => a.file === b.file && a.exportName === b.exportName;

/** The guard chain of an operation: global, then resolver, then operation scope, each guard once. */
export function guardChain(application: Application, resolver: ResolverModel, operationGuards: readonly GuardBinding[]): GuardBinding[] {
  const chain: GuardBinding[] = [];
  for (const binding of [...(application.root?.guards ?? []), ...resolver.guards, ...operationGuards]) {
    if (!chain.some((existing) => sameRef(existing.guard, binding.guard))) chain.push(binding);
  }
  return chain;
}

/** The module listing `providerName` among its providers (first reachable one). */
export function moduleProviding(application: Application, providerName: string): ModuleModel | undefined {
  return application.modules.find((module) => module.providers.some((entry) => entry.name === providerName));
}

/** Whether `module` imports the module `ref` (directly). */
export function moduleImports(module: ModuleModel, ref: SourceRef): boolean {
  return module.imports.some((entry) => entry.source !== undefined && sameRef(entry.source, ref));
}

/** What a constructor dependency resolves to. */
export type DependencyTarget =
  | { readonly kind: 'provider'; readonly provider: ProviderModel }
  | { readonly kind: 'repository'; readonly entity: EntityModel }
  | { readonly kind: 'builtin'; readonly builtin: BuiltinProvider }
  | { readonly kind: 'missing' };

/** The mounted application. */
export interface Application {
  readonly root: ModuleModel | undefined;
  /** Reachable modules, in breadth-first order from the root. */
  readonly modules: readonly ModuleModel[];
  /** Providers listed by reachable modules (services, resolvers, abilities, …), sorted by name. */
  readonly providers: readonly ProviderModel[];
  readonly resolvers: readonly ResolverModel[];
  readonly controllers: readonly ControllerModel[];
  readonly gateways: readonly GatewayModel[];
  /** Built-ins listed by reachable modules (for example `LoaderScope`). */
  readonly builtins: readonly SourceRef[];
}

/** Built-ins a reachable module lists that the container constructs (for example `LoaderScope`). */
export function containerBuiltins(application: Application): BuiltinProvider[] {
  return BUILTIN_PROVIDERS.filter((builtin) => builtin.constructedBy === 'container' && application.builtins.some((ref) => ref.exportName === builtin.ref.exportName));
}

/** Is `ref` declared in the runtime library (`runtime/`)? */
export function isRuntimeRef(ref: SourceRef | undefined): boolean {
  return ref !== undefined && ref.file.startsWith('runtime/');
}

/** Computes what is reachable from `AppModule`. */
export function resolveApplication(model: AppModel): Application {
  const modulesByName = new Map(model.modules.map((module) => [module.name, module]));
  const root = modulesByName.get(ROOT_MODULE);
  const reachable: ModuleModel[] = [];
  const seen = new Set<string>();
  const queue = root ? [root] : [];
  while (queue.length > 0) {
    const module = queue.shift();
    if (!module || seen.has(module.name)) continue;
    seen.add(module.name);
    reachable.push(module);
    for (const entry of module.imports) {
      const imported = modulesByName.get(entry.name);
      if (imported) queue.push(imported);
    }
  }
  const providerNames = new Set(reachable.flatMap((module) => [...module.providers, ...module.controllers].map((entry) => entry.name)));
  const builtins = new Map<string, SourceRef>();
  for (const module of reachable) {
    for (const entry of [...module.providers, ...module.imports]) {
      if (isRuntimeRef(entry.source) && entry.source) builtins.set(entry.source.exportName, entry.source);
    }
  }
  return {
    root,
    modules: reachable,
    providers: model.providers.filter((provider) => providerNames.has(provider.name)),
    resolvers: model.resolvers.filter((resolver) => providerNames.has(resolver.name)),
    controllers: model.controllers.filter((controller) => providerNames.has(controller.name)),
    gateways: model.gateways.filter((gateway) => providerNames.has(gateway.name)),
    builtins: [...builtins.values()].sort((a, b) => a.exportName.localeCompare(b.exportName)),
  };
}

/** Resolves a constructor dependency to what the container passes for it. */
export function resolveDependency(model: AppModel, application: Application, dependency: DependencyModel): DependencyTarget {
  const provider = application.providers.find((candidate) => candidate.name === dependency.typeName);
  if (provider) return { kind: 'provider', provider };
  const entity = model.entities.find((candidate) => repositoryClass(candidate.name) === dependency.typeName);
  if (entity && dependency.source && path.posix.basename(dependency.source.file) === path.posix.basename(repositoryModule(entity.name))) {
    return { kind: 'repository', entity };
  }
  const builtin = BUILTIN_PROVIDERS.find((candidate) => candidate.ref.exportName === dependency.typeName && dependency.source?.file === candidate.ref.file);
  if (builtin && (builtin.constructedBy === 'services' || application.builtins.some((ref) => ref.exportName === builtin.ref.exportName))) return { kind: 'builtin', builtin };
  return { kind: 'missing' };
}

/**
 * Providers in construction order (dependencies first), or the providers on a cycle when the
 * dependencies are circular. Ties are broken by name, so the order is deterministic.
 */
export function constructionOrder(model: AppModel, application: Application): { order: ProviderModel[]; cycle: ProviderModel[] | undefined } {
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
      const target = resolveDependency(model, application, dependency);
      if (target.kind === 'provider') visit(target.provider);
    }
    stack.pop();
    state.set(provider.name, 'done');
    order.push(provider);
  };
  for (const provider of [...application.providers].sort((a, b) => a.name.localeCompare(b.name))) visit(provider);
  return { order, cycle };
}
