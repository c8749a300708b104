import { BelongsTo, Column, Entity, HasMany, type ID, ManyToMany, PrimaryKey } from 'resource-service';
import { Comment } from './comment.entity.js';
import { IssueLabel } from './issue-label.entity.js';
import { Label } from './label.entity.js';
import { Person } from './person.entity.js';
import { Project } from './project.entity.js';
import { Workspace } from './workspace.entity.js';

/** Whether an issue still needs work. */
export type IssueState = 'open' | 'closed';

/** Something to do in a project, reported by someone and maybe given to someone. */
@Entity()
export class Issue {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The workspace of its project. */
  @Column()
  workspaceId!: string;

  /** The project it is in. */
  @Column()
  projectId!: string;

  /** Who reported it. */
  @Column()
  reporterId!: string;

  /** Who it is given to, if anyone. */
  @Column()
  assigneeId?: string | null;

  /** 1..200 characters. */
  @Column({ minLength: 1, maxLength: 200 })
  title!: string;

  /** `open` until someone closes it. */
  @Column({ default: 'open' })
  state!: IssueState;

  /** When it was reported. */
  @Column({ default: 'now' })
  createdAt!: Date;

  /** A reference to an outside ticket system, as text. */
  @Column()
  externalRef?: ID | null;

  @BelongsTo(() => Workspace, { column: 'workspaceId' })
  workspace?: Workspace | null;

  /** The project; null when the caller may not read it. */
  @BelongsTo(() => Project, { column: 'projectId', exposed: true })
  project?: Project | null;

  /** The reporter; null when the caller may not read them. */
  @BelongsTo(() => Person, { column: 'reporterId', exposed: true })
  reporter?: Person | null;

  @BelongsTo(() => Person, { column: 'assigneeId' })
  assignee?: Person | null;

  /** The discussion, a page at a time. */
  @HasMany(() => Comment, { exposed: true })
  comments?: Comment[];

  /** Its labels, a page at a time; a guest sees no internal one. */
  @ManyToMany(() => Label, { through: () => IssueLabel, exposed: true })
  labels?: Label[];
}
