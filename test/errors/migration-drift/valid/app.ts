import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';
import { LoaderScope } from 'resource-service';

/** A writer. */
@Entity()
export class Author {
  @PrimaryKey()
  id!: string;

  @Column()
  name!: string;

  @HasMany(() => Book, { exposed: true, via: 'authorId' })
  books?: Book[];
}

/** A book with an author and an editor, both authors. */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @Column()
  editorId!: string;

  @BelongsTo(() => Author, { column: 'authorId', exposed: true })
  author?: Author | null;

  @BelongsTo(() => Author, { column: 'editorId' })
  editor?: Author | null;
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
