import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Entity, Gateway, Module, PrimaryKey, Query, Resolver, SubscribeMessage, UseGuards } from 'resource-service';

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

/** A socket message gated like an operation: its subject is checked the same way. */
@Gateway({ path: 'ws', version: '1' })
export class NoteGateway {
  @SubscribeMessage('note')
  @Authorized('read', 'Nots')
  note(): string {
    return 'note';
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, NoteGateway] })
export class AppModule {}
