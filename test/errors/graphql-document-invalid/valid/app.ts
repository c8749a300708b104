import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Column, Entity, Module, PrimaryKey, Resource, UseGuards } from 'resource-service';

/** A note. */
@Entity()
@Resource({ path: 'notes', operations: ['list', 'get'] })
export class Note {
  @PrimaryKey()
  id!: string;

  @Column({ maxLength: 200 })
  text!: string;
}

@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Note', { id: principal.sub }));
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [NoteAbilities] })
export class AppModule {}
