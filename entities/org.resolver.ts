import { GraphQLAuthorizationGuard } from '../runtime/auth/guards.js';
import { Authorized, Complexity, Query, Resolver, UseGuards } from '../runtime/declarations/decorators.js';
import { Org } from './org.entity.js';
import { OrgService } from './org.service.js';

/** GraphQL operations on orgs (docs/behaviour.md §4.1). */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Org)
export class OrgResolver {
  constructor(private readonly orgService: OrgService) {}

  /**
   * The orgs the caller may read: their own.
   *
   * @privateRemarks
   * Whole, capped at LIST_CAP. Every role reads only its own org (docs/decisions.md §3), so the list holds
   * one row and scores like one.
   */
  @Query()
  @Complexity('1 + childComplexity')
  @Authorized('read', Org)
  orgs(): Promise<Org[]> {
    return this.orgService.listAll();
  }
}
