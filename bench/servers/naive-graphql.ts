/**
 * The naive GraphQL baseline (BENCHMARKS.md): graphql-js over `graphql-http`, resolvers written the
 * obvious way with Prisma — one query per parent for every relation (the N + 1 the generated
 * loaders avoid). Same schema text and same answers as the generated server for the benchmark's
 * documents, with the member's scope written into each `where`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import { jwtVerify } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { openPrisma } from './prisma.js';
import type { BenchServer, ServerOptions } from './types.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

type Context = {
  readonly sub: string;
  readonly orgId: string;
  readonly role: string;
};

const pageSize = (first: number | null | undefined): number =>
  first === null || first === undefined ? 20 : Math.min(100, Math.max(1, Math.trunc(first)));

/** Starts the naive resolver set on `options.port`. */
export async function startNaiveGraphQL(options: ServerOptions): Promise<BenchServer> {
  const prisma = await openPrisma(options.databaseUrl, options.onQuery);
  const postScope = (context: Context) => ({ orgId: context.orgId, OR: [{ status: 'published' as const }, { authorId: context.sub }] });
  const schema = makeExecutableSchema<Context>({
    typeDefs: readFileSync(path.join(ROOT, 'generated/schema.graphql'), 'utf8'),
    resolvers: {
      Query: {
        users: (_parent: unknown, args: { first?: number | null }, context: Context) =>
          prisma.user.findMany({ where: { orgId: context.orgId }, orderBy: { id: 'asc' }, take: pageSize(args.first) }),
        user: (_parent: unknown, args: { id: string }, context: Context) =>
          prisma.user.findFirst({ where: { id: args.id, orgId: context.orgId } }),
      },
      Mutation: {
        createUser: async (_parent: unknown, args: { input?: { name?: string; email?: string } | null }, context: Context) => {
          if (context.role !== 'admin') throw new GraphQLError('forbidden', { extensions: { code: 'FORBIDDEN' } });
          const name = args.input?.name?.trim() ?? '';
          const email = args.input?.email ?? '';
          if (!name || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
            throw new GraphQLError('invalid input', { extensions: { code: 'BAD_USER_INPUT' } });
          return prisma.user.create({ data: { id: uuidv7(), orgId: context.orgId, name, email } });
        },
      },
      User: {
        org: (parent: { orgId: string }, _args: unknown, context: Context) =>
          prisma.org.findFirst({ where: { id: parent.orgId, AND: [{ id: context.orgId }] } }),
        posts: async (parent: { id: string }, args: { first?: number | null }, context: Context) => {
          const first = pageSize(args.first);
          const rows = await prisma.post.findMany({
            where: { authorId: parent.id, ...postScope(context) },
            orderBy: { id: 'asc' },
            take: first + 1,
          });
          const visible = rows.slice(0, first);
          return {
            edges: visible.map((row) => ({ cursor: row.id, node: row })),
            pageInfo: { hasNextPage: rows.length > first, endCursor: visible.at(-1)?.id ?? null },
          };
        },
      },
    },
  });
  const secret = new TextEncoder().encode(options.secret);
  const principals = new WeakMap<object, Context>();
  const handler = createHandler<Context>({ schema, context: (request) => principals.get(request.raw) as Context });
  const server = createServer((request, response) => {
    jwtVerify((request.headers.authorization ?? '').replace(/^Bearer /, ''), secret, { algorithms: ['HS256'] }).then(
      ({ payload }) => {
        principals.set(request, { sub: String(payload.sub), orgId: String(payload.org_id), role: String(payload.role) });
        void handler(request, response);
      },
      () => {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"UNAUTHENTICATED"}');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prisma.$disconnect();
    },
  };
}
