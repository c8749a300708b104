import type { Int } from 'resource-service';
import { BelongsTo, Column, Entity, PrimaryKey } from 'resource-service';
import { Notebook } from './notebook.entity.js';

/** How urgent a note is. */
export type Priority = 'low' | 'high';

/** A note in a notebook. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  notebookId!: string;

  @Column()
  text!: string;

  @Column({ default: 'low' })
  priority!: Priority;

  /**
   * Times the note was opened.
   *
   * @deprecated Counted by the analytics service now.
   */
  @Column({ default: 0 })
  views!: Int;

  @Column({ default: 'now' })
  createdAt!: Date;

  @BelongsTo(() => Notebook, { column: 'notebookId', exposed: true })
  notebook?: Notebook | null;
}
