/**
 * Emits one repository per entity: a typed subclass of the runtime's `EntityRepository`
 * binding the Prisma delegate, so every query of that entity goes through the caller's row
 * scope (spec §5).
 */
import { columnKindsConstant, columnsConstant, prismaDelegate, repositoryClass, repositoryModule } from '../../model/naming.js';
import type { EntityModel } from '../../model/model.js';
import { type EmitContext, keyedEntities } from '../context.js';
import { clientPath } from '../../paths.js';
import { type GeneratedFile, quote, TypeScriptFile } from '../writer.js';

/**
 * The Prisma client module whose types stand for both databases' clients (their model APIs are
 * the same), relative to `generated/`.
 */
export const PRISMA_CLIENT_MODULE = `${clientPath('sqlite')}/client.ts`;

function emitRepository(entity: EntityModel, context: EmitContext): GeneratedFile {
  const { outputDir } = context;
  const file = new TypeScriptFile(
    repositoryModule(entity.name), context,
    `Data access for ${entity.name} (${entity.source.file}), always inside the caller's row scope (spec §5):\nreads are filtered by the ability's rules, writes are checked against them, and a caller\nwithout an ability gets nothing. The queries themselves are in runtime/repository.ts.`,
  );
  const { body: w, imports } = file;
  const base = imports.value('runtime/repository.ts', 'EntityRepository');
  const logger = imports.packageType('pino', 'Logger');
  const database = imports.type(`${outputDir}/database.ts`, 'Database');
  const client = `${outputDir}/${PRISMA_CLIENT_MODULE}`;
  imports.type(client, 'Prisma');
  const row = imports.type(client, entity.name);
  imports.value(`${outputDir}/entities.ts`, columnsConstant(entity.name));
  imports.value(`${outputDir}/entities.ts`, columnKindsConstant(entity.name));
  const reader = imports.type('runtime/sql-reader.ts', 'SqlReader');
  w.writeLine(`/** Scoped data access for ${entity.name}: pages, lookups, loader batches and checked writes. */`);
  w.write(`export class ${repositoryClass(entity.name)} extends ${base}<${row}, Prisma.${entity.name}WhereInput, Prisma.${entity.name}UncheckedCreateInput>`).block(() => {
    w.write(`constructor(database: ${database}, reader: ${reader}, logger: ${logger})`).block(() => {
      w.writeLine(`super(${quote(entity.name)}, database.${prismaDelegate(entity.name)}, { columns: ${columnsConstant(entity.name)}, columnKinds: ${columnKindsConstant(entity.name)}, reader, logger });`);
    });
  });
  return file.render();
}

/** Every repository file. */
export function emitRepositories(context: EmitContext): GeneratedFile[] {
  return keyedEntities(context.app).map((entity) => emitRepository(entity, context));
}

/** The `database.ts` file: the Prisma client type and its construction from a driver adapter. */
export function emitDatabase(context: EmitContext): GeneratedFile {
  const { outputDir } = context;
  const file = new TypeScriptFile('database.ts', context, 'The Prisma client of this application (PRODUCT.md §2), constructed on a driver adapter chosen\nfrom APP_DATABASE__URL by runtime/database.ts. Only that database\'s client is loaded.');
  const { body: w, imports } = file;
  const sqlite = `${outputDir}/${clientPath('sqlite')}/client.ts`;
  const postgres = `${outputDir}/${clientPath('postgresql')}/client.ts`;
  imports.type(sqlite, 'PrismaClient', 'SqliteClient');
  const adapter = imports.packageType('@prisma/driver-adapter-utils', 'SqlDriverAdapterFactory');
  const options = imports.type('runtime/database.ts', 'DatabaseOptions');
  w.writeLine('/** The Prisma client: one delegate per entity (`database.user`, …); the SQLite type stands for both. */');
  w.writeLine('export type Database = InstanceType<typeof SqliteClient>;');
  w.blankLine();
  w.writeLine('/** The client class of the adapter\'s database, loaded on demand (the two clients share their model API). */');
  w.write(`async function clientFor(adapter: ${adapter}): Promise<typeof SqliteClient>`).block(() => {
    w.writeLine(`if (adapter.provider === 'postgres') return (await import(${quote(imports.dynamic(postgres))})).PrismaClient as unknown as typeof SqliteClient;`);
    w.writeLine(`return (await import(${quote(imports.dynamic(sqlite))})).PrismaClient;`);
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
