import {
  ApiOperation,
  ApiTags,
  Authorized,
  Body,
  Controller,
  Get,
  HttpCode,
  type Int,
  McpTool,
  type Page,
  Post,
  type Result,
  Version,
  ZodValidationPipe,
} from 'resource-service';
import { type CreatePost, CreatePostSchema } from './post.dto.js';
import { Post as PostEntity } from './post.entity.js';
import { PostService } from './post.service.js';

/**
 * Posts written as drafts by users of the caller's org, then published.
 *
 * @privateRemarks
 * REST routes for posts, under versions 1 and 2 (docs/behaviour.md §4.3).
 */
@ApiTags('Posts')
@Controller({ path: 'posts', version: ['1', '2'] })
export class PostsController {
  constructor(private readonly postService: PostService) {}

  /**
   * One page of the posts the caller may read, oldest first.
   *
   * @privateRemarks
   * A keyset page over the primary key (docs/behaviour.md §4.2); UUID v7 keys order it by creation.
   */
  @Get()
  @Authorized('read', PostEntity)
  list(first?: Int, after?: string): Promise<Page<PostEntity>> {
    return this.postService.list({ first, after });
  }

  /**
   * One post by id. Answers 404 when it does not exist or the caller may not read it.
   *
   * @privateRemarks
   * Also the MCP tool `posts_get` (a route's default tool name: its path and method), which answers `NOT_FOUND` where the route answers 404.
   */
  @Get(':id')
  @McpTool()
  @Authorized('read', PostEntity)
  get(id: string): Promise<PostEntity | null> {
    return this.postService.findById(id);
  }

  /** Creates a draft written by the caller, in the caller's org. */
  @Post()
  @Authorized('create', PostEntity)
  create(@Body(new ZodValidationPipe(CreatePostSchema)) input: CreatePost): Promise<Result<PostEntity>> {
    return this.postService.create(input);
  }

  /** @privateRemarks Declared only under version 2 (docs/behaviour.md §4.3); the summary is declared to show `@ApiOperation`. */
  @Post(':id/publish')
  @ApiOperation({
    summary: 'Publishes a draft.',
    description:
      'Sets the status to `published` and the publication time, and notifies `postPublished` subscribers. A post already published is a conflict (409).',
  })
  @Version('2')
  @HttpCode(200)
  @Authorized('publish', PostEntity)
  publish(id: string): Promise<Result<PostEntity>> {
    return this.postService.publish(id);
  }
}
