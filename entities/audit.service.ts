import { AuditRecordRepository } from '../generated/repositories/audit-record.repository.js';
import { Injectable, OnEvent } from '../runtime/declarations/decorators.js';
import type { Page, PageArgs } from '../runtime/data/keyset.js';
import type { AuditRecord } from './audit-record.entity.js';
import type { Post } from './post.entity.js';

/** The audit trail: appended by listeners, read by admins (docs/decisions.md §3). */
@Injectable()
export class AuditService {
  constructor(private readonly records: AuditRecordRepository) {}

  /** One keyset page of the audit records the caller may read (admins: their org's), oldest first. */
  list(args: PageArgs): Promise<Page<AuditRecord>> {
    return this.records.page(args);
  }

  /**
   * Appends `post.published` for every post published in this process (docs/behaviour.md §10.3): runs
   * after the publish committed, unscoped, with no caller; a failure is logged, and the publish
   * request never sees it.
   */
  @OnEvent('postPublished')
  async onPostPublished(post: Post): Promise<void> {
    const written = await this.records.create({ orgId: post.orgId, action: 'post.published', subjectId: post.id, userId: post.authorId, summary: `Post "${post.title}" was published.` });
    if (!written.ok) throw new Error(`could not record the publication of post ${post.id}: ${written.failure.message}`);
  }
}
