import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import type { Page } from 'resource-service';
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

@Controller('notes')
export class NotesController {
  @Get()
  @Authorized('read', Note)
  list(): Promise<Note[]> {
    return Promise.resolve([]);
  }

  @Get('recent')
  @Authorized('read', Note)
  recent(): Promise<Page<Note>> {
    return Promise.resolve({ items: [], has_more: false });
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities], controllers: [NotesController] })
export class AppModule {}
