import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** A note. Column constraints are not declarable yet; until then they are refused, not ignored. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column({ maxLenght: 2000, bogus: true })
  text!: string;

  @Column({ exposd: false })
  secret!: string;
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
  @Query({ nmae: 'noteById' })
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@Controller({ path: 'notes', version: '1' })
export class NotesController {
  @Get(':id')
  @Authorized('read', Note)
  get(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities], controllers: [NotesController], versions: { '1': { deprecated: true, sunet: '2027-06-30' } } })
export class AppModule {}
