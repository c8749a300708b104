import { Column, Entity, type ID, ManyToMany, PrimaryKey, Unique } from 'resource-service';
import { PostCategory } from './post-category.entity.js';
import { Post } from './post.entity.js';

/**
 * A category an org files its posts under; a post may be in several.
 *
 * @privateRemarks
 * Posts reach their categories through the join table `PostCategory` (docs/behaviour.md §2.6):
 * `Post.categories` and `Category.posts` are many_to_many connections.
 */
@Entity()
@Unique('orgId', 'name')
export class Category {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org it belongs to. */
  @Column()
  orgId!: ID;

  /** Unique in its org, 1..40 characters. */
  @Column({ minLength: 1, maxLength: 40 })
  name!: string;

  /** The posts filed under it that the caller may read, a page at a time. */
  @ManyToMany(() => Post, { through: () => PostCategory, exposed: true })
  posts?: Post[];
}
