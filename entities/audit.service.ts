import { AuditRecordRepository } from '../generated/repositories/audit-record.repository.js';
import { Injectable, OnEvent } from 'resource-service';
import type { Post } from './post.entity.js';

/** The audit trail: appended by listeners; admins read it through the AuditRecord resource (docs/decisions.md §3). */
@Injectable()
export class AuditService {
  constructor(private readonly records: AuditRecordRepository) {}

  /**
   * Appends `post.published` for every post published in this process (docs/behaviour.md §10.3): runs
   * after the publish committed, unscoped, with no caller; a failure is logged, and the publish
   * request never sees it.
   */
  @OnEvent('postPublished')
  async onPostPublished(post: Post): Promise<void> {
    const written = await this.records.create({
      orgId: post.orgId,
      action: 'post.published',
      subjectId: post.id,
      userId: post.authorId,
      summary: `Post "${post.title}" was published.`,
    });
    if (!written.ok) throw new Error(`could not record the publication of post ${post.id}: ${written.failure.message}`);
  }
}
