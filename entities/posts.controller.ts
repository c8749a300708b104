import { Authorized, Body, Controller, Get, HttpCode, Post, Version } from '../runtime/decorators.js';
import type { Page } from '../runtime/keyset.js';
import { ZodValidationPipe } from '../runtime/pipes.js';
import type { Result } from '../runtime/result.js';
import type { Int } from '../runtime/scalars.js';
import { type CreatePost, CreatePostSchema } from './post.dto.js';
import { Post as PostEntity } from './post.entity.js';
import { PostService } from './post.service.js';

/** REST routes for posts, under versions 1 and 2 (spec §4.3). */
@Controller({ path: 'posts', version: ['1', '2'] })
export class PostsController {
  constructor(private readonly postService: PostService) {}

  /** One keyset page of the posts the caller may read (spec §4.2). */
  @Get()
  @Authorized('read', PostEntity)
  list(first?: Int, after?: string): Promise<Page<PostEntity>> {
    return this.postService.list({ first, after });
  }

  /** One post by id (404 when it does not exist or the caller may not read it). */
  @Get(':id')
  @Authorized('read', PostEntity)
  get(id: string): Promise<PostEntity | null> {
    return this.postService.findById(id);
  }

  /** Creates a draft written by the caller (201). */
  @Post()
  @Authorized('create', PostEntity)
  create(@Body(new ZodValidationPipe(CreatePostSchema)) input: CreatePost): Promise<Result<PostEntity>> {
    return this.postService.create(input);
  }

  /** Publishes a draft; declared only under version 2 (spec §4.3). */
  @Post(':id/publish')
  @Version('2')
  @HttpCode(200)
  @Authorized('publish', PostEntity)
  publish(id: string): Promise<Result<PostEntity>> {
    return this.postService.publish(id);
  }
}
