import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Column, Entity, Module, PrimaryKey, Query, ResolveField, Resolver, UseGuards } from 'resource-service';

/** A note. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  text!: string;
}

/** Stored only. */
@Entity({ exposed: false })
export class NoteRevision {
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

/** Names no entity: its computed field would appear nowhere. */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver()
export class NoteResolver {
  @Query()
  @Authorized('read', Note)
  note(id: string): Promise<Note | null> {
    return Promise.resolve(id ? null : null);
  }

  /** The text's length. */
  @ResolveField()
  length(note: Note): number {
    return note.text.length;
  }
}

/** Names a storage-only entity, which has no GraphQL type. */
@Resolver(() => NoteRevision)
export class NoteRevisionResolver {
  /** The revision's length. */
  @ResolveField()
  length(revision: NoteRevision): number {
    return revision.text.length;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteRevisionResolver, NoteAbilities] })
export class AppModule {}
