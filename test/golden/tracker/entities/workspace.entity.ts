import { Column, Entity, HasMany, PrimaryKey, Resource } from 'resource-service';
import { Project } from './project.entity.js';

/** A team's space: its people, projects and issues. Nobody sees another workspace. */
@Entity()
@Resource({ path: 'workspaces', version: '1', operations: ['list'], pagination: 'none', complexity: '1 + childComplexity' })
export class Workspace {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** What the team calls it. */
  @Column({ minLength: 1, maxLength: 80 })
  name!: string;

  /** The workspace's projects, a page at a time. */
  @HasMany(() => Project, { exposed: true })
  projects?: Project[];
}
