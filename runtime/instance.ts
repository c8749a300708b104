/**
 * One copy of the runtime per process (docs/architecture.md §5, "The package's surface"). Two
 * copies — an application importing `resource-service` from one install while its generated code
 * reaches another — would each keep their own abilities, loaders and entity metadata, and a check
 * made by one copy against state registered in the other would find nothing: rows silently
 * missing rather than an error. Every entry of the package registers its folder here, and
 * `startServer` refuses to start when more than one did.
 */

/** Where every copy of the runtime in this process registers itself (a global, so copies see each other). */
const COPIES = Symbol.for('resource-service.runtime-copies');

const registry = ((globalThis as { [COPIES]?: Set<string> })[COPIES] ??= new Set<string>());
registry.add(new URL('.', import.meta.url).href);

/**
 * Throws when more than one copy of the runtime is loaded in this process, naming each copy's
 * folder and the fix (docs/behaviour.md §13.1: one install of the package per application).
 */
export function assertOneRuntime(): void {
  if (registry.size <= 1) return;
  throw new Error(
    `two copies of resource-service are loaded in one process (${[...registry].join(', ')}): the application and its generated code must import the same install. ` +
      'Import the runtime by the package name (`resource-service`), never by a path into node_modules, and check `npm ls resource-service` lists one copy',
  );
}
