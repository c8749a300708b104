/**
 * The GraphQL engine every GraphQL transport shares (GraphQL over HTTP, graphql-ws, and later the
 * MCP host): the executable schema built from the committed SDL and the generated resolvers, and
 * the {@link OperationPreparer} that parses, bounds, validates, scores and guards each operation
 * (docs/behaviour.md §4.1, §5.2, §8; docs/hostile-input.md §2) and gives it per-request loaders (docs/behaviour.md §5.10).
 * It is not a transport: it serves none, the transports in runtime/transports/ call it.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { IResolvers } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { AbilityCache } from '../auth/ability.js';
import type { AppConfig } from '../server/config.js';
import type { EntityDescriptor } from '../data/entity-metadata.js';
import type { Observability } from '../observability/index.js';
import { AuthenticationGuard, type CanActivate, GraphQLAuthorizationGuard, type RuntimeGuards } from '../auth/guards.js';
import type { GraphQLContext } from './context.js';
import { type FieldComplexity, QueryLimits } from './limits.js';
import { type LoaderRegistry, type LoaderScope, RequestLoaders, type ScopedReader } from './loaders.js';
import type { DocumentCache } from './execution.js';
import { PersistedDocuments } from './persisted.js';
import { OperationPreparer } from './prepare.js';
import { buildExecutableSchema } from './schema.js';
import { printSdl } from './sdl.js';

/** The GraphQL part of an application definition (runtime/server/server.ts `ApplicationDefinition` has every field). */
export interface GraphQLApplication<Container, Services> {
  /** The committed SDL (`generated/schema.graphql`). */
  readonly schemaFile: URL;
  /** The persisted-document manifest (`generated/graphql/documents.json`), read when `APP_GRAPHQL__TRUSTED_DOCUMENTS` is on (docs/behaviour.md §4.10). */
  readonly documentsFile?: URL;
  /** Exposed entities: wire fields and relations. */
  readonly entities: readonly EntityDescriptor[];
  readonly createResolvers: (container: Container, services: Services) => IResolvers<unknown, GraphQLContext>;
  /** Repositories by entity name (relation loaders read through them). */
  readonly repositories: (container: Container) => Readonly<Record<string, ScopedReader>>;
  /** The container's `LoaderScope`, or undefined when no reachable module provides one (docs/behaviour.md §5.10). */
  readonly loaderScope: (container: Container) => LoaderScope | undefined;
  /** Scores of relation fields and `@Complexity` overrides (docs/behaviour.md §8). */
  readonly fieldComplexity: Readonly<Record<string, FieldComplexity>>;
  /** Connection, edge and page-info types (transparent for scoring and depth). */
  readonly connectionTypes: readonly string[];
  /** Guard instances by name (runtime guards and the application's own). */
  readonly createGuards: (container: Container, runtime: RuntimeGuards) => Readonly<Record<string, CanActivate>>;
  /** The guard chain of every root field (docs/behaviour.md §5.2). */
  readonly operationGuards: Readonly<Record<string, readonly string[]>>;
  /** The chain of operations selecting no declared field. */
  readonly globalGuards: readonly string[];
}

/** What GraphQL transports execute with. */
export interface GraphQLEngine {
  readonly schema: GraphQLSchema;
  /** Prepares every operation of every GraphQL transport (one document cache for all). */
  readonly preparer: OperationPreparer;
}

/** What the engine is built with besides the application. */
export interface GraphQLEngineOptions<Container, Services> {
  readonly container: Container;
  /** Handed to the generated resolvers (logger, event bus, SQL runner). */
  readonly services: Services;
  readonly config: AppConfig;
  readonly abilities: AbilityCache;
  readonly logger: Logger;
  /** Observes loader batches (docs/behaviour.md §12.2, §12.3). */
  readonly observability: Observability;
}

/**
 * Builds the schema and the preparer of `application`. Reads the committed SDL; with
 * `APP_GRAPHQL__EMIT_SDL` writes the schema it built beside it (through a temporary file, so a
 * reader never sees half). Warns once when relation loaders have no batch context (docs/behaviour.md §5.10).
 * With `APP_GRAPHQL__TRUSTED_DOCUMENTS` on, reads and checks the persisted documents (docs/behaviour.md §4.10).
 * Throws when the SDL and the resolvers disagree (graphql-tools' error), or when the manifest is
 * missing or holds a document this server refuses.
 */
export function createGraphQLEngine<Container, Services>(
  application: GraphQLApplication<Container, Services>,
  options: GraphQLEngineOptions<Container, Services>,
): GraphQLEngine {
  const { container, config, logger } = options;
  const loaderScope = application.loaderScope(container);
  const registry: LoaderRegistry = {
    repositories: new Map(Object.entries(application.repositories(container))),
    entities: new Map(application.entities.map((entity) => [entity.name, entity])),
    logger,
    observe: options.observability.loaderObserver(),
  };
  const loaderCount = application.entities.reduce((count, entity) => count + entity.relations.length, 0);
  if (!loaderScope && loaderCount > 0) {
    logger.warn(
      { loaders: loaderCount },
      `${loaderCount} loaders were seeded with no batch context: list LoaderScope in a module reachable from AppModule, or every relation field fails with "database error"`,
    );
  }
  const limits = new QueryLimits({
    maxComplexity: config.graphql.maxComplexity,
    maxDepth: config.graphql.maxDepth,
    fieldComplexity: application.fieldComplexity,
    connectionTypes: new Set(application.connectionTypes),
    suggestions: config.graphql.introspection,
  });

  const sdl = readFileSync(application.schemaFile, 'utf8');
  const schema = buildExecutableSchema(sdl, application.createResolvers(container, options.services), application.entities);
  if (config.graphql.emitSdl) {
    // Beside the entry point; written to a temporary name and renamed, so a reader never sees half.
    const target = fileURLToPath(new URL('./schema.graphql', application.schemaFile));
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, printSdl(schema));
    renameSync(temporary, target);
    logger.info({ file: target }, `wrote the GraphQL schema to ${target} (APP_GRAPHQL__EMIT_SDL)`);
  }

  const { trustedDocuments } = config.graphql;
  const runtimeGuards: RuntimeGuards = {
    authentication: new AuthenticationGuard(),
    graphqlAuthorization: new GraphQLAuthorizationGuard(options.abilities),
  };
  const preparer = new OperationPreparer(
    schema,
    limits,
    {
      operations: application.operationGuards,
      global: application.globalGuards,
      guards: application.createGuards(container, runtimeGuards),
    },
    (request, authentication) => ({ request, authentication, loaders: new RequestLoaders(loaderScope?.capture(request), registry) }),
    logger,
    {
      documents: {
        maxTokens: config.graphql.maxTokens,
        maxNesting: config.graphql.maxNesting,
        maxOperations: config.graphql.maxOperations,
        maxDirectives: config.graphql.maxDirectives,
        maxAliases: config.graphql.maxAliases,
        maxFields: config.graphql.maxFields,
        introspection: config.graphql.introspection,
      },
      maxRows: config.graphql.maxRows,
      maxResponseBytes: config.graphql.maxResponseBytes,
      ...(trustedDocuments === 'off'
        ? {}
        : { persisted: (cache: DocumentCache) => PersistedDocuments.load(application.documentsFile, trustedDocuments, cache) }),
    },
  );
  if (preparer.persisted)
    logger.info(
      { documents: preparer.persisted.size, trustedDocuments },
      `trusted documents ${trustedDocuments === 'require' ? 'required' : 'allowed'}: ${preparer.persisted.size} persisted documents checked`,
    );
  return { schema, preparer };
}
