import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Cron, Entity, Get, Injectable, McpHost, Module, OnEvent, PrimaryKey, Processor, Query, Resolver, UseGuards, Version } from 'resource-service';

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

@Controller({ path: 'notes', version: ['1', '2'] })
export class NotesController {
  @Get(':id')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  @Get(':id/history')
  @Version('2')
  @Authorized('read', Note)
  history(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note, { version: '2' })
export class NoteResolver {
  @Query()
  @Version('2')
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@McpHost({ path: '/mcp', version: '1' })
export class NoteTools {}

@Processor('emails', { version: '2' })
export class EmailProcessor {}

@Injectable()
export class Housekeeping {
  @Cron('0 * * * *', { version: '1' })
  sweep(): void {}

  @OnEvent('note.created', { version: '1' })
  onNoteCreated(): void {}
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteAbilities, NoteResolver, NoteTools, EmailProcessor, Housekeeping], controllers: [NotesController], versions: { '1': { deprecated: true, sunset: '2027-06-30' } } })
export class AppModule {}
