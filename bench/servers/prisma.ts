/**
 * The generated Prisma client of the benchmark database's kind, as the baselines and peers open it
 * (BENCHMARKS.md): SQLite through `@prisma/adapter-better-sqlite3`, PostgreSQL through
 * `@prisma/adapter-pg`, each the client generated for that database (`generated/prisma/<db>/client`).
 * Only the database's own client and driver are loaded.
 */
import { sqliteFilePath } from '../../runtime/dialects/sqlite.js';
import type { PrismaClient } from '../../generated/prisma/sqlite/client/client.js';

/**
 * A Prisma client on `databaseUrl` (`file:` or `postgres://`). Both generated clients have the
 * same models and fields; the SQLite client's type stands for both. With `onQuery`, every statement
 * is reported (statement counts).
 */
export async function openPrisma(databaseUrl: string, onQuery?: (sql: string) => void): Promise<PrismaClient> {
  const log = onQuery ? { log: [{ emit: 'event' as const, level: 'query' as const }] } : {};
  let prisma: PrismaClient;
  if (databaseUrl.startsWith('file:')) {
    const [{ PrismaBetterSqlite3 }, { PrismaClient: SqliteClient }] = await Promise.all([
      import('@prisma/adapter-better-sqlite3'),
      import('../../generated/prisma/sqlite/client/client.js'),
    ]);
    prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${sqliteFilePath(databaseUrl)}` }), ...log });
  } else {
    const [{ PrismaPg }, { PrismaClient: PostgresClient }] = await Promise.all([
      import('@prisma/adapter-pg'),
      import('../../generated/prisma/postgresql/client/client.js'),
    ]);
    prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: databaseUrl }), ...log }) as unknown as PrismaClient;
  }
  if (onQuery)
    (prisma as unknown as { $on(event: 'query', listener: (event: { query: string }) => void): void }).$on('query', (event) =>
      onQuery(event.query),
    );
  return prisma;
}
