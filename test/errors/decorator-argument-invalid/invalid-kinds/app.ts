import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Controller, Entity, Get, HasMany, HttpCode, Module, Post, PrimaryKey, Public, Resolver, UseGuards } from 'resource-service';
import { LoaderScope } from 'resource-service';

/** A writer. */
@Entity()
export class Author {
  @PrimaryKey('id')
  id!: string;

  @Column({ exposed: 'false' })
  name!: string;

  @HasMany(() => Book, { exposed: true })
  books?: Book[];
}

/** A book; its author is written without the thunk, so the relation's key is unknown and Author.books says nothing. */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @BelongsTo(Author, { column: 'authorId', exposed: true })
  author?: Author | null;
}

@Abilities()
export class LibraryAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', ['Author', 'Book'], { id: principal.sub }));
  }
}

@Controller('authors')
export class AuthorsController {
  @Get('', { pagination: 'nonee' })
  @Authorized('read', Author)
  all(): Promise<Author[]> {
    return Promise.resolve([]);
  }

  @Post('ping')
  @HttpCode('200')
  @Public
  ping(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Author)
export class AuthorResolver {}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [AuthorResolver, LibraryAbilities, LoaderScope], controllers: [AuthorsController] })
export class AppModule {}
