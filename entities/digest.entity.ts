import { BelongsTo, Column, Entity, type Int, PrimaryKey, Resource } from 'resource-service';
import { Org } from './org.entity.js';

/**
 * A periodic summary of an org's activity: how many posts it published in one period. Admins of
 * the org read it.
 *
 * @privateRemarks
 * Written by the scheduled task `writeDigests` (docs/behaviour.md §10.2), one row per org per tick;
 * listed by the resource (docs/behaviour.md §4.7): `GET /v2/digests` and `digests(first, after)`.
 */
@Entity()
@Resource({ path: 'digests', version: '2', operations: ['list'] })
export class Digest {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org summarised. */
  @Column()
  orgId!: string;

  /** The start of the period (exclusive); null for the first digest of a schedule. */
  @Column()
  periodStart?: Date | null;

  /** The end of the period (inclusive): the tick that wrote it. */
  @Column()
  periodEnd!: Date;

  /** Posts the org published in the period (at most 1 000 are counted). */
  @Column()
  publishedPosts!: Int;

  /** When it was written. */
  @Column({ default: 'now' })
  createdAt!: Date;

  @BelongsTo(() => Org, { column: 'orgId' })
  org?: Org;
}
