import { Column, Entity, PrimaryKey } from '../runtime/decorators.js';

/** A tag. */
@Entity()
export class Tag {
  @PrimaryKey()
  id!: string;

  @Column()
  label!: string;
}
