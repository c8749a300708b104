import { DigestRepository } from '../generated/repositories/digest.repository.js';
import { OrgRepository } from '../generated/repositories/org.repository.js';
import { PostRepository } from '../generated/repositories/post.repository.js';
import { Cron, Injectable, type TaskContext } from 'resource-service';

/** Periodic digests: written by a scheduled task; admins read them through the Digest resource (docs/decisions.md §3). */
@Injectable()
export class DigestService {
  constructor(
    private readonly digests: DigestRepository,
    private readonly orgs: OrgRepository,
    private readonly posts: PostRepository,
  ) {}

  /**
   * Writes one digest per org at every tick: the posts it published since the previous tick
   * (docs/behaviour.md §10.2). Hourly unless `APP_CRON__WRITE_DIGESTS` says otherwise (or `off`);
   * once per tick for the whole server, unscoped.
   */
  @Cron('0 * * * *', { name: 'writeDigests' })
  async writeDigests(task: TaskContext): Promise<void> {
    const since = task.previousTick;
    for (const org of await this.orgs.listAll()) {
      const published = await this.posts.listAll({
        orgId: org.id,
        status: 'published',
        publishedAt: since ? { gt: since, lte: task.tick } : { lte: task.tick },
      });
      const written = await this.digests.create({
        orgId: org.id,
        periodStart: since,
        periodEnd: task.tick,
        publishedPosts: published.length,
      });
      if (!written.ok) throw new Error(`could not write the digest of org ${org.id}: ${written.failure.message}`);
    }
    task.logger.info({ since: since?.toISOString() ?? null }, 'wrote the digests');
  }
}
