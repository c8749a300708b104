import { Column, Entity, type ID, ManyToMany, PrimaryKey, Resource } from 'resource-service';
import { IssueLabel } from './issue-label.entity.js';
import { Issue } from './issue.entity.js';

/** A tag an issue may carry, many at once; internal ones are hidden from guests. */
@Entity()
@Resource({ path: 'labels', version: '1', operations: ['list', 'get', 'create'] })
export class Label {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The workspace: the caller's, set by the create rule. */
  @Column()
  workspaceId!: ID;

  /** 1..40 characters. */
  @Column({ minLength: 1, maxLength: 40 })
  name!: string;

  /** Shown to the team only. */
  @Column({ default: false })
  internal!: boolean;

  /** The issues carrying it, a page at a time. */
  @ManyToMany(() => Issue, { through: () => IssueLabel, exposed: true })
  issues?: Issue[];
}
