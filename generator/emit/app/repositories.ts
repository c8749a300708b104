/**
 * Emits one repository per entity: a typed subclass of the runtime's `EntityRepository` (keyed by
 * `id`) or `CompositeKeyRepository` (a join table's composite key, docs/behaviour.md §2.6) binding
 * the Prisma delegate, so every query of that entity goes through the caller's row scope
 * (docs/behaviour.md §5).
 */
import { type DatabaseName, type Dialect, DIALECTS } from '../../../runtime/dialects/index.js';
import {
  columnKindsConstant,
  columnsConstant,
  fieldsConstant,
  insertShapeConstant,
  keyConstant,
  prismaClientAlias,
  prismaDelegate,
  referencesConstant,
  repositoryClass,
  repositoryModule,
} from '../../model/naming.js';
import type { EntityModel } from '../../model/model.js';
import { type EmitContext, repositoryEntities } from '../context.js';
import { insertsItself, writtenReferences } from './entities.js';
import { clientPath } from '../../paths.js';
import { type GeneratedFile, quote, RUNTIME_FOR_GENERATED_CODE, TypeScriptFile } from '../writer.js';

/**
 * The Prisma client module whose types stand for every database's client (their model APIs are
 * the same): the first dialect's, relative to `generated/`.
 */
export const PRISMA_CLIENT_MODULE = `${clientPath(DIALECTS[0].name)}/client.ts`;

function emitRepository(entity: EntityModel, context: EmitContext): GeneratedFile {
  const { outputDir } = context;
  const file = new TypeScriptFile(
    repositoryModule(entity.name),
    context,
    `Data access for ${entity.name} (${entity.source.file}), always inside the caller's row scope (docs/behaviour.md §5):\nreads are filtered by the ability's rules, writes are checked against them, and a caller\nwithout an ability gets nothing. The queries themselves are in runtime/data/${entity.compositeKey ? 'composite-key-repository.ts' : 'repository.ts'}.`,
  );
  const { body: w, imports } = file;
  const base = entity.compositeKey
    ? imports.value('runtime/data/composite-key-repository.ts', 'CompositeKeyRepository')
    : imports.value('runtime/data/repository.ts', 'EntityRepository');
  const logger = imports.type(RUNTIME_FOR_GENERATED_CODE, 'Logger');
  const database = imports.type(`${outputDir}/database.ts`, 'Database');
  const client = `${outputDir}/${PRISMA_CLIENT_MODULE}`;
  imports.type(client, 'Prisma');
  const row = imports.type(client, entity.name);
  imports.value(`${outputDir}/entities.ts`, columnsConstant(entity.name));
  imports.value(`${outputDir}/entities.ts`, columnKindsConstant(entity.name));
  // What a read grant masks (docs/behaviour.md §5.5): the wire fields; an entity off the wire masks its columns.
  const fields = entity.exposed ? `, fields: ${imports.value(`${outputDir}/entities.ts`, fieldsConstant(entity.name))}` : '';
  const insert = insertsItself(entity) ? `, insert: ${imports.value(`${outputDir}/entities.ts`, insertShapeConstant(entity.name))}` : '';
  const references =
    writtenReferences(entity).length > 0
      ? `, references: ${imports.value(`${outputDir}/entities.ts`, referencesConstant(entity.name))}`
      : '';
  const schema = imports.value(`${outputDir}/entities.ts`, 'SCOPE_SCHEMA');
  const runner = imports.type('runtime/data/sql-runner.ts', 'SqlRunner');
  // A composite key's repository also takes the key: its columns as a type, and in key order as a value.
  const keyType = entity.primaryKeys.map((column) => quote(column.name)).join(' | ');
  const key = entity.compositeKey ? `, key: ${imports.value(`${outputDir}/entities.ts`, keyConstant(entity.name))}` : '';
  w.writeLine(
    entity.compositeKey
      ? `/** Scoped data access for ${entity.name}, by its key (${entity.primaryKeys.map((column) => column.name).join(', ')}): lookups, lists and checked writes. */`
      : `/** Scoped data access for ${entity.name}: pages, lookups, loader batches and checked writes. */`,
  );
  w.write(
    `export class ${repositoryClass(entity.name)} extends ${base}<${row}, ${entity.compositeKey ? `${keyType}, ` : ''}Prisma.${entity.name}WhereInput, Prisma.${entity.name}UncheckedCreateInput>`,
  ).block(() => {
    w.write(`constructor(database: ${database}, sqlRunner: ${runner}, logger: ${logger})`).block(() => {
      w.writeLine(
        `super(${quote(entity.name)}, database.${prismaDelegate(entity.name)}, { columns: ${columnsConstant(entity.name)}${fields}, columnKinds: ${columnKindsConstant(entity.name)}${insert}${references}${key}, schema: ${schema}, sqlRunner, logger });`,
      );
    });
  });
  return file.render();
}

/** Every repository file: one per entity keyed by `id` or by a composite key (docs/behaviour.md §2.6). */
export function emitRepositories(context: EmitContext): GeneratedFile[] {
  return repositoryEntities(context.app).map((entity) => emitRepository(entity, context));
}

/** The `database.ts` file: the Prisma client type and its construction from a driver adapter. */
export function emitDatabase(context: EmitContext): GeneratedFile {
  const { outputDir } = context;
  const file = new TypeScriptFile(
    'database.ts',
    context,
    "The Prisma client of this application (docs/decisions.md §2), constructed on a driver adapter chosen\nfrom APP_DATABASE__URL by runtime/data/database.ts. Only that database's client is loaded.",
  );
  const { body: w, imports } = file;
  const [first, ...others] = DIALECTS;
  const clientFile = (dialect: Dialect<DatabaseName>): string => `${outputDir}/${clientPath(dialect.name)}/client.ts`;
  const clientType = imports.type(clientFile(first), 'PrismaClient', prismaClientAlias(first.name));
  const adapter = imports.type(RUNTIME_FOR_GENERATED_CODE, 'SqlDriverAdapterFactory');
  const options = imports.type('runtime/data/database.ts', 'DatabaseOptions');
  // The example delegate is one of this application's entities, never the demo's.
  const example = context.app.entities[0];
  const delegates = example === undefined ? '' : ` (\`database.${prismaDelegate(example.name)}\`, …)`;
  w.writeLine(`/** The Prisma client: one delegate per entity${delegates}; the ${first.title} type stands for every database's. */`);
  w.writeLine(`export type Database = InstanceType<typeof ${clientType}>;`);
  w.blankLine();
  const loadError = imports.value('runtime/data/database.ts', 'prismaClientLoadError');
  w.writeLine(
    '/** The client class of each database, loaded on demand, by the name of its driver adapter (the clients share their model API), and its folder. */',
  );
  w.write(
    `const CLIENTS: Readonly<Record<string, { readonly folder: string; readonly load: () => Promise<typeof ${clientType}> }>> = `,
  ).inlineBlock(() => {
    const folder = (dialect: Dialect<DatabaseName>): string => quote(`${outputDir}/${clientPath(dialect.name)}`);
    w.writeLine(
      `${quote(first.adapterName)}: { folder: ${folder(first)}, load: async () => (await import(${quote(imports.dynamic(clientFile(first)))})).PrismaClient },`,
    );
    for (const dialect of others)
      w.writeLine(
        `${quote(dialect.adapterName)}: { folder: ${folder(dialect)}, load: async () => (await import(${quote(imports.dynamic(clientFile(dialect)))})).PrismaClient as unknown as typeof ${clientType} },`,
      );
  });
  w.write(';').newLine().blankLine();
  w.writeLine(
    "/** The client class of the adapter's database. Throws for an adapter no database of this application uses, and for a client not generated yet. */",
  );
  w.write(`async function clientFor(adapter: ${adapter}): Promise<typeof ${clientType}>`).block(() => {
    w.writeLine('const client = CLIENTS[adapter.adapterName];');
    w.writeLine('if (!client) throw new Error(`no Prisma client is generated for the driver adapter ${adapter.adapterName}`);');
    w.writeLine(`return client.load().catch((error: unknown) => { throw ${loadError}(error, client.folder); });`);
  });
  w.blankLine();
  w.writeLine('/** Wraps a driver adapter factory in the Prisma client of its database; `onQuery` sees every SQL statement sent. */');
  w.write(`export async function createDatabase(adapter: ${adapter}, options: ${options} = {}): Promise<Database>`).block(() => {
    w.writeLine('const Client = await clientFor(adapter);');
    w.write('if (options.onQuery)').block(() => {
      w.writeLine("const client = new Client({ adapter, log: [{ emit: 'event', level: 'query' }] });");
      w.writeLine('const onQuery = options.onQuery;');
      w.writeLine("client.$on('query', (event) => onQuery(event.query));");
      w.writeLine('return client;');
    });
    w.writeLine('return new Client({ adapter });');
  });
  return file.render();
}
