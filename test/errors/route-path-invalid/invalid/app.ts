import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

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

/** Paths Express 5 (path-to-regexp 8) refuses when the server starts. */
@Controller('notes')
export class NotesController {
  /** Express 4's optional parameter. */
  @Get(':id?')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Express 4's pattern on a parameter. */
  @Get('by-number/:id(\\d+)')
  @Authorized('read', Note)
  byNumber(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Express 4's catch-all. */
  @Get('files/*')
  @Authorized('read', Note)
  files(): Promise<Note | null> {
    return Promise.resolve(null);
  }

  /** Two parameters with nothing between them. */
  @Get('pair/:left:right')
  @Authorized('read', Note)
  pair(left: string, right: string): Promise<Note | null> {
    return Promise.resolve(left && right ? null : null);
  }

  /** A group never closed. */
  @Get('open{/:id')
  @Authorized('read', Note)
  open(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** A colon with no name. */
  @Get('at/:/x')
  @Authorized('read', Note)
  colon(): Promise<Note | null> {
    return Promise.resolve(null);
  }
}

/** A controller path path-to-regexp refuses: every route under it too, reported once. */
@Controller({ path: 'notes+' })
export class MoreNotesController {
  @Get(':id')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({
  imports: [GraphQLAuthorizationModule],
  providers: [NoteResolver, NoteAbilities],
  controllers: [NotesController, MoreNotesController],
})
export class AppModule {}
