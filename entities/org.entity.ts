import { Column, Entity, HasMany, PrimaryKey, Resource } from 'resource-service';
import { User } from './user.entity.js';

/**
 * A tenant. Every user and post belongs to exactly one org, and nothing crosses orgs.
 *
 * @privateRemarks
 * Listed whole by the resource (docs/behaviour.md §4.7): `GET /orgs` and `orgs`. Every role reads only
 * its own org (docs/decisions.md §3), so the list holds one row and scores like one.
 */
@Entity()
@Resource({ path: 'orgs', operations: ['list'], pagination: 'none', complexity: '1 + childComplexity' })
export class Org {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** Display name. */
  @Column()
  name!: string;

  /**
   * The org's users, a page at a time.
   *
   * @privateRemarks
   * One connection page per org (docs/behaviour.md §2.2).
   */
  @HasMany(() => User, { exposed: true })
  users?: User[];
}
