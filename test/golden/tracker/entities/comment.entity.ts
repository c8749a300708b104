import { BelongsTo, Column, Entity, Filterable, type ID, PrimaryKey, Resource } from 'resource-service';
import { Issue } from './issue.entity.js';
import { Person } from './person.entity.js';

/** A remark on an issue. It is read as its issue is. */
@Entity()
@Resource({ path: 'comments', version: '1' })
export class Comment {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The workspace: the caller's, set by the create rule. */
  @Column()
  workspaceId!: ID;

  /** The issue remarked on; lists filter by it. */
  @Column()
  @Filterable()
  issueId!: string;

  /** Who wrote it: the caller, set by the create rule. */
  @Column()
  writerId!: string;

  /** 1..4 000 characters. */
  @Column({ minLength: 1, maxLength: 4000 })
  text!: string;

  /** When it was written. */
  @Column({ default: 'now' })
  writtenAt!: Date;

  /** The issue; null when the caller may not read it. */
  @BelongsTo(() => Issue, { column: 'issueId', exposed: true })
  issue?: Issue | null;

  @BelongsTo(() => Person, { column: 'writerId' })
  writer?: Person | null;
}
