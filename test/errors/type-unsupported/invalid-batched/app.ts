import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule, LoaderScope } from 'resource-service';
import { Abilities, Authorized, Column, Entity, Module, PrimaryKey, Query, ResolveField, Resolver, UseGuards } from 'resource-service';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Every note of a level at once, but one number for all of them: a batched field answers one value per parent. */
  @ResolveField()
  length(notes: Note[]): Promise<number> {
    return Promise.resolve(notes.length);
  }

  /** One length per note, in order. */
  @ResolveField()
  lengths(notes: Note[]): Promise<number[]> {
    return Promise.resolve(notes.map((note) => note.text.length));
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, LoaderScope] })
export class AppModule {}
