import { Column, Entity, PrimaryKey } from 'resource-service';

/** A tag. */
@Entity()
export class Tag {
  @PrimaryKey()
  id!: string;

  @Column()
  label!: string;
}
