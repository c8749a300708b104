import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule, LoaderScope } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Entity, ManyToMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** Someone in groups. */
@Entity()
export class Member {
  @PrimaryKey()
  id!: string;

  /** Membership holds no key to Group. */
  @ManyToMany(() => Group, { through: () => Membership, exposed: true })
  groups?: Group[];
}

/** A group of members. */
@Entity()
export class Group {
  @PrimaryKey()
  id!: string;
}

/** That a member belongs somewhere. */
@Entity({ exposed: false })
export class Membership {
  @PrimaryKey()
  memberId!: string;

  @PrimaryKey()
  groupName!: string;

  @BelongsTo(() => Member, { column: 'memberId' })
  member?: Member | null;
}

@Abilities()
export class GroupAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Member', { id: principal.sub }));
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
@Module({ imports: [GraphQLAuthorizationModule], providers: [MemberResolver, GroupAbilities, LoaderScope] })
export class AppModule {}

