import { Column, Entity, type ID, PrimaryKey, Unique } from 'resource-service';

/**
 * A category an org files its posts under; a post may be in several.
 *
 * @privateRemarks
 * Posts reach their categories through the join table `PostCategory` (docs/behaviour.md §2.6).
 * Storage-only for now: services read it through `CategoryRepository`.
 */
@Entity({ exposed: false })
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
}
