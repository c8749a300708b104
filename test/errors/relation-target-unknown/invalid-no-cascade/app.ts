import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, HasMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';
import { LoaderScope } from 'resource-service';

/**
 * A writer. Each child below misspells its key's target, so which key each has_many follows is
 * unknown: only the misspellings are reported, not a key missing, an ambiguity, or a via built
 * from the keys that remain.
 */
@Entity()
export class Author {
  @PrimaryKey()
  id!: string;

  @HasMany(() => Book, { exposed: true, via: 'authorId' })
  books?: Book[];

  @HasMany(() => Essay, { exposed: true })
  essays?: Essay[];

  @HasMany(() => Letter, { exposed: true })
  letters?: Letter[];
}

/** Without the misspelling, via 'authorId' would be "not a key; use via: 'editorId'". */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @Column()
  editorId!: string;

  @BelongsTo(() => Autor, { column: 'authorId', exposed: true })
  author?: Author | null;

  @BelongsTo(() => Author, { column: 'editorId' })
  editor?: Author | null;
}

/** Without the misspelling, Author.essays would be "ambiguous: add via: 'editorId' or via: 'reviewerId'". */
@Entity()
export class Essay {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @Column()
  editorId!: string;

  @Column()
  reviewerId!: string;

  @BelongsTo(() => Athor, { column: 'authorId' })
  author?: Author | null;

  @BelongsTo(() => Author, { column: 'editorId' })
  editor?: Author | null;

  @BelongsTo(() => Author, { column: 'reviewerId' })
  reviewer?: Author | null;
}

/** Without the misspelling, Author.letters would be "Letter has no key to Author". */
@Entity()
export class Letter {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @BelongsTo(() => Authr, { column: 'authorId' })
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
