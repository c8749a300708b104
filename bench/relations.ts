/**
 * bench/relations (docs/behaviour.md §5.10, BENCHMARKS.md): statements per request and requests per second of the nested query
 *
 *   { users(first: N) { org { name } posts(first: 10) { edges { node { title } } } } }
 *
 * at N = 100 and N = 1000 parents, for the generated resolvers (batched loaders, one statement
 * per level) beside a naive resolver set (one query per parent), both executed in this process
 * with graphql-js against the same SQLite file, the same schema and the same scoped repositories.
 * `users(first:)` is clamped to 100, so the bench adds a `benchUsers(count:)` root field to reach
 * 1000 parents; only the relation resolvers differ between the two variants.
 *
 * Run: npm run bench:relations
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execute, parse } from 'graphql';
import { AppAbilities } from '../entities/abilities.js';
import { seed } from '../entities/seed.js';
import { createContainer } from '../generated/container.js';
import { createDatabase } from '../generated/database.js';
import { ENTITIES, ORG_FIELDS, POST_FIELDS, USER_FIELDS } from '../generated/entities.js';
import { createResolvers } from '../generated/graphql/resolvers.js';
import { maskOutput, maskRows } from '../runtime/auth/ability.js';
import { type RequestContext, runInContext, runUnscoped } from '../runtime/auth/context.js';
import { createAdapterFactory } from '../runtime/data/database.js';
import { EventBus } from '../runtime/events/bus.js';
import type { GraphQLContext } from '../runtime/graphql/context.js';
import { LoaderScope, RequestLoaders, toConnection } from '../runtime/graphql/loaders.js';
import { buildExecutableSchema } from '../runtime/graphql/schema.js';
import { createLogger } from '../runtime/server/logger.js';
import { applyMigrations } from '../runtime/data/migrations.js';
import { createSqlRunner } from '../runtime/dialects/index.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const USERS = 1000;
const POSTS_PER_USER = 10;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-relations-'));
  const url = `file:${path.join(dir, 'bench.db')}`;
  const schemaText = readFileSync(path.join(ROOT, 'generated/prisma/sqlite/schema.prisma'), 'utf8');
  await applyMigrations(schemaText, path.join(ROOT, 'generated/prisma/sqlite/migrations'), await createAdapterFactory(url));
  let statements = 0;
  const database = await createDatabase(await createAdapterFactory(url), { onQuery: () => statements++ });
  process.stdout.write(`seeding 1 org × ${USERS} users × ${POSTS_PER_USER} posts …\n`);
  const seeded = await runUnscoped(() => seed(database, { orgs: 1, users: USERS, posts: POSTS_PER_USER }));
  await database.$executeRawUnsafe('ANALYZE');

  const logger = createLogger({ level: 'silent' });
  const services = { logger, eventBus: new EventBus(), sqlRunner: await createSqlRunner(url, { onQuery: () => statements++ }) };
  const container = createContainer(database, services);
  const admin = seeded.users.find((user) => user.role === 'admin');
  if (!admin) throw new Error('no admin seeded');
  const principal = { sub: admin.id, org_id: admin.orgId, role: 'admin' };
  const request: RequestContext = { principal, ability: new AppAbilities().for(principal), unscoped: false };
  const registry = {
    repositories: new Map(Object.entries({ Org: container.orgRepository, Post: container.postRepository, User: container.userRepository })),
    entities: new Map(ENTITIES.map((entity) => [entity.name, entity])),
    logger,
  };
  const scope = new LoaderScope();

  const sdl = `${readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8')}\nextend type Query {\n  benchUsers(count: Int!): [User!]!\n}\n`;
  const benchUsers = {
    benchUsers: async (_parent: unknown, args: { count: number }, context: GraphQLContext) =>
      maskOutput(
        context.request,
        'User',
        USER_FIELDS,
        await database.user.findMany({ where: { orgId: admin.orgId }, orderBy: { id: 'asc' }, take: args.count }),
      ),
  };
  const generated = createResolvers(container, services) as Record<string, Record<string, unknown>>;
  const batched = buildExecutableSchema(sdl, { ...generated, Query: { ...generated.Query, ...benchUsers } }, ENTITIES);
  const naive = buildExecutableSchema(
    sdl,
    {
      ...generated,
      Query: { ...generated.Query, ...benchUsers },
      User: {
        ...generated.User,
        // One query per parent: the N + 1 the loaders exist to avoid.
        org: async (parent: { orgId?: string }, _args: unknown, context: GraphQLContext) =>
          maskOutput(context.request, 'Org', ORG_FIELDS, parent.orgId ? await container.orgRepository.findById(parent.orgId) : null),
        posts: async (parent: { id: string }, args: { first?: number | null; after?: string | null }, context: GraphQLContext) => {
          const page = await container.postRepository.page(args, { authorId: parent.id });
          return toConnection({ ...page, items: maskRows(context.request, 'Post', POST_FIELDS, page.items) });
        },
      },
    },
    ENTITIES,
  );

  const run = async (schema: typeof batched, parents: number): Promise<number> => {
    const document = parse(`{ benchUsers(count: ${parents}) { org { name } posts(first: 10) { edges { node { title } } } } }`);
    const contextValue: GraphQLContext = {
      request,
      authentication: { kind: 'authenticated', principal },
      loaders: new RequestLoaders(scope.capture(request), registry),
    };
    const before = statements;
    const result = await runInContext(request, () => execute({ schema, document, contextValue }));
    if (result.errors) throw new Error(result.errors.map((error) => error.message).join('; '));
    const users = (result.data as { benchUsers: { posts: { edges: unknown[] } }[] }).benchUsers;
    if (users.length !== parents || users.some((user) => user.posts.edges.length !== POSTS_PER_USER))
      throw new Error('unexpected result shape');
    return statements - before;
  };

  const rows: { variant: string; parents: number; statements: number; perSecond: number; msPerRequest: number }[] = [];
  for (const parents of [100, 1000]) {
    for (const [variant, schema] of [
      ['generated (loaders)', batched],
      ['naive (query per parent)', naive],
    ] as const) {
      for (let warm = 0; warm < 3; warm++) await run(schema, parents);
      let count = 0;
      let perRequest = 0;
      const started = performance.now();
      while (performance.now() - started < 3000) {
        perRequest = await run(schema, parents);
        count++;
      }
      const elapsed = performance.now() - started;
      rows.push({ variant, parents, statements: perRequest, perSecond: (count * 1000) / elapsed, msPerRequest: elapsed / count });
    }
  }

  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const out = [
    line(['parents', 'variant', 'SQL statements / request', 'requests / s', 'ms / request', 'vs naive']),
    line(['---', '---', '---:', '---:', '---:', '---:']),
  ];
  for (const row of rows) {
    const naiveRow = rows.find((candidate) => candidate.parents === row.parents && candidate.variant.startsWith('naive'));
    out.push(
      line([
        String(row.parents),
        row.variant,
        String(row.statements),
        row.perSecond.toFixed(1),
        row.msPerRequest.toFixed(2),
        naiveRow ? `${(row.perSecond / naiveRow.perSecond).toFixed(1)}×` : '',
      ]),
    );
  }
  process.stdout.write(
    `\nNode ${process.version}, SQLite (better-sqlite3), in-process graphql-js execution, 3 s per cell after 3 warm-up runs\n\n${out.join('\n')}\n`,
  );
  await database.$disconnect();
  rmSync(dir, { recursive: true, force: true });
}

await main();
