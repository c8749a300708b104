import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule, LoaderScope } from 'resource-service';
import { Abilities, Authorized, BelongsTo, Entity, ManyToMany, Module, PrimaryKey, Query, Resolver, UseGuards } from 'resource-service';

/** Someone in groups, following others. */
@Entity()
export class Member {
  @PrimaryKey()
  id!: string;

  /** Whom they follow: a join of Member with itself needs via. */
  @ManyToMany(() => Member, { through: () => Follow, exposed: true })
  follows?: Member[];

  /** Their groups: Membership holds two keys to Group. */
  @ManyToMany(() => Group, { through: () => Membership, exposed: true })
  groups?: Group[];
}

/** A group of members. */
@Entity()
export class Group {
  @PrimaryKey()
  id!: string;
}

/** That one member follows another. */
@Entity({ exposed: false })
export class Follow {
  @PrimaryKey()
  followerId!: string;

  @PrimaryKey()
  followedId!: string;

  @BelongsTo(() => Member, { column: 'followerId' })
  follower?: Member | null;

  @BelongsTo(() => Member, { column: 'followedId' })
  followed?: Member | null;
}

/** That a member belongs to a group, maybe through another. */
@Entity({ exposed: false })
export class Membership {
  @PrimaryKey()
  memberId!: string;

  @PrimaryKey()
  groupId!: string;

  @PrimaryKey()
  viaGroupId!: string;

  @BelongsTo(() => Member, { column: 'memberId' })
  member?: Member | null;

  @BelongsTo(() => Group, { column: 'groupId' })
  group?: Group | null;

  @BelongsTo(() => Group, { column: 'viaGroupId' })
  viaGroup?: Group | null;
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

