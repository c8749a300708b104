import { AuthenticationGuard, GraphQLAuthorizationGuard, GraphQLAuthorizationModule, type ID } from 'resource-service';
import { Abilities, type AppAbility, Args, Authorized, Column, defineAbility, Entity, Module, PrimaryKey, type Principal, Query, Resolver, Subscription, type PipeTransform, UseGuards } from 'resource-service';

/** An issue of a project. */
@Entity()
export class Issue {
  @PrimaryKey()
  id!: string;

  @Column()
  projectId!: string;
}

/** Trims a text argument. */
export class TrimPipe implements PipeTransform {
  transform(value: unknown): unknown {
    return typeof value === 'string' ? value.trim() : value;
  }
}

@Abilities()
export class IssueAbilities {
  for(principal: Principal): AppAbility {
    return defineAbility(({ can }) => can('read', 'Issue', { projectId: principal.org_id }));
  }
}

@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Issue)
export class IssueResolver {
  @Query()
  @Authorized('read', Issue)
  issue(id: ID): Promise<Issue | null> {
    return Promise.resolve(id ? null : null);
  }

  /** Issues closed in one project: the argument is written first, so it would receive each issue. */
  @Subscription()
  @Authorized('read', Issue)
  issueClosed(projectId: ID, issue: Issue): Issue | null {
    return issue.projectId === projectId ? issue : null;
  }

  /** Issues reopened: a pipe on the published item would never run. */
  @Subscription()
  @Authorized('read', Issue)
  issueReopened(@Args(TrimPipe) issue: Issue): Issue {
    return issue;
  }
}

@UseGuards(AuthenticationGuard)
@Module({ imports: [GraphQLAuthorizationModule], providers: [IssueResolver, IssueAbilities] })
export class AppModule {}
