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


/** Paths path-to-regexp 8 reads, but no OpenAPI path or typed client can carry as the router binds them. */
@Controller('orgs/:orgId/notes')
export class NotesController {
  /** A wildcard: an array of segments. */
  @Get('files/*rest')
  @Authorized('read', Note)
  files(orgId: string, rest: string): Promise<Note | null> {
    return Promise.resolve(orgId && rest ? null : null);
  }

  /** An optional group, path-to-regexp 8's optional syntax. */
  @Get('page{/:id}')
  @Authorized('read', Note)
  page(orgId: string, id?: string): Promise<Note | null> {
    return Promise.resolve(orgId && id ? null : null);
  }

  /** Names the method cannot have, or that the OpenAPI template cannot take. */
  @Get('by/:"note-id"/and/:$id')
  @Authorized('read', Note)
  named(orgId: string): Promise<Note | null> {
    return Promise.resolve(orgId ? null : null);
  }

  /** The controller's parameter named again. */
  @Get(':orgId')
  @Authorized('read', Note)
  again(orgId: string): Promise<Note | null> {
    return Promise.resolve(orgId ? null : null);
  }

  /** An escaped colon: literal for the router, a parameter for the documents. */
  @Get('time/12\\:00')
  @Authorized('read', Note)
  noon(orgId: string): Promise<Note | null> {
    return Promise.resolve(orgId ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities], controllers: [NotesController] })
export class AppModule {}
