import { BelongsTo, Column, Entity, HasMany, PrimaryKey, Resource } from 'resource-service';
import { Issue } from './issue.entity.js';
import { Workspace } from './workspace.entity.js';

/** A body of work; archived ones are hidden from guests, with their issues and comments. */
@Entity()
@Resource({ path: 'projects', version: '1', operations: ['list', 'get', 'create'] })
export class Project {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The workspace it belongs to: the caller's, set by the create rule. */
  @Column()
  workspaceId!: string;

  /** 1..80 characters. */
  @Column({ minLength: 1, maxLength: 80 })
  name!: string;

  /** Set once the work is over. */
  @Column({ default: false })
  archived!: boolean;

  /** The workspace; null when the caller may not read it. */
  @BelongsTo(() => Workspace, { column: 'workspaceId', exposed: true })
  workspace?: Workspace | null;

  /** The project's issues, a page at a time. */
  @HasMany(() => Issue, { exposed: true })
  issues?: Issue[];
}
