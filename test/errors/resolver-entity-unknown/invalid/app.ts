import { type AppAbility, defineAbility, type Principal } from '../../../../runtime/auth/ability.js';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from '../../../../runtime/auth/guards.js';
import { Abilities, Authorized, Column, Entity, Module, PrimaryKey, Query, ResolveField, Resolver, UseGuards } from '../../../../runtime/declarations/decorators.js';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

/** A note as drafted: not an entity. */
export class NoteDraft {
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => NoteDraft)
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** The text's length. */
  @ResolveField()
  length(note: Note): number {
    return note.text.length;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities] })
export class AppModule {}
