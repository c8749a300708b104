import { Column, Entity, PrimaryKey } from 'resource-service';

/**
 * A note written by one user. Every `@Entity()` becomes a table (a Prisma model), a GraphQL type
 * and a CASL subject; add columns here, run `npm run generate`, and a migration is written.
 */
@Entity()
export class Note {
  /** Primary key, UUID v7 (time-ordered, so pages follow creation order). */
  @PrimaryKey()
  id!: string;

  /** The author: the `sub` claim of their token. */
  @Column()
  ownerId!: string;

  /** What the note says. */
  @Column()
  text!: string;
}
