import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, HasMany, LoaderScope, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** A shelf of books. */
@Entity()
export class Shelf {
  @PrimaryKey()
  id!: string;

  /** @deprecated Read books through the catalog. */
  @HasMany(() => Book, { exposed: true, deprecationReason: 'Read books through the catalog.' })
  books?: Book[];
}

/** A book on a shelf. */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  shelfId!: string;

  /**
   * The title as first printed.
   *
   * @deprecated Use heading.
   */
  @Column()
  title!: string;

  /** @deprecated */
  @Column({ deprecationReason: 'Use heading.' })
  subtitle?: string | null;

  @Column()
  heading!: string;

  @BelongsTo(() => Shelf, { column: 'shelfId', exposed: true, deprecationReason: 'Shelves are going away.' })
  shelf?: Shelf | null;
}

@Abilities()
export class LibraryAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', ['Shelf', 'Book'], { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Book)
export class BookResolver {
  /** One book by id. @deprecated Use books. */
  @Query()
  @Authorized('read', Book)
  book(id: string): Promise<Book | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [BookResolver, LibraryAbilities, LoaderScope] })
export class AppModule {}
