import { BelongsTo, Column, Entity, HasMany, PrimaryKey, Unique } from 'resource-service';
import { Org } from './org.entity.js';
import { Post } from './post.entity.js';

/**
 * A person in one org.
 *
 * @privateRemarks
 * See docs/behaviour.md §2.1.
 */
@Entity()
@Unique('orgId', 'email')
export class User {
  /** Primary key, UUID v7 (time-ordered). */
  @PrimaryKey()
  id!: string;

  /** The org this user belongs to. */
  @Column()
  orgId!: string;

  /** Display name, 1..100 characters. */
  @Column()
  name!: string;

  /**
   * Unique within the org. Hidden from viewers.
   *
   * @privateRemarks
   * Viewers' grants exclude it (docs/decisions.md §3).
   */
  @Column()
  email!: string;

  /**
   * The user's org; null when the caller may not read it.
   *
   * @privateRemarks
   * See docs/behaviour.md §5.8.
   */
  @BelongsTo(() => Org, { column: 'orgId', exposed: true })
  org?: Org | null;

  /**
   * Posts this user wrote.
   *
   * @privateRemarks
   * Post has two keys to User, so `via` names the column.
   */
  @HasMany(() => Post, { exposed: true, via: 'authorId' })
  posts?: Post[];

  /** Posts this user reviews. */
  @HasMany(() => Post, { exposed: true, via: 'reviewerId' })
  reviews?: Post[];
}
