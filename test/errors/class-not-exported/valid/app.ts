import { type AppAbility, defineAbility, type Principal } from '../../../../runtime/auth/ability.js';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from '../../../../runtime/auth/guards.js';
import { Abilities, Authorized, Column, Entity, Injectable, Module, PrimaryKey, Query, Resolver, UseGuards } from '../../../../runtime/declarations/decorators.js';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

/** A clock. */
@Injectable()
export class NoteClock {
  now(): Date {
    return new Date();
  }
}

/** Not decorated: private helpers need no export. */
class Formatter {
  format(text: string): string {
    return text;
  }
}
export const formatter = new Formatter();

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
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, NoteClock] })
export class AppModule {}
