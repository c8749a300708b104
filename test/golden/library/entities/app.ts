import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationModule, LoaderScope } from 'resource-service';
import { Abilities, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Resource, UseGuards } from 'resource-service';

/**
 * A shelf of the library, kept by one curator.
 *
 * @privateRemarks
 * An application with none of the demo's entities, relations or roles: its generated descriptions
 * (test/generator/vocabulary.test.ts) may speak only of shelves, books and curators.
 */
@Entity()
@Resource({ path: 'shelves' })
export class Shelf {
  @PrimaryKey()
  id!: string;

  /** What the shelf holds, as its sign reads. */
  @Column({ maxLength: 80 })
  label!: string;

  @Column()
  curatorId!: string;

  /** The books on the shelf. */
  @HasMany(() => Book, { exposed: true })
  books?: Book[];
}

/** A book on a shelf. */
@Entity()
@Resource({ path: 'books', version: '1' })
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  shelfId!: string;

  @Column()
  curatorId!: string;

  /** The heading on its spine. */
  @Column({ maxLength: 200 })
  heading!: string;

  /** Whether it is out on loan. */
  @Column()
  lent!: boolean;

  /** The shelf it stands on. */
  @BelongsTo(() => Shelf, { column: 'shelfId', exposed: true })
  shelf?: Shelf | null;
}

@Abilities()
export class LibraryAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      can('read', ['Shelf', 'Book'], { curatorId: principal.sub });
      can('create', 'Shelf', { curatorId: principal.sub });
      can('create', 'Book', { curatorId: principal.sub, lent: false });
      can(['update', 'delete'], ['Shelf', 'Book'], { curatorId: principal.sub });
    });
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [LibraryAbilities, LoaderScope] })
export class AppModule {}
