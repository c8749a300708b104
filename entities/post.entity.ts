import { BelongsTo, Column, Entity, ManyToMany, PrimaryKey } from 'resource-service';
import { Category } from './category.entity.js';
import { PostCategory } from './post-category.entity.js';
import { Org } from './org.entity.js';
import { User } from './user.entity.js';

/**
 * Lifecycle of a post: a `draft` until it is published, then `published`.
 *
 * @privateRemarks
 * `draft → published` through the publish operation (docs/behaviour.md §3).
 */
export type PostStatus = 'draft' | 'published';

/**
 * A post written by a user of one org.
 *
 * @privateRemarks
 * See docs/behaviour.md §2.3 and docs/decisions.md §2.
 */
@Entity()
export class Post {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org the post belongs to (the author's org). */
  @Column()
  orgId!: string;

  /** The user who wrote it. */
  @Column()
  authorId!: string;

  /** The user asked to review it, if any. */
  @Column()
  reviewerId?: string | null;

  /** 1..200 characters. */
  @Column()
  title!: string;

  /** At most 10 000 characters. */
  @Column({ default: '' })
  body!: string;

  /** `draft` until published. */
  @Column({ default: 'draft' })
  status!: PostStatus;

  /** Set when the post is published. */
  @Column()
  publishedAt?: Date | null;

  /** When the post was created. */
  @Column({ default: 'now' })
  createdAt!: Date;

  @BelongsTo(() => Org, { column: 'orgId' })
  org?: Org;

  /** The author; null when the caller may not read that user. */
  @BelongsTo(() => User, { column: 'authorId', exposed: true })
  author?: User | null;

  @BelongsTo(() => User, { column: 'reviewerId' })
  reviewer?: User | null;

  /** The categories it is filed under, a page at a time. */
  @ManyToMany(() => Category, { through: () => PostCategory, exposed: true })
  categories?: Category[];
}
