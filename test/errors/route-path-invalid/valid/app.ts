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


/** Text and `:name` parameters only: what the router, the OpenAPI documents and the method all read alike. */
@Controller({ path: '/orgs/:orgId/notes/' })
export class NotesController {
  @Get()
  @Authorized('read', Note)
  list(orgId: string): Promise<Note | null> {
    return Promise.resolve(orgId ? null : null);
  }

  @Get(':id')
  @Authorized('read', Note)
  get(orgId: string, id: string): Promise<Note | null> {
    return Promise.resolve(orgId && id ? null : null);
  }

  @Get('/:id/versions/:version_2-:kind/')
  @Authorized('read', Note)
  version(orgId: string, id: string, version_2: string, kind: string): Promise<Note | null> {
    return Promise.resolve(orgId && id && version_2 && kind ? null : null);
  }

  @Get('archive.json')
  @Authorized('read', Note)
  archive(orgId: string): Promise<Note | null> {
    return Promise.resolve(orgId ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities], controllers: [NotesController] })
export class AppModule {}
