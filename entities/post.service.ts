import { PostRepository } from '../generated/repositories/post.repository.js';
import { UserRepository } from '../generated/repositories/user.repository.js';
import {
  currentPrincipal,
  EventBus,
  fail,
  Injectable,
  InjectQueue,
  type Page,
  type PageArgs,
  type Queue,
  type Result,
} from 'resource-service';
import type { NotificationsJobs } from '../generated/jobs.js';
import type { CreatePost } from './post.dto.js';
import type { Post } from './post.entity.js';

/** Posts: listing, writing and the publish transition (docs/behaviour.md §3, docs/decisions.md §2). */
@Injectable()
export class PostService {
  constructor(
    private readonly posts: PostRepository,
    private readonly users: UserRepository,
    private readonly events: EventBus,
    @InjectQueue('notifications') private readonly notifications: Queue<NotificationsJobs>,
  ) {}

  /** One keyset page of the posts the caller may read (docs/behaviour.md §4.2). */
  list(args: PageArgs): Promise<Page<Post>> {
    return this.posts.page(args);
  }

  /** Posts whose title contains `term`, first page only. */
  search(term: string, args: PageArgs): Promise<Page<Post>> {
    return this.posts.page(args, { title: { contains: term } });
  }

  /** One post by id, or null when it does not exist or the caller may not read it. */
  findById(id: string): Promise<Post | null> {
    return this.posts.findById(id);
  }

  /**
   * The name of each post's reviewer, in order: null where there is none or the caller may not read
   * them. One statement for all the posts.
   */
  async reviewerNames(posts: readonly Pick<Post, 'reviewerId'>[]): Promise<(string | null)[]> {
    const ids = posts.flatMap((post) => (post.reviewerId ? [post.reviewerId] : []));
    const reviewers = new Map((await this.users.findManyByIds(ids)).map((user) => [user.id, user.name]));
    return posts.map((post) => (post.reviewerId ? (reviewers.get(post.reviewerId) ?? null) : null));
  }

  /** Creates a draft written by the caller in the caller's org. */
  create(input: CreatePost): Promise<Result<Post>> {
    const principal = currentPrincipal();
    return this.posts.create({
      title: input.title,
      body: input.body ?? '',
      orgId: principal.org_id,
      authorId: principal.sub,
      status: 'draft',
    });
  }

  /**
   * Publishes a draft (docs/behaviour.md §3): `draft → published` sets `publishedAt`; once that has
   * committed, enqueues a `post-published` job that notifies the author (§10.1) and tells
   * `postPublished` subscribers and listeners (§5.11, §10.3). Unknown or unreadable id → NOT_FOUND;
   * not allowed to publish this post → FORBIDDEN; already published → CONFLICT.
   */
  async publish(id: string): Promise<Result<Post>> {
    const post = await this.posts.findById(id);
    if (!post) return fail('NOT_FOUND', `post ${id} was not found`);
    if (!this.posts.permits('publish', post)) return fail('FORBIDDEN', 'you may not publish this post');
    if (post.status === 'published') return fail('CONFLICT', `post ${id} is already published`);
    const published = await this.posts.update(
      id,
      { status: 'published', publishedAt: new Date() },
      { action: 'publish', expect: { status: 'draft' } },
    );
    if (!published.ok) {
      return published.failure.code === 'NOT_FOUND' ? fail('CONFLICT', `post ${id} is already published`) : published;
    }
    const { id: postId, authorId, orgId, title } = published.value;
    await this.notifications.add('post-published', { postId, authorId, orgId, title });
    this.events.publish('postPublished', published.value);
    return published;
  }
}
