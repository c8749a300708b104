/**
 * The NestJS peer's users and posts, as the @nestjs/graphql "Resolvers" chapter writes them: a
 * service per model over the Prisma service, a `@Resolver(() => User)` with `@Query`, `@Mutation`
 * and a `@ResolveField` per relation that asks the related service for the parent's rows (one
 * query per parent: the chapter's `posts` field does exactly this, and the documentation teaches
 * no batching), and a REST controller for the posts list. The caller's scope is written into
 * every `where`: their org's users, published posts of their org plus their own drafts.
 */
import { BadRequestException, Controller, ForbiddenException, Get, Injectable, Query as RestQuery, Res } from '@nestjs/common';
import { Args, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { Response } from 'express';
import { v7 as uuidv7 } from 'uuid';
import { type Caller, CurrentUser } from './auth.js';
import { CreateUserInput, Org, PostConnection, User } from './models.js';
import { PrismaService } from './prisma.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Page size: absent 20, clamped to 1..100 (as the generated server). */
const pageSize = (first: number | null | undefined): number =>
  first === null || first === undefined || !Number.isFinite(first) ? 20 : Math.min(100, Math.max(1, Math.trunc(first)));

@Injectable()
export class UsersService {
  constructor(private readonly prisma: PrismaService) {}

  findAll(caller: Caller, first: number) {
    return this.prisma.db.user.findMany({ where: { orgId: caller.orgId }, orderBy: { id: 'asc' }, take: first });
  }

  findOne(caller: Caller, id: string) {
    return this.prisma.db.user.findFirst({ where: { id, orgId: caller.orgId } });
  }

  create(caller: Caller, input: CreateUserInput) {
    return this.prisma.db.user.create({ data: { id: uuidv7(), orgId: caller.orgId, name: input.name, email: input.email } });
  }
}

@Injectable()
export class OrgsService {
  constructor(private readonly prisma: PrismaService) {}

  findOne(id: string) {
    return this.prisma.db.org.findUnique({ where: { id } });
  }
}

@Injectable()
export class PostsService {
  constructor(private readonly prisma: PrismaService) {}

  /** The caller's readable posts (of `authorId` when given), after `after`, `take` rows by id. */
  findAll(caller: Caller, options: { authorId?: string; after?: string; take: number }) {
    return this.prisma.db.post.findMany({
      where: {
        orgId: caller.orgId,
        OR: [{ status: 'published' }, { authorId: caller.sub }],
        ...(options.authorId ? { authorId: options.authorId } : {}),
        ...(options.after ? { id: { gt: options.after } } : {}),
      },
      orderBy: { id: 'asc' },
      take: options.take,
    });
  }
}

@Resolver(() => User)
export class UsersResolver {
  constructor(
    private readonly usersService: UsersService,
    private readonly orgsService: OrgsService,
    private readonly postsService: PostsService,
  ) {}

  @Query(() => [User])
  users(@CurrentUser() caller: Caller, @Args('first', { type: () => Int, nullable: true }) first?: number) {
    return this.usersService.findAll(caller, pageSize(first));
  }

  @Query(() => User, { nullable: true })
  user(@CurrentUser() caller: Caller, @Args('id') id: string) {
    return UUID.test(id) ? this.usersService.findOne(caller, id) : null;
  }

  @Mutation(() => User, { nullable: true })
  createUser(@CurrentUser() caller: Caller, @Args('input', { type: () => CreateUserInput, nullable: true }) input?: CreateUserInput) {
    if (caller.role !== 'admin') throw new ForbiddenException();
    const name = input?.name.trim() ?? '';
    if (!input || !name || name.length > 100 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email))
      throw new BadRequestException('invalid input');
    return this.usersService.create(caller, { name, email: input.email });
  }

  @ResolveField(() => Org, { nullable: true })
  org(@Parent() user: User, @CurrentUser() caller: Caller) {
    return user.orgId === caller.orgId ? this.orgsService.findOne(user.orgId) : null;
  }

  @ResolveField(() => PostConnection)
  async posts(
    @Parent() user: User,
    @CurrentUser() caller: Caller,
    @Args('first', { type: () => Int, nullable: true }) first?: number,
  ): Promise<PostConnection> {
    const size = pageSize(first);
    const rows = await this.postsService.findAll(caller, { authorId: user.id, take: size + 1 });
    const visible = rows.slice(0, size);
    return {
      edges: visible.map((row) => ({ cursor: row.id, node: row })),
      pageInfo: { hasNextPage: rows.length > size, endCursor: visible.at(-1)?.id ?? null },
    };
  }
}

/** `GET /v2/posts?first&after`: the REST list, the next cursor in `X-Next-Cursor`. */
@Controller('v2/posts')
export class PostsController {
  constructor(private readonly postsService: PostsService) {}

  @Get()
  async list(
    @CurrentUser() caller: Caller,
    @Res({ passthrough: true }) response: Response,
    @RestQuery('first') first?: string,
    @RestQuery('after') after?: string,
  ) {
    const size = pageSize(first === undefined ? undefined : Number(first));
    const rows = await this.postsService.findAll(caller, {
      ...(after && UUID.test(after) ? { after: after.toLowerCase() } : {}),
      take: size + 1,
    });
    const items = rows.slice(0, size);
    if (rows.length > size) response.setHeader('x-next-cursor', items.at(-1)?.id ?? '');
    return items;
  }
}
