import { z } from 'zod';
import { NotificationRepository } from '../generated/repositories/notification.repository.js';
import { type JobContext, Process, Processor } from 'resource-service';

/**
 * The payload of a `post-published` job: which post was published, and whose it is.
 *
 * @privateRemarks
 * Checked when the job is enqueued (`queue.add`) and again when it runs (docs/behaviour.md §10.1).
 */
export const PostPublishedJobSchema = z.object({
  postId: z.uuid(),
  authorId: z.uuid(),
  orgId: z.uuid(),
  title: z.string().min(1).max(200),
});

/** What a `post-published` job carries once parsed. */
export type PostPublishedJob = z.output<typeof PostPublishedJobSchema>;

/**
 * The `notifications` queue: tells users what happened to their work.
 *
 * @privateRemarks
 * Runs unscoped, with no caller (docs/behaviour.md §5.9, §10.1). Jobs run at least once: a run
 * after a crash finds its notification already written (unique per post and user) and does nothing.
 */
@Processor('notifications')
export class NotificationsProcessor {
  constructor(private readonly notifications: NotificationRepository) {}

  /** Stores "your post was published" for the post's author, once. */
  @Process('post-published', PostPublishedJobSchema)
  async postPublished(payload: PostPublishedJob, job: JobContext): Promise<void> {
    const created = await this.notifications.create({
      orgId: payload.orgId,
      userId: payload.authorId,
      postId: payload.postId,
      message: `Your post "${payload.title}" was published.`,
    });
    if (created.ok) {
      job.logger.info({ notificationId: created.value.id, postId: payload.postId }, 'notified the author');
      return;
    }
    // An earlier run of this job wrote it before its worker stopped: the effect happened once.
    if (created.failure.code === 'CONFLICT') {
      job.logger.info({ postId: payload.postId }, 'the author was already notified (an earlier run of this job)');
      return;
    }
    throw new Error(`could not notify the author of post ${payload.postId}: ${created.failure.message}`);
  }
}
