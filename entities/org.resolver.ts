import { GraphQLAuthorizationGuard } from '../runtime/guards.js';
import { Authorized, Query, Resolver, UseGuards } from '../runtime/decorators.js';
import { Org } from './org.entity.js';
import { OrgService } from './org.service.js';

/** GraphQL operations on orgs (spec §4.1). */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Org)
export class OrgResolver {
  constructor(private readonly orgService: OrgService) {}

  /** The orgs the caller may read (their own), whole, capped at LIST_CAP. */
  @Query()
  @Authorized('read', Org)
  orgs(): Promise<Org[]> {
    return this.orgService.listAll();
  }
}
