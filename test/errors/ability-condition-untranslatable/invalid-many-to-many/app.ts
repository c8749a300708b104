import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule, LoaderScope } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Entity, ManyToMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** Someone in groups. */
@Entity()
export class Member {
  @PrimaryKey()
  id!: string;

  /** Their groups. */
  @ManyToMany(() => Group, { through: () => Membership, exposed: true })
  groups?: Group[];
}

/** A group of members. */
@Entity()
export class Group {
  @PrimaryKey()
  id!: string;
}

/** That a member belongs to a group. */
@Entity({ exposed: false })
export class Membership {
  @PrimaryKey()
  memberId!: string;

  @PrimaryKey()
  groupId!: string;

  @BelongsTo(() => Member, { column: 'memberId' })
  member?: Member | null;

  @BelongsTo(() => Group, { column: 'groupId' })
  group?: Group | null;
}

@Abilities()
export class MemberGroupAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => {
      can('read', 'Group', { id: principal.org_id });
      can('read', 'Member', { groups: { some: { id: principal.org_id } } });
    });
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Member)
export class MemberResolver {
  @Query()
  @Authorized('read', Member)
  member(id: string): Promise<Member | null> {
    return Promise.resolve(id ? null : null);
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [MemberResolver, MemberGroupAbilities, LoaderScope] })
export class AppModule {}

