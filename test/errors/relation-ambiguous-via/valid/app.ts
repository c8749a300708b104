import { type AppAbility, defineAbility, type Principal } from '../../../../runtime/auth/ability.js';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from '../../../../runtime/auth/guards.js';
import { Abilities, Authorized, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Query, Resolver, UseGuards } from '../../../../runtime/declarations/decorators.js';
import { LoaderScope } from '../../../../runtime/graphql/loaders.js';

/** A writer. */
@Entity()
export class Author {
  @PrimaryKey()
  id!: string;

  @Column()
  name!: string;

  @HasMany(() => Book, { exposed: true })
  books?: Book[];
}

/** A book with an author and an editor, both authors. */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @BelongsTo(() => Author, { column: 'authorId', exposed: true })
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
