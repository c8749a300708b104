import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { runUnscoped } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Entity, Injectable, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

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

/** Requests read through the caller's scope; only maintenance lifts it, and no request reaches it. */
@Injectable()
export class NoteService {
  count(): Promise<number> {
    return Promise.resolve(0);
  }

  purge(): Promise<void> {
    return runUnscoped(() => Promise.resolve());
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

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteService, NoteAbilities] })
export class AppModule {}
