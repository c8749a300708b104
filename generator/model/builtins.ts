/**
 * What the runtime library supplies to an application (docs/guide/graphql.md "Guards"): the root
 * module's name, the providers it constructs itself or lets modules list, and its guards with the
 * module providing each. Resolve and the rules name these; nothing else spells them.
 */
import type { BuiltinProvider } from './model.js';
import type { SourceRef } from './types.js';

/** The name of the root module (docs/behaviour.md §1: the application is what it reaches). */
export const ROOT_MODULE = 'AppModule';

/** The GraphQL batch-context provider (docs/behaviour.md §5.10). */
export const LOADER_SCOPE = 'LoaderScope';

/** Built-in providers, by `runtime/` file and export name. */
export const BUILTIN_PROVIDERS: readonly BuiltinProvider[] = [
  { ref: { file: 'runtime/events/bus.ts', exportName: 'EventBus' }, constructedBy: 'services' },
  { ref: { file: 'runtime/graphql/loaders.ts', exportName: LOADER_SCOPE }, constructedBy: 'container' },
];

/** A guard the runtime supplies, and the module that provides it (undefined: always available). */
export interface BuiltinGuard {
  readonly ref: SourceRef;
  /** The runtime's instance of it (`RuntimeGuards` key). */
  readonly runtimeKey: string;
  readonly providedBy: SourceRef | undefined;
}

/** The authentication guard (docs/behaviour.md §5.2), bound globally. */
export const AUTHENTICATION_GUARD: BuiltinGuard = {
  ref: { file: 'runtime/auth/guards.ts', exportName: 'AuthenticationGuard' },
  runtimeKey: 'authentication',
  providedBy: undefined,
};

/** The GraphQL authorization guard (docs/behaviour.md §5.3), provided by GraphQLAuthorizationModule. */
export const AUTHORIZATION_GUARD: BuiltinGuard = {
  ref: { file: 'runtime/auth/guards.ts', exportName: 'GraphQLAuthorizationGuard' },
  runtimeKey: 'graphqlAuthorization',
  providedBy: { file: 'runtime/auth/guards.ts', exportName: 'GraphQLAuthorizationModule' },
};

/** Every guard the runtime supplies. */
export const BUILTIN_GUARDS: readonly BuiltinGuard[] = [AUTHENTICATION_GUARD, AUTHORIZATION_GUARD];

/** Do two references name the same export of the same file? */
export function sameRef(a: SourceRef | undefined, b: SourceRef | undefined): boolean {
  return a !== undefined && b !== undefined && a.file === b.file && a.exportName === b.exportName;
}

/** Is `ref` declared in the runtime library (`runtime/`)? */
export function isRuntimeRef(ref: SourceRef | undefined): boolean {
  return ref !== undefined && ref.file.startsWith('runtime/');
}

/** The runtime guard `ref` names, if any. */
export function builtinGuard(ref: SourceRef | undefined): BuiltinGuard | undefined {
  return BUILTIN_GUARDS.find((builtin) => sameRef(builtin.ref, ref));
}
