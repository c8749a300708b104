import { type AppAbility, defineAbility, type Principal } from '../../../../runtime/auth/ability.js';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from '../../../../runtime/auth/guards.js';
import { Abilities, Authorized, Column, Entity, Module, PrimaryKey, Query, Resolver, UseGuards } from '../../../../runtime/declarations/decorators.js';

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
}

@UseGuards(AuthenticationGuard)
@Module({ providers: [NoteResolver, NoteAbilities] })
export class AppModule {}
