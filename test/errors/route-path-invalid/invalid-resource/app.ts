import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Column, Entity, Module, PrimaryKey, Resource, UseGuards } from 'resource-service';

/** A note, under a path with a parameter its generated operations would not read. */
@Entity()
@Resource({ path: 'orgs/:orgId/notes' })
export class Note {
  @PrimaryKey()
  id!: string;

  @Column({ maxLength: 200 })
  text!: string;
}

/** A tag, under a path the server would refuse at boot. */
@Entity()
@Resource({ path: 'tags?', operations: ['list', 'get'] })
export class Tag {
  @PrimaryKey()
  id!: string;

  @Column({ maxLength: 40 })
  name!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', ['Note', 'Tag'], { id: principal.sub }));
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteAbilities] })
export class AppModule {}
