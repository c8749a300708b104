import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, Gateway, HasMany, Module, PrimaryKey, Process, Processor, Public, Query, Resolver, SubscribeMessage, UseGuards } from 'resource-service';
import { LoaderScope } from 'resource-service';

/** A writer. */
@Entity()
export class Author {
  @PrimaryKey()
  id!: string;

  @HasMany(() => Book, { exposed: true })
  books?: Book[];
}

/** A book whose belongs_to does not say which column holds the key. */
@Entity()
export class Book {
  @PrimaryKey()
  id!: string;

  @Column()
  authorId!: string;

  @BelongsTo(() => Author, { exposed: true })
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
  @Authorized('read')
  author(id: string): Promise<Author | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Gateway({ version: '1' })
export class EchoGateway {
  @SubscribeMessage()
  @Public()
  ping(): string {
    return 'pong';
  }
}

/** A job handler must name the zod schema of its payload: `queue.add` checks payloads against it. */
@Processor('emails')
export class EmailProcessor {
  @Process('welcome')
  welcome(payload: unknown): void {
    void payload;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [AuthorResolver, LibraryAbilities, LoaderScope, EchoGateway, EmailProcessor] })
export class AppModule {}
