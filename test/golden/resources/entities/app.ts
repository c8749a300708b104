import { type AppAbility, defineAbility, type Principal } from 'resource-service';
import { AuthenticationGuard, GraphQLAuthorizationModule } from 'resource-service';
import { Abilities, Column, Entity, Filterable, Module, PrimaryKey, Resource, UseGuards } from 'resource-service';
import type { Int } from 'resource-service';

/** How a comment reads. */
export type Tone = 'plain' | 'loud';

/** A comment. */
@Entity()
@Resource({ path: 'comments', version: '2' })
export class Comment {
  @PrimaryKey()
  id!: string;

  @Column()
  orgId!: string;

  @Column({ maxLength: 2000, minLength: 1 })
  body!: string;

  @Column({ format: 'email', pattern: '@example\\.com$' })
  contact?: string | null;

  @Column({ min: 0, max: 5, default: 0 })
  stars!: Int;

  /** Lists filter by it. */
  @Column({ default: 'plain' })
  @Filterable()
  tone!: Tone;

  @Column({ exposed: false })
  secret?: string | null;
}

/** A tag: only listed (whole, publicly) and read. */
@Entity()
@Resource({ path: 'tags', operations: ['get', 'list'], public: ['list'], pagination: 'none' })
export class Tag {
  @PrimaryKey()
  id!: string;
}

@Abilities()
export class AppAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Comment', { orgId: principal.org_id }));
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [AppAbilities] })
export class AppModule {}
