import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, LoaderScope, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** A shelf of books. */
@Entity()
export class Shelf {
  @PrimaryKey()
  id!: string;
}

/** A book on a shelf. */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  shelfId!: string;

  /** @deprecated Nobody reads this. */
  @Column({ default: '' })
  notes!: string;

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
  @Query()
  @Authorized('read', Book)
  book(id: string): Promise<Book | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [BookResolver, LibraryAbilities, LoaderScope] })
export class AppModule {}
