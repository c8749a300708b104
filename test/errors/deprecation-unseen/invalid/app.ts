import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

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
  @Column({ exposed: false, default: '' })
  notes!: string;

  @BelongsTo(() => Shelf, { column: 'shelfId', deprecationReason: 'Shelves are going away.' })
  shelf?: Shelf | null;
}

/** How often a book was lent, kept off the wire. */
@Entity({ exposed: false })
export class Loan {
  @PrimaryKey()
  id!: string;

  @Column({ deprecationReason: 'Counted elsewhere now.' })
  count!: string;
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
@Module({ imports: [GraphQLAuthorizationModule], providers: [BookResolver, LibraryAbilities] })
export class AppModule {}
