/**
 * The schema-builder peer (BENCHMARKS.md): Pothos + its Prisma plugin + GraphQL Yoga + Prisma,
 * written the way their documentation teaches — `prismaObject` types, `prismaField` roots that
 * spread the plugin's planned `query` into one Prisma call, and relations loaded through field
 * `select`s (the plugin's "Using arguments or context in your selections" and `nestedSelection`), so
 * the users, their org and their first posts come from one `findMany` with nested relations.
 * The posts connection is written with a field `select` rather than `relatedConnection` because the
 * benchmark's answers carry the post id as the cursor, where the plugin encodes its own cursors.
 * The caller's scope is written into every `where`. The datamodel the plugin reads comes from
 * its generator, `prisma-pothos-types` (./prisma-types.ts; regenerate with
 * `bench/peers/pothos/generate-types.sh` after the demo's schema changes).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import { createGraphQLError, createYoga } from 'graphql-yoga';
import { jwtVerify } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { openPrisma } from '../../servers/prisma.js';
import type { BenchServer, ServerOptions } from '../../servers/types.js';
import type PrismaTypes from './prisma-types.js';
import { getDatamodel } from './prisma-types.js';

/** The caller, from the bearer token. */
interface Caller {
  readonly sub: string;
  readonly orgId: string;
  readonly role: string;
}

/** Page size: absent 20, clamped to 1..100 (as the generated server). */
const pageSize = (first: number | null | undefined): number =>
  first === null || first === undefined ? 20 : Math.min(100, Math.max(1, Math.trunc(first)));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Starts the Pothos + Yoga peer on `options.port`. */
export async function startPothos(options: ServerOptions): Promise<BenchServer> {
  const prisma = await openPrisma(options.databaseUrl, options.onQuery);
  const builder = new SchemaBuilder<{ PrismaTypes: PrismaTypes; Context: { caller: Caller } }>({
    plugins: [PrismaPlugin],
    prisma: { client: prisma, dmmf: getDatamodel(), exposeDescriptions: false, onUnusedQuery: null },
  });

  const Org = builder.prismaObject('Org', { fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }) });
  const Post = builder.prismaObject('Post', {
    fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title'), body: t.exposeString('body') }),
  });
  const PageInfo = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
    fields: (t) => ({ hasNextPage: t.exposeBoolean('hasNextPage'), endCursor: t.exposeString('endCursor', { nullable: true }) }),
  });
  type PostShape = PrismaTypes['Post']['Shape'];
  const PostEdge = builder.objectRef<{ cursor: string; node: PostShape }>('PostEdge').implement({
    fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: Post, resolve: (edge) => edge.node }) }),
  });
  const PostConnection = builder
    .objectRef<{ edges: { cursor: string; node: PostShape }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>(
      'PostConnection',
    )
    .implement({
      fields: (t) => ({
        edges: t.field({ type: [PostEdge], resolve: (connection) => connection.edges }),
        pageInfo: t.field({ type: PageInfo, resolve: (connection) => connection.pageInfo }),
      }),
    });

  builder.prismaObject('User', {
    fields: (t) => ({
      id: t.exposeID('id'),
      orgId: t.exposeID('orgId'),
      name: t.exposeString('name'),
      email: t.exposeString('email'),
      org: t.field({
        type: Org,
        nullable: true,
        select: (_args, _context, nestedSelection) => ({ org: nestedSelection(true) }),
        resolve: (user, _args, context) => (user.orgId === context.caller.orgId ? user.org : null),
      }),
      posts: t.field({
        type: PostConnection,
        args: { first: t.arg.int() },
        select: (args, context, nestedSelection) => ({
          posts: nestedSelection(
            {
              where: { orgId: context.caller.orgId, OR: [{ status: 'published' as const }, { authorId: context.caller.sub }] },
              orderBy: { id: 'asc' as const },
              take: pageSize(args.first) + 1,
            },
            ['edges', 'node'],
          ),
        }),
        resolve: (user, args) => {
          const size = pageSize(args.first);
          const visible = user.posts.slice(0, size);
          return {
            edges: visible.map((post) => ({ cursor: post.id, node: post })),
            pageInfo: { hasNextPage: user.posts.length > size, endCursor: visible.at(-1)?.id ?? null },
          };
        },
      }),
    }),
  });

  const CreateUser = builder.inputType('CreateUser', {
    fields: (t) => ({ name: t.string({ required: true }), email: t.string({ required: true }) }),
  });

  builder.queryType({
    fields: (t) => ({
      users: t.prismaField({
        type: ['User'],
        args: { first: t.arg.int() },
        resolve: (query, _root, args, context) =>
          prisma.user.findMany({ ...query, where: { orgId: context.caller.orgId }, orderBy: { id: 'asc' }, take: pageSize(args.first) }),
      }),
      user: t.prismaField({
        type: 'User',
        nullable: true,
        args: { id: t.arg.string({ required: true }) },
        resolve: (query, _root, args, context) =>
          UUID.test(args.id) ? prisma.user.findFirst({ ...query, where: { id: args.id, orgId: context.caller.orgId } }) : null,
      }),
    }),
  });

  builder.mutationType({
    fields: (t) => ({
      createUser: t.prismaField({
        type: 'User',
        nullable: true,
        args: { input: t.arg({ type: CreateUser }) },
        resolve: (query, _root, args, context) => {
          if (context.caller.role !== 'admin') throw createGraphQLError('forbidden', { extensions: { code: 'FORBIDDEN' } });
          const name = args.input?.name.trim() ?? '';
          const email = args.input?.email ?? '';
          if (!name || name.length > 100 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
            throw createGraphQLError('invalid input', { extensions: { code: 'BAD_USER_INPUT' } });
          return prisma.user.create({ ...query, data: { id: uuidv7(), orgId: context.caller.orgId, name, email } });
        },
      }),
    }),
  });

  const secret = new TextEncoder().encode(options.secret);
  const yoga = createYoga<Record<string, never>, { caller: Caller }>({
    schema: builder.toSchema(),
    graphiql: false,
    landingPage: false,
    logging: 'warn',
    context: async ({ request }) => {
      const [scheme, token] = request.headers.get('authorization')?.split(' ') ?? [];
      try {
        if (scheme !== 'Bearer' || !token) throw new Error('no bearer token');
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        return { caller: { sub: String(payload.sub), orgId: String(payload.org_id), role: String(payload.role) } };
      } catch {
        throw createGraphQLError('unauthenticated', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
      }
    },
  });
  // Yoga's request listener, as its Node.js integration page mounts it.
  const server = createServer((request, response) => void yoga.handle(request, response));
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prisma.$disconnect();
    },
  };
}
