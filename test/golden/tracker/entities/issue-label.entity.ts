import { BelongsTo, Column, Entity, type ID, PrimaryKey } from 'resource-service';
import { Issue } from './issue.entity.js';
import { Label } from './label.entity.js';

/** That an issue carries a label: one row per pair, keyed by both. */
@Entity({ exposed: false })
export class IssueLabel {
  /** The issue. */
  @PrimaryKey()
  issueId!: string;

  /** The label it carries. */
  @PrimaryKey()
  labelId!: string;

  /** The workspace of both. */
  @Column()
  workspaceId!: ID;

  @BelongsTo(() => Issue, { column: 'issueId' })
  issue?: Issue | null;

  @BelongsTo(() => Label, { column: 'labelId' })
  label?: Label | null;
}
