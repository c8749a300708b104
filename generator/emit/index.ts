/**
 * Every text file the generator emits, as a map of paths (relative to `generated/`) to content.
 * Pure: nothing is written here (docs/architecture.md §1: only the last pipeline step writes).
 */
import { emitContainer } from './app/container.js';
import { emitEntities } from './app/entities.js';
import { emitGateways } from './app/gateways.js';
import { emitJobs, emitListeners, emitSchedules } from './app/jobs.js';
import { emitApp, emitMain } from './app/main.js';
import { emitMcp } from './app/mcp.js';
import { emitDatabase, emitRepositories } from './app/repositories.js';
import { emitResources } from './app/resources.js';
import type { EmitContext } from './context.js';
import { emitComplexity } from './graphql/complexity.js';
import { emitGuards } from './graphql/guards.js';
import { emitRelations } from './graphql/relations.js';
import { emitResolvers } from './graphql/resolvers.js';
import { emitSdl } from './graphql/schema.js';
import { emitRoutes } from './http/routes.js';
import { emitOpenApi } from './openapi/catalog.js';
import { emitPrismaSchema } from './prisma/schema.js';
import type { GeneratedFile } from './writer.js';
import { DIALECTS } from '../../runtime/dialects/index.js';
import { schemaPath } from '../paths.js';

/** The marker file: `generate` refuses to clear an output folder without it. */
export const MARKER_FILE = 'README.md';
/** The marker line at the top of {@link MARKER_FILE}. */
export const MARKER_LINE = '<!-- resource-service generated output: do not edit; `npm run generate` rewrites this folder -->';

function emitReadme(): GeneratedFile {
  return {
    path: MARKER_FILE,
    content: `${MARKER_LINE}

# generated/

Everything here is written by \`npm run generate\` from \`entities/\`; edit the declarations, not these
files. CI runs \`generate --check\`, which fails when this folder is stale.

Follow a request from route to SQL:

1. \`http/routes.ts\` (REST) or \`graphql/resolvers.ts\` (GraphQL): the posture gate, argument pipes,
   the call of the declared controller or resolver method, masking of what it returns.
2. \`entities/*.controller.ts\` / \`entities/*.resolver.ts\` → \`entities/*.service.ts\`: your code; or, for an
   entity marked \`@Resource\`, \`resources/*.resource.ts\` → \`runtime/data/resource-service.ts\` (the
   input checks and the refusal of fields the caller's grant does not permit).
3. \`repositories/*.repository.ts\`: scoped data access, implemented in \`runtime/data/repository.ts\`;
   the row scope comes from the caller's ability (\`entities/abilities.ts\`).
4. \`prisma/<database>/client/\`: the Prisma client of SQLite or PostgreSQL (picked from
   \`APP_DATABASE__URL\`); \`prisma/<database>/schema.prisma\` and \`prisma/<database>/migrations/\`
   describe the tables.

Follow a job: \`queue.add(name, payload)\` in a service checks the payload against the schema in
\`jobs.ts\`, the database stores it (pg-boss on PostgreSQL, in process on SQLite), and the jobs
transport runs the \`@Process\` method \`jobs.ts\` names for it. \`schedules.ts\` and \`listeners.ts\`
do the same for \`@Cron\` and \`@OnEvent\` methods (each file exists when the application declares one).

Also here: \`schema.graphql\` (the SDL), \`container.ts\` (providers, dependencies first),
\`entities.ts\` (wire fields and input structures), \`app.ts\` and \`main.ts\` (the entry point), and
\`client/\`: typed clients for the API's callers, written from \`openapi/\` and \`schema.graphql\` (a REST
client per version, a GraphQL client); nothing in the server imports them.
`,
  };
}


/**
 * Every emitted text file except migrations and the Prisma client (which need tools).
 * Takes the emit context (the resolved model and the output layout); returns the files sorted by
 * path. Pure: writes nothing (only the pipeline's last step writes).
 */
export function emitFiles(context: EmitContext): GeneratedFile[] {
  const files: GeneratedFile[] = [
    emitReadme(),
    ...DIALECTS.map((dialect) => ({ path: schemaPath(dialect.name), content: emitPrismaSchema(context.app, dialect) })),
    emitSdl(context),
    emitEntities(context),
    emitDatabase(context),
    ...emitRepositories(context),
    ...emitResources(context),
    emitContainer(context),
    emitGateways(context),
    ...(context.app.mounted.mcp ? [emitMcp(context, context.app.mounted.mcp)] : []),
    ...[emitJobs(context), emitSchedules(context), emitListeners(context)].filter((file): file is GeneratedFile => file !== undefined),
    emitResolvers(context),
    emitRelations(context),
    emitComplexity(context),
    emitGuards(context),
    emitRoutes(context),
    ...emitOpenApi(context),
    emitApp(context),
    emitMain(context),
  ];
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
