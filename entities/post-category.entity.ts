import { BelongsTo, Column, Entity, type ID, PrimaryKey } from 'resource-service';
import { Category } from './category.entity.js';
import { Post } from './post.entity.js';

/**
 * One post filed under one category: a join row, keyed by the post and the category.
 *
 * @privateRemarks
 * A composite key on an unexposed entity (docs/behaviour.md §2.6): `@@id([postId, categoryId])`,
 * with an index leading with `categoryId` for the other side, and a `PostCategoryRepository` by the
 * key. Read as the post is (abilities.ts): nobody learns of a draft through its categories.
 */
@Entity({ exposed: false })
export class PostCategory {
  /** The post filed. */
  @PrimaryKey()
  postId!: string;

  /** The category it is filed under. */
  @PrimaryKey()
  categoryId!: string;

  /** The org of both: the caller's, set by the create rule. */
  @Column()
  orgId!: ID;

  /** When the post was filed under it. */
  @Column({ default: 'now' })
  createdAt!: Date;

  @BelongsTo(() => Post, { column: 'postId' })
  post?: Post;

  @BelongsTo(() => Category, { column: 'categoryId' })
  category?: Category;
}
