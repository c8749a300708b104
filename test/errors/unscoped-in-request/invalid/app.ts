import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { runUnscoped } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Controller, Entity, Get, Injectable, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

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

/** Reads every note, whoever asks: reachable from a query and a route through `count`. */
@Injectable()
export class NoteStore {
  all(): Promise<Note[]> {
    return runUnscoped(() => Promise.resolve([]));
  }

  count(): Promise<number> {
    return this.all().then((notes) => notes.length);
  }

  /** Only a job calls this one: not reachable from a request, so it may lift the scope. */
  purge(): Promise<void> {
    return runUnscoped(() => Promise.resolve());
  }
}

@Injectable()
export class NoteService {
  constructor(private readonly store: NoteStore) {}

  count(): Promise<number> {
    return this.store.count();
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Note)
export class NoteResolver {
  constructor(private readonly notes: NoteService) {}

  @Query()
  @Authorized('read', Note)
  noteCount(): Promise<number> {
    return this.notes.count();
  }
}

@Controller('notes')
export class NotesController {
  constructor(private readonly store: NoteStore) {}

  @Get('all', { pagination: 'none' })
  @Authorized('read', Note)
  all(): Promise<Note[]> {
    return runUnscoped(() => this.store.all());
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteService, NoteStore, NoteAbilities], controllers: [NotesController] })
export class AppModule {}
