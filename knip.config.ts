/**
 * Dead-code check (docs/architecture.md §6 "Hygiene is checked"): knip reports files nothing reaches, exports nothing imports, and
 * dependencies nothing uses. `test/project/hygiene.test.ts` runs it in `npm test`.
 */
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    // (The generator's CLI, the benchmark and the soak run are found from package.json's scripts.)
    // The generated server's entry point (`npm start` runs its compiled form).
    'generated/main.ts',
    // The typed clients, imported by the API's callers rather than by anything here
    // (test/http/client.test.ts compiles and runs a caller of them).
    'generated/client/*.ts',
    // The dev loop's server process, started by path (generator/dev-loop.ts forks it).
    'generator/dev-server.ts',
    'generator/typecheck-child.ts',
    // Declarations the generator reads and the generated code imports; `dev.ts` is loaded by the CLI.
    'entities/*.ts',
    'test/support/postgres.ts',
    // The runtime's API for application code: every decorator, scalar, pipe and hook an application
    // may import, whether or not the demo does.
    'runtime/declarations/*.ts',
  ],
  // A type exported beside the function whose signature names it is part of that function's API.
  ignoreExportsUsedInFile: { interface: true, type: true },
  project: ['**/*.{ts,prisma}', '*.js'],
  // The Express 5 integration of the Apollo server, which the NestJS peer of the benchmark
  // (bench/peers/nest/) loads through @nestjs/apollo without naming it (knip sees @apollo/server
  // and rxjs as that package's and @nestjs/core's peers).
  // And @graphql-tools/merge, which nothing imports: a dependency pinned to a release whose own
  // dependencies run on Node 20, so that an install without our lock file resolves one (package.json).
  ignoreDependencies: ['@as-integrations/express5', '@graphql-tools/merge'],
  ignore: [
    // Prisma's output, replaced on every generate.
    'generated/prisma/**',
    // Inputs of tests that read them as data (fixtures, golden cases, error cases) and the template
    // `init` copies into a new application.
    'test/errors/**',
    'test/golden/**',
    'test/fixtures/**',
    'templates/**',
  ],
};

export default config;
