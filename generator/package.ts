/**
 * The package the generator ships in (docs/architecture.md §5, "The package's surface"): its name
 * and version, where its runtime's declarations and its templates are, and how a module of the
 * runtime is imported by name — the one place that reads the package's `package.json`.
 *
 * Applications import the runtime only through the package's `exports`: `resource-service` (what
 * declarations are written with), `resource-service/runtime` (what generated code calls),
 * `resource-service/transports/<name>`, `resource-service/testing`. Inside this repository the
 * `resource-service-source` condition points them at the TypeScript sources; an installed package
 * has only its compiled JavaScript and type declarations (`dist/`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOL_ROOT } from './tool-root.js';

/** The condition under which the package's `exports` name its TypeScript sources (this repository's `.npmrc` and tsconfig.json set it). */
const SOURCE_CONDITION = 'resource-service-source';

/** An entry of `exports`: a path, or conditions to paths. */
type ExportTarget = string | Readonly<Record<string, string>>;

interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly exports: Readonly<Record<string, ExportTarget>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(path.join(TOOL_ROOT, 'package.json'), 'utf8')) as PackageManifest;

/** The package's name: what applications import and what `npx` runs. */
export const PACKAGE_NAME = manifest.name;

/** The generator's version (the package's), named in every generated file's header. */
export const GENERATOR_VERSION = manifest.version;

/**
 * The packages an application's own code and its generated code import besides this one (the
 * Prisma client's runtime, graphql, zod, the typed clients' openapi-fetch), by range: `init`
 * writes them into a new application's dependencies.
 */
export const PEER_DEPENDENCIES: Readonly<Record<string, string>> = manifest.peerDependencies ?? {};

/** Whether the runtime's TypeScript sources are here (this repository) rather than only its compiled declarations (an installed package). */
const FROM_SOURCES = existsSync(path.join(TOOL_ROOT, 'runtime', 'index.ts'));

/**
 * The folder whose files declare the runtime's API, as the parser reads them: `runtime/` (sources)
 * in this repository, `dist/runtime/` (`.d.ts` files) in an installed package.
 */
export const RUNTIME_DIR = path.join(TOOL_ROOT, ...(FROM_SOURCES ? ['runtime'] : ['dist', 'runtime']));

/** The application `init` writes (templates/new-application/). */
export const TEMPLATE_DIR = path.join(TOOL_ROOT, 'templates', 'new-application');

/**
 * The file a specifier of this package names for the parser (`resource-service` →
 * `<root>/runtime/index.ts` or `<root>/dist/runtime/index.d.ts`), by the package's `exports`;
 * undefined for another package's specifier or a subpath `exports` does not name.
 */
export function packageEntryFile(specifier: string): string | undefined {
  if (specifier !== PACKAGE_NAME && !specifier.startsWith(`${PACKAGE_NAME}/`)) return undefined;
  const subpath = `.${specifier.slice(PACKAGE_NAME.length)}`;
  for (const [pattern, target] of Object.entries(manifest.exports)) {
    const star = pattern.indexOf('*');
    let matched: string | undefined;
    if (star < 0) matched = pattern === subpath ? '' : undefined;
    else if (
      subpath.startsWith(pattern.slice(0, star)) &&
      subpath.endsWith(pattern.slice(star + 1)) &&
      subpath.length >= pattern.length - 1
    ) {
      matched = subpath.slice(star, subpath.length - (pattern.length - star - 1));
    }
    if (matched === undefined || typeof target === 'string') continue;
    const file = FROM_SOURCES ? target[SOURCE_CONDITION] : target.types;
    return file === undefined ? undefined : path.join(TOOL_ROOT, file.replace('*', matched));
  }
  return undefined;
}

/** The runtime's process entry (`runServer`), an entry of its own so that loading it loads nothing else. */
const RUNTIME_MAIN = 'runtime/server/main.ts';

/**
 * How generated code imports a module of the runtime, by its path in the model (`runtime/…`,
 * docs/architecture.md §1): a transport's own entry (`runtime/transports/rest/index.ts` →
 * `resource-service/transports/rest`), the application surface (`runtime/index.ts` →
 * `resource-service`), the entry of `generated/main.ts` (`runtime/server/main.ts` →
 * `resource-service/runtime/main`, which a cluster primary loads alone), and every other module
 * through `resource-service/runtime`, which re-exports them (runtime/generated.ts).
 */
export function runtimeSpecifier(file: string): string {
  const transport = /^runtime\/transports\/([a-z0-9-]+)\/index\.ts$/.exec(file);
  if (transport) return `${PACKAGE_NAME}/transports/${transport[1] ?? ''}`;
  if (file === 'runtime/index.ts') return PACKAGE_NAME;
  if (file.startsWith('runtime/testing/')) return `${PACKAGE_NAME}/testing`;
  if (file === RUNTIME_MAIN) return `${PACKAGE_NAME}/runtime/main`;
  return `${PACKAGE_NAME}/runtime`;
}
