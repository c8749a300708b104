import {
  Args,
  AuthenticationGuard,
  Authorized,
  Complexity,
  GraphQLAuthorizationGuard,
  type ID,
  type Int,
  McpTool,
  Mutation,
  type Page,
  Query,
  ResolveField,
  Resolver,
  type Result,
  Subscription,
  UseGuards,
  ZodValidationPipe,
} from 'resource-service';
import { type CreatePost, CreatePostSchema, SearchTermPipe } from './post.dto.js';
import { Post } from './post.entity.js';
import { PostService } from './post.service.js';

/**
 * GraphQL operations on posts (docs/behaviour.md §4.1, §3). `AuthenticationGuard` is bound here as well as
 * globally: a guard bound at two scopes still runs once per operation (docs/behaviour.md §5.2).
 */
@UseGuards(AuthenticationGuard, GraphQLAuthorizationGuard)
@Resolver(() => Post)
export class PostResolver {
  constructor(private readonly postService: PostService) {}

  /** One page of the posts the caller may read, oldest first; pass the last id as `after` for the next page. */
  @Query()
  @McpTool({ title: 'List posts' })
  @Authorized('read', Post)
  posts(first?: Int, after?: string): Promise<Page<Post>> {
    return this.postService.list({ first, after });
  }

  /** One post by id; null when it does not exist or the caller may not read it. */
  @Query()
  @Authorized('read', Post)
  post(id: ID): Promise<Post | null> {
    return this.postService.findById(id);
  }

  /**
   * One page of the posts whose title contains a term of at least two characters (after trimming).
   *
   * @privateRemarks
   * A custom transform (`SearchTermPipe`) trims the term and refuses short ones. A search reads up
   * to `first` rows however few match, so it scores like a page.
   */
  @Query()
  @Complexity('first * childComplexity')
  @Authorized('read', Post)
  searchPosts(@Args(SearchTermPipe) term: string, first?: Int, after?: string): Promise<Page<Post>> {
    return this.postService.search(term, { first, after });
  }

  /** Creates a draft written by the caller. */
  @Mutation()
  @McpTool({ title: 'Write a draft' })
  @Authorized('create', Post)
  createPost(@Args(new ZodValidationPipe(CreatePostSchema)) input: CreatePost | null): Promise<Result<Post>> {
    return this.postService.create(input as CreatePost);
  }

  /**
   * Publishes a draft: its status becomes `published`.
   *
   * @privateRemarks
   * `draft → published` (docs/behaviour.md §3).
   */
  @Mutation()
  @McpTool({ title: 'Publish a post' })
  @Authorized('publish', Post)
  publishPost(id: ID): Promise<Result<Post>> {
    return this.postService.publish(id);
  }

  /**
   * The reviewer's name; null when there is no reviewer or the caller may not read them.
   *
   * @privateRemarks
   * `Post.reviewer` is declared but not exposed, so this hand-written field stands in for it (docs/behaviour.md §2.1).
   * It takes every post of a level at once and answers one name per post, in order: one statement
   * for all of them, as a relation costs.
   */
  @ResolveField()
  reviewerName(posts: Post[]): Promise<(string | null)[]> {
    return this.postService.reviewerNames(posts);
  }

  /**
   * Every post published from now on that the subscriber may read, masked to their grant; with
   * `authorId`, only that author's.
   *
   * @privateRemarks
   * The published post comes first; the arguments follow, and returning null leaves a post out for
   * this subscriber (docs/behaviour.md §4.1).
   */
  @Subscription()
  @Authorized('read', Post)
  postPublished(post: Post, authorId?: ID): Post | null {
    return authorId === undefined || post.authorId === authorId ? post : null;
  }
}
