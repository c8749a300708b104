import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Column, Entity, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** An org. */
@Entity()
export class Org {
  @PrimaryKey()
  id!: string;
}

/** A note in an org. */
@Entity()
export class Note {
  @PrimaryKey()
  id!: string;

  @Column()
  orgId!: string;

  @Column()
  authorId!: string;

  @Column()
  text!: string;

  @Column()
  done!: boolean;

  @BelongsTo(() => Org, { column: 'orgId' })
  org?: Org | null;
}


@Abilities()
export class NoteAbilities {
  for(principal: Principal): AppAbility {
    const inOrg = { orgID: principal.org_id };
    return defineAbility(({ can }) => {
      can('read', 'Note', { ...inOrg, authorId: principal.sub });
      can('update', 'Note', { ...inOrg, autorId: principal.sub });
      can('delete', 'Note', { orgId: principal.org_id, org: { is: { idd: principal.org_id } } });
      can('read', 'Note', { org: { id: principal.org_id } });
    });
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
