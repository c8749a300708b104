import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Body, Column, Controller, Entity, Get, Injectable, Module, Post, PrimaryKey } from 'resource-service';

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

@Injectable()
export class NoteService {
  count(): Promise<number> {
    return Promise.resolve(0);
  }
}

@Controller('notes')
export class NotesController {
  @Get(':id')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  @Post('search')
  @Authorized('read', Note)
  search(@Body() query: NoteQuery): Promise<Note | null> {
    return Promise.resolve(query ? null : null);
  }
}

@Module({ providers: [NoteAbilities, NoteService], controllers: [NotesController] })
export class AppModule {}
