import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, Colum, Column, Entity, Module, PrimaryKey, Query, Resolver, Searchable, UseGuards } from 'resource-service';
import * as rt from 'resource-service';

/** A note. The runtime has no @Searchable; it is refused, not ignored. */
@Entity()
@Searchable({ path: 'notes', version: '1' })
export class Note {
  @PrimaryKey()
  id!: string;

  @Colum()
  title!: string;

  @Column()
  text!: string;

  /** Written through a namespace import: read (and checked) all the same. */
  @rt.Colunm()
  body!: string;

  /** A name imported from nowhere (what an editor leaves after a typo): refused, not ignored, so the column does not vanish. */
  @Colmn()
  summary!: string;
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

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteResolver, NoteAbilities] })
export class AppModule {}
