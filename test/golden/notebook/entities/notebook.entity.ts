import { Column, Entity, HasMany, PrimaryKey } from 'resource-service';
import { Note } from './note.entity.js';

/** A notebook owned by one author. */
@Entity()
export class Notebook {
  @PrimaryKey()
  id!: string;

  @Column()
  ownerId!: string;

  /** Shown on the cover. */
  @Column()
  title!: string;

  @HasMany(() => Note, { exposed: true, deprecationReason: 'Page through notes instead.' })
  notes?: Note[];
}
