/**
 * Generates a Prisma client from an emitted schema (docs/decisions.md §2), in this process, with the
 * code `prisma generate` runs: `@prisma/internals` reads the schema and its generator block, and the
 * `prisma-client` generator (`@prisma/client-generator-ts`, the CLI's own, registered as the CLI
 * registers it) writes the client. Both are pinned to the `prisma` CLI's exact version, and
 * test/generator/prisma-client.test.ts checks that the files are the ones the CLI writes.
 *
 * The CLI would cost a process per schema that spends longer loading its JavaScript than
 * generating; loaded here once, both clients are written in a fraction of that time
 * (docs/decisions.md §2, "Prisma clients without the CLI"; BENCHMARKS.md §"Where the time goes").
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type DatabaseName, schemaPath, SUPPORTED_DATABASES } from '../../paths.js';

// Their ES module builds import files without extensions, which Node's ESM resolution refuses: the
// CommonJS builds are the ones that load.
const require = createRequire(import.meta.url);

type Internals = typeof import('@prisma/internals');
type ClientGenerator = typeof import('@prisma/client-generator-ts');

/** Failure of Prisma's client generation, with Prisma's message. */
export class PrismaGenerateError extends Error {}

let loaded: { internals: Internals; generator: ClientGenerator } | undefined;

/** Prisma's modules, loaded on first use (BENCHMARKS.md §"Where the time goes"): a run that changes no schema never pays for them. */
function prismaModules(): { internals: Internals; generator: ClientGenerator } {
  loaded ??= { internals: require('@prisma/internals') as Internals, generator: require('@prisma/client-generator-ts') as ClientGenerator };
  return loaded;
}

/**
 * Generates the Prisma client described by `schemaFile` (absolute path of a `schema.prisma` whose
 * generator block names `prisma-client`) into that block's `output` folder, replacing what was
 * there, as `prisma generate --schema <schemaFile>` does. Generations run one after the other (the
 * callers await each); resolves once every file is written.
 * Rejects with {@link PrismaGenerateError} carrying Prisma's message when the schema does not
 * validate or a file cannot be written.
 */
export async function generatePrismaClient(schemaFile: string): Promise<void> {
  const { internals, generator } = prismaModules();
  let generators: Awaited<ReturnType<Internals['getGenerators']>> = [];
  try {
    const schemaContext = await internals.loadSchemaContext({ schemaPath: { cliProvidedPath: schemaFile }, printLoadMessage: false });
    generators = await internals.getGenerators({
      schemaContext,
      registry: { 'prisma-client': { type: 'in-process', generator: new generator.PrismaClientTsGenerator() } },
      cliCommand: 'generate',
      skipDownload: true,
    });
    for (const each of generators) await each.generate();
  } catch (error) {
    throw new PrismaGenerateError(`prisma generate failed for ${schemaFile}:\n${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const each of generators) each.stop();
  }
}

/**
 * The file in a client's folder that records what the client was generated from: a digest of the
 * schema and of the Prisma generator's version. Prisma replaces the folder on every generation, so
 * a client without it, or with another digest, is stale.
 */
export const CLIENT_STAMP_FILE = '.generated-from';

/** The version of Prisma's client generator (its package.json, above its entry: `exports` hides the file). */
function clientGeneratorVersion(): string {
  for (let dir = path.dirname(require.resolve('@prisma/client-generator-ts')); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === '@prisma/client-generator-ts' && version !== undefined) return version;
  }
  throw new Error('cannot find the version of @prisma/client-generator-ts');
}

/** The stamp of a client generated from `schema` by this generator's Prisma. */
function clientStamp(schema: string): string {
  const version = clientGeneratorVersion();
  return `${createHash('sha256').update(`prisma-client ${version}\0${schema}`).digest('hex')}\n`;
}

/**
 * Whether the client beside `schemaFile` (its generator block's `output`, `client/`) is missing or was
 * generated from another schema or Prisma version (docs/decisions.md §2, "Prisma clients are not
 * committed"). Throws only when `schemaFile` cannot be read.
 */
function isPrismaClientStale(schemaFile: string): boolean {
  const stamp = path.join(path.dirname(schemaFile), 'client', CLIENT_STAMP_FILE);
  return !existsSync(stamp) || readFileSync(stamp, 'utf8') !== clientStamp(readFileSync(schemaFile, 'utf8'));
}

/**
 * Generates the client of `schemaFile` as {@link generatePrismaClient} does, then records what it
 * was generated from ({@link CLIENT_STAMP_FILE}); rejects as {@link generatePrismaClient} does.
 */
async function refreshPrismaClient(schemaFile: string): Promise<void> {
  await generatePrismaClient(schemaFile);
  writeFileSync(path.join(path.dirname(schemaFile), 'client', CLIENT_STAMP_FILE), clientStamp(readFileSync(schemaFile, 'utf8')));
}

/**
 * The databases whose schema is in `generatedDir` and whose Prisma client is missing or was
 * generated from another schema or Prisma version: what {@link ensurePrismaClients} would write.
 */
export function stalePrismaClients(generatedDir: string): DatabaseName[] {
  return SUPPORTED_DATABASES.filter((database) => {
    const schemaFile = path.join(generatedDir, schemaPath(database));
    return existsSync(schemaFile) && isPrismaClientStale(schemaFile);
  });
}

/**
 * Regenerates the Prisma client of each database whose schema is in `generatedDir` and whose client
 * is missing or was generated from another schema or Prisma version (docs/decisions.md §2, "Prisma
 * clients are not committed"); what `generate`, `dev`, `build` and the commands that load the
 * application run. Resolves with the databases regenerated; rejects with Prisma's error.
 */
export async function ensurePrismaClients(generatedDir: string): Promise<DatabaseName[]> {
  const regenerated: DatabaseName[] = [];
  // One generation at a time: they run in this process (emit/prisma/client.ts).
  for (const database of SUPPORTED_DATABASES) {
    const schemaFile = path.join(generatedDir, schemaPath(database));
    if (!existsSync(schemaFile) || !isPrismaClientStale(schemaFile)) continue;
    await refreshPrismaClient(schemaFile);
    regenerated.push(database);
  }
  return regenerated;
}
