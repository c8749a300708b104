/**
 * Generates a Prisma client from an emitted schema (docs/decisions.md §2), in this process, with the
 * code `prisma generate` runs: `@prisma/internals` reads the schema and its generator block, and the
 * `prisma-client` generator (`@prisma/client-generator-ts`, the CLI's own, registered as the CLI
 * registers it) writes the client. Both are pinned to the `prisma` CLI's exact version, and
 * test/generator/prisma-client.test.ts checks that the files are the ones the CLI writes.
 *
 * The CLI would cost a process per schema that spends about 0.6 s loading its 9 MB of JavaScript
 * before generating for 0.15 s; loaded here once, both clients take about 0.5 s together
 * (docs/decisions.md §2, "Prisma clients without the CLI").
 */
import { createRequire } from 'node:module';

// Their ES module builds import files without extensions, which Node's ESM resolution refuses: the
// CommonJS builds are the ones that load.
const require = createRequire(import.meta.url);

type Internals = typeof import('@prisma/internals');
type ClientGenerator = typeof import('@prisma/client-generator-ts');

/** Failure of Prisma's client generation, with Prisma's message. */
export class PrismaGenerateError extends Error {}

let loaded: { internals: Internals; generator: ClientGenerator } | undefined;

/** Prisma's modules, loaded on first use (about 0.2 s): a run that changes no schema never pays for them. */
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
