import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Body, Column, Controller, Entity, Get, Injectable, InjectQueue, Module, PrimaryKey, Query, UseGuards } from 'resource-service';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

/** Input of a search. */
export interface NoteQuery {
  text: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

/** Not an entity: a column here would be ignored. */
@Injectable()
export class NoteService {
  @Column()
  cache!: string;

  /** Not a resolver: a query here would be ignored. */
  @Query()
  @Authorized('read', Note)
  count(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** REST routes take no guards: their posture gates them. */
@UseGuards(AuthenticationGuard)
@Controller('notes')
export class NotesController {
  @Get(':id')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Not a route: its posture and body would be ignored. */
  @Authorized('read', Note)
  search(@Body() query: NoteQuery): Promise<Note[]> {
    return Promise.resolve(query ? [] : []);
  }
}

/** A queue is injected through the constructor; on a method's parameter it would be ignored. */
@Injectable()
export class Mailer {
  send(@InjectQueue('emails') queue: unknown): void {
    void queue;
  }
}

@Module({ providers: [NoteAbilities, NoteService, Mailer], controllers: [NotesController] })
export class AppModule {}
