import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, McpHost, Authorized, Column, Controller, Entity, Get, McpTool, Module, Mutation, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

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
    return defineAbility(({ can }) => can(['read', 'update'], 'Note', { id: principal.sub }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  /** One note by id. */
  @Query()
  @McpTool()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Empties a note. */
  @Mutation()
  @McpTool()
  @Authorized('update', Note)
  clearNote(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Controller('notes')
export class NotesController {
  /** One note by id. */
  @Get(':id')
  @McpTool()
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

/** Notes, for assistants. */
@McpHost({ path: 'assistants' })
export class NoteHost {}

/** Notes again. */
@McpHost({ path: '/mcp/v2' })
export class OtherNoteHost {}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities, NoteHost, OtherNoteHost], controllers: [NotesController] })
export class AppModule {}
