import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey, Query, Resolver, Resource, UseGuards } from 'resource-service';

/** A note. */
@Entity()
@Resource({ path: 'notes', version: '1' })
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

/** The hand-written get: an override only when the resource leaves `get` out. */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Controller({ path: 'notes', version: '1' })
export class NotesController {
  @Get(':noteId')
  @Authorized('read', Note)
  one(noteId: string): Promise<Note | null> {
    return Promise.resolve(noteId ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities], controllers: [NotesController], versions: { '1': {} } })
export class AppModule {}
