/**
 * Emits the composition root: `app.ts` (everything the runtime needs to start this application)
 * and `main.ts` (the entry point a deployment runs).
 */
import { LOADER_SCOPE } from '../../model/builtins.js';
import { providerVariable, repositoryClass } from '../../model/naming.js';
import { type EmitContext, repositoryEntities } from '../context.js';
import { type GeneratedFile, quote, TypeScriptFile } from '../writer.js';

/** The `app.ts` file. */
export function emitApp(context: EmitContext): GeneratedFile {
  const { app, outputDir } = context;
  const file = new TypeScriptFile(
    'app.ts',
    context,
    'The application as the runtime starts it: schema, entities, database client, container, resolvers,\nthe ability factory and the transports it is reached through. Read a request from here: routes →\ncontroller → service → repository.',
  );
  const { body: w, imports } = file;
  const definition = imports.type('runtime/server/server.ts', 'ApplicationDefinition');
  imports.value(`${outputDir}/container.ts`, 'createContainer');
  imports.type(`${outputDir}/container.ts`, 'Container');
  imports.value(`${outputDir}/database.ts`, 'createDatabase');
  imports.type(`${outputDir}/database.ts`, 'Database');
  imports.value(`${outputDir}/entities.ts`, 'ENTITIES');
  imports.value(`${outputDir}/graphql/resolvers.ts`, 'createResolvers');
  imports.value(`${outputDir}/graphql/guards.ts`, 'createGuards');
  imports.value(`${outputDir}/graphql/guards.ts`, 'GLOBAL_GUARDS');
  imports.value(`${outputDir}/graphql/guards.ts`, 'OPERATION_GUARDS');
  imports.value(`${outputDir}/graphql/complexity.ts`, 'CONNECTION_TYPES');
  imports.value(`${outputDir}/graphql/complexity.ts`, 'FIELD_COMPLEXITY');
  const abilities = app.mounted.abilities[0];
  w.writeLine('/** This application. */');
  w.write(`export const application: ${definition}<Database, Container> = `).inlineBlock(() => {
    w.writeLine("schemaFile: new URL('./schema.graphql', import.meta.url),");
    w.writeLine("documentsFile: new URL('./graphql/documents.json', import.meta.url),");
    w.writeLine('entities: ENTITIES,');
    w.writeLine('createDatabase,');
    w.writeLine('createContainer,');
    w.writeLine('createResolvers,');
    w.writeLine(`abilities: (container) => container.${abilities ? providerVariable(abilities.name) : 'undefined as never'},`);
    w.writeLine(
      `repositories: (container) => ({ ${repositoryEntities(app)
        .map((entity) => `${entity.name}: container.${providerVariable(repositoryClass(entity.name))}`)
        .join(', ')} }),`,
    );
    if (app.mounted.loaderScope) w.writeLine(`loaderScope: (container) => container.${providerVariable(LOADER_SCOPE)},`);
    else w.writeLine('loaderScope: () => undefined, // no module reachable from AppModule provides LoaderScope (docs/behaviour.md §5.10)');
    const policies = app.versionPolicies.map((policy) => {
      const parts = [
        policy.deprecated === true ? 'deprecated: true' : policy.deprecated ? `deprecated: ${quote(policy.deprecated)}` : undefined,
        policy.sunset ? `sunset: ${quote(policy.sunset)}` : undefined,
      ].filter(Boolean);
      return `${quote(policy.version)}: { ${parts.join(', ')} }`;
    });
    w.writeLine(`versionPolicies: ${objectLiteral(policies)},`);
    w.writeLine(`eventTopics: ${objectLiteral(eventTopics(context))},`);
    w.writeLine(`cronSettings: ${cronSettings(context, imports)},`);
    w.writeLine('createGuards,');
    w.writeLine('operationGuards: OPERATION_GUARDS,');
    w.writeLine('globalGuards: GLOBAL_GUARDS,');
    w.writeLine('fieldComplexity: FIELD_COMPLEXITY,');
    w.writeLine('connectionTypes: CONNECTION_TYPES,');
    w.writeLine(`transports: [${transports(context, imports).join(', ')}],`);
  });
  w.write(';');
  return file.render();
}

/** The application's `CRON_SETTINGS` (generated/schedules.ts, imported), or `[]` when it schedules nothing. */
function cronSettings(context: EmitContext, imports: TypeScriptFile['imports']): string {
  return context.app.mounted.cronTasks.length > 0 ? imports.value(`${context.outputDir}/schedules.ts`, 'CRON_SETTINGS') : '[]';
}

/**
 * The transports of the application, in mount order (runtime/transports/index.ts): `/health`, the
 * API documents, GraphQL over HTTP, REST routes, graphql-ws, the gateways, job processors,
 * scheduled tasks and listeners when it declares any, and the MCP host when a mounted operation is
 * a tool (docs/behaviour.md §4.6).
 * Each is its runtime factory applied to the generated inputs it reads.
 */
function transports(context: EmitContext, imports: TypeScriptFile['imports']): string[] {
  const { app, outputDir } = context;
  const factory = (folder: string, name: string): string => imports.value(`runtime/transports/${folder}/index.ts`, name);
  const list = [
    `${factory('health', 'health')}()`,
    `${factory('api-docs', 'apiDocs')}(${imports.value(`${outputDir}/openapi/catalog.ts`, 'API_CATALOG')})`,
    `${factory('graphql-http', 'graphqlOverHttp')}()`,
    `${factory('rest', 'restRoutes')}(${imports.value(`${outputDir}/http/routes.ts`, 'createRoutes')})`,
    `${factory('graphql-ws', 'graphqlWs')}()`,
  ];
  if (app.mounted.gateways.length > 0)
    list.push(`${factory('gateways', 'gateways')}(${imports.value(`${outputDir}/gateways.ts`, 'createGateways')})`);
  if (app.mounted.mcp) list.push(`${factory('mcp', 'mcpHost')}(${imports.value(`${outputDir}/mcp.ts`, 'createMcpHost')})`);
  // Work with no caller (docs/behaviour.md §10), each only when declared.
  if (app.mounted.queues.length > 0) list.push(`${factory('jobs', 'jobs')}(${imports.value(`${outputDir}/processors.ts`, 'createJobs')})`);
  if (app.mounted.cronTasks.length > 0)
    list.push(`${factory('schedules', 'schedules')}(${imports.value(`${outputDir}/schedules.ts`, 'createSchedules')})`);
  if (app.mounted.listeners.length > 0)
    list.push(`${factory('listeners', 'listeners')}(${imports.value(`${outputDir}/listeners.ts`, 'createListeners')})`);
  return list;
}

/** `{ a, b }` on one line, or `{}`. */
function objectLiteral(entries: readonly string[]): string {
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/**
 * `topic: 'Entity'` for every subscription whose item is an entity, sorted by topic: a
 * cross-process event relay sends such events as an id and each process reloads the row.
 */
function eventTopics(context: EmitContext): string[] {
  const topics = new Map<string, string>();
  for (const resolver of context.app.mounted.resolvers) {
    for (const operation of resolver.operations) {
      if (operation.eventEntity !== undefined) topics.set(operation.topic ?? operation.fieldName, operation.eventEntity);
    }
  }
  return [...topics].sort(([a], [b]) => a.localeCompare(b)).map(([topic, entity]) => `${quote(topic)}: ${quote(entity)}`);
}

/** The `main.ts` file. */
export function emitMain(context: EmitContext): GeneratedFile {
  const file = new TypeScriptFile(
    'main.ts',
    context,
    'Entry point of the generated server: `node --import tsx generated/main.ts` (what `serve` runs).\nConfiguration comes from APP_* environment variables (README, docs/behaviour.md §4.5).',
  );
  const { body: w, imports } = file;
  imports.value('runtime/server/main.ts', 'runServer');
  w.writeLine('// The application is imported by the process that serves it: a cluster primary only forks the workers.');
  w.writeLine(
    `await runServer({ cronSettings: ${cronSettings(context, imports)}, load: async () => (await import('./app.js')).application });`,
  );
  return file.render();
}
