import { Column, Entity, HasMany, PrimaryKey } from '../runtime/declarations/decorators.js';
import { User } from './user.entity.js';

/** A tenant. Every user and post belongs to exactly one org, and nothing crosses orgs. */
@Entity()
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
