/**
 * The NestJS peer (BENCHMARKS.md): NestJS 11 + @nestjs/graphql with the Apollo driver + Prisma,
 * written the way their documentation teaches — modules, code-first types, a resolver with
 * `@ResolveField` per relation, a Prisma service, a global guard — serving the benchmark's
 * GraphQL documents and `GET /v2/posts` with the same answers as the generated server.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import type { BenchServer, ServerOptions } from '../../servers/types.js';
import { AUTH_OPTIONS, AuthGuard } from './auth.js';
import { PRISMA_OPTIONS, PrismaService } from './prisma.service.js';
import { OrgsService, PostsController, PostsService, UsersResolver, UsersService } from './users.js';

@Module({
  providers: [PrismaService],
  exports: [PrismaService],
})
class PrismaModule {}

@Module({
  imports: [PrismaModule],
  providers: [UsersService, OrgsService, PostsService, UsersResolver],
  controllers: [PostsController],
})
class UsersModule {}

@Module({
  imports: [
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      autoSchemaFile: true,
      context: ({ req }: { req: Request }) => ({ req }),
    }),
    UsersModule,
  ],
  providers: [{ provide: APP_GUARD, useClass: AuthGuard }],
})
class AppModule {}

/** Starts the NestJS peer on `options.port`. */
export async function startNest(options: ServerOptions): Promise<BenchServer> {
  PRISMA_OPTIONS.databaseUrl = options.databaseUrl;
  if (options.onQuery) PRISMA_OPTIONS.onQuery = options.onQuery;
  AUTH_OPTIONS.secret = new TextEncoder().encode(options.secret);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: ['error', 'warn'] });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(options.port, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
