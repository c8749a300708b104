import { BelongsTo, Column, Entity, PrimaryKey, Unique } from 'resource-service';
import { Org } from './org.entity.js';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/**
 * A message for one user about something that happened to their work, such as their post being
 * published. Each user reads only their own.
 *
 * @privateRemarks
 * Written by the `notifications` job processor (docs/behaviour.md §10.1). Unique per post and user:
 * the job runs at least once, and a second run finds the notification already there (the key
 * makes the handler idempotent).
 */
@Entity()
@Unique('postId', 'userId')
export class Notification {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org of the user notified. */
  @Column()
  orgId!: string;

  /** The user notified. */
  @Column()
  userId!: string;

  /** The post it is about. */
  @Column()
  postId!: string;

  /** What happened, in one sentence. */
  @Column()
  message!: string;

  /** When it was written. */
  @Column({ default: 'now' })
  createdAt!: Date;

  @BelongsTo(() => Org, { column: 'orgId' })
  org?: Org;

  @BelongsTo(() => User, { column: 'userId' })
  user?: User;

  @BelongsTo(() => Post, { column: 'postId' })
  post?: Post;
}
