import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';
import { LoaderScope } from 'resource-service';

/** A writer. Its has_many names the right column; the child misspells it. */
@Entity()
export class Author {
  @PrimaryKey()
  id!: string;

  @HasMany(() => Book, { exposed: true, via: 'authorId' })
  books?: Book[];
}

/** Only the misspelt column is reported, not Author.books as "not a key; use via: 'authrId'". */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @BelongsTo(() => Author, { column: 'authrId', exposed: true })
  author?: Author | null;
}

@Abilities()
export class LibraryAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', ['Author', 'Book'], { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Author)
export class AuthorResolver {
  @Query()
  @Authorized('read', Author)
  author(id: string): Promise<Author | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [AuthorResolver, LibraryAbilities, LoaderScope] })
export class AppModule {}
