/**
 * `resource-service/runtime`: what the code `generate` writes imports from the runtime
 * (docs/architecture.md §5, "The package's surface"). Not for application code — its names follow
 * the generator of the same version and may change with it; declarations import `resource-service`.
 *
 * It re-exports the application surface (generated code imports the classes declarations name,
 * such as guards, through here too) and every runtime module an emitter imports from; each
 * transport has its own entry, `resource-service/transports/<name>`, so an application loads only
 * the transports it declares. test/cli/package.test.ts checks that every module an emitter names is
 * re-exported here.
 */
import './instance.js';

export * from './index.js';
export * from './auth/ability.js';
export * from './auth/context.js';
export * from './auth/guards.js';
export * from './auth/posture.js';
export * from './data/composite-key-repository.js';
export * from './data/database.js';
export * from './data/entity-metadata.js';
export * from './data/keyset.js';
export * from './data/repository.js';
export * from './data/resource-input.js';
export * from './data/resource-service.js';
export * from './data/sql-insert.js';
export * from './data/sql-runner.js';
export type { ScopeRelation, ScopeSchema, ScopeTable } from './data/sql-scope.js';
export * from './declarations/pipes.js';
export * from './events/bus.js';
export * from './failures/result.js';
export * from './graphql/context.js';
export * from './graphql/limits.js';
export * from './graphql/loaders.js';
export * from './graphql/operation.js';
export * from './graphql/subscriptions.js';
export * from './http/inputs.js';
export * from './http/openapi.js';
export * from './http/routes.js';
export * from './jobs/queue.js';
export * from './server/server.js';
// Types the generated code names from the runtime's own dependencies, so that an application's code
// needs no package but this one to type-check.
export type { IResolvers } from '@graphql-tools/utils';
export type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
export type { GraphQLResolveInfo } from 'graphql';
export type { Logger } from 'pino';
