import { BelongsTo, Column, Entity, Filterable, type ID, PrimaryKey, Resource } from 'resource-service';
import { Post } from './post.entity.js';

/**
 * A comment on a post, written by a user of the post's org.
 *
 * @privateRemarks
 * A whole resource from this declaration alone (docs/behaviour.md §4.7): list, get, create, update
 * and delete over `/v2/comments` and GraphQL, authorized by the grants in abilities.ts. The org
 * and the author come from the caller's create rule, never from the input.
 */
@Entity()
@Resource({ path: 'comments', version: '2' })
export class Comment {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org the comment belongs to: the caller's, set by the create rule. */
  @Column()
  orgId!: ID;

  /** The post commented on; lists filter by it (`?postId=`). */
  @Column()
  @Filterable()
  postId!: string;

  /** Who wrote it: the caller, set by the create rule. */
  @Column()
  authorId!: ID;

  /** 1..2 000 characters. */
  @Column({ minLength: 1, maxLength: 2000 })
  body!: string;

  /** When the comment was written. */
  @Column({ default: 'now' })
  createdAt!: Date;

  /** The post; null when the caller may not read it. */
  @BelongsTo(() => Post, { column: 'postId', exposed: true })
  post?: Post | null;
}
