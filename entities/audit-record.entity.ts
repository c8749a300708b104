import { BelongsTo, Column, Entity, type ID, PrimaryKey, Resource } from 'resource-service';
import { Org } from './org.entity.js';

/**
 * One entry of an org's audit trail: something that happened, to what, and when. Admins of the
 * org read it.
 *
 * @privateRemarks
 * Appended by an in-process listener on `postPublished` (docs/behaviour.md §10.3); listed by the
 * resource (docs/behaviour.md §4.7): `GET /v2/audit-records` and `auditRecords(first, after)`.
 */
@Entity()
@Resource({ path: 'audit-records', version: '2', operations: ['list'] })
export class AuditRecord {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The org it happened in. */
  @Column()
  orgId!: string;

  /** What happened, for example `post.published`. */
  @Column()
  action!: string;

  /** The id of what it happened to (the post). */
  @Column()
  subjectId!: ID;

  /** The user whose work it was (the post's author). */
  @Column()
  userId!: ID;

  /** A one-line description. */
  @Column()
  summary!: string;

  /** When it was recorded. */
  @Column({ default: 'now' })
  createdAt!: Date;

  @BelongsTo(() => Org, { column: 'orgId' })
  org?: Org;
}
