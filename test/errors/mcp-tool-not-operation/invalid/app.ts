import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Entity, Gateway, Injectable, McpTool, Module, PrimaryKey, Public, Query, ResolveField, Resolver, SubscribeMessage, Subscription, UseGuards } from 'resource-service';

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
  @McpTool()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  @Subscription()
  @McpTool()
  @Authorized('read', Note)
  noteAdded(note: Note): Note {
    return note;
  }

  @ResolveField()
  @McpTool()
  shout(note: Note): string {
    return note.text.toUpperCase();
  }
}

@Gateway({ path: 'ws' })
export class NoteGateway {
  @SubscribeMessage('ping')
  @McpTool()
  @Public()
  ping(): string {
    return 'pong';
  }
}

@Injectable()
export class NoteService {
  @McpTool()
  count(): number {
    return 0;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, NoteGateway, NoteService] })
export class AppModule {}
