import { BelongsTo, Column, Entity, HasMany, PrimaryKey, Unique } from 'resource-service';
import { Issue } from './issue.entity.js';
import { Workspace } from './workspace.entity.js';

/** Someone who works in a workspace. Guests do not see addresses. */
@Entity()
@Unique('workspaceId', 'email')
export class Person {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The workspace they work in. */
  @Column()
  workspaceId!: string;

  /** How they are called, 1..100 characters. */
  @Column({ minLength: 1, maxLength: 100 })
  name!: string;

  /** Where they are written to; guests' grants leave it out. */
  @Column({ format: 'email' })
  email!: string;

  @BelongsTo(() => Workspace, { column: 'workspaceId' })
  workspace?: Workspace | null;

  /** Issues they reported. */
  @HasMany(() => Issue, { exposed: true, via: 'reporterId' })
  reported?: Issue[];

  /** Issues given to them. */
  @HasMany(() => Issue, { exposed: true, via: 'assigneeId' })
  assigned?: Issue[];
}
