import { GraphQLAuthorizationGuard } from '../runtime/auth/guards.js';
import { Authorized, Query, Resolver, UseGuards } from '../runtime/declarations/decorators.js';
import type { Page } from '../runtime/data/keyset.js';
import type { Int } from '../runtime/declarations/scalars.js';
import { Digest } from './digest.entity.js';
import { DigestService } from './digest.service.js';

/** GraphQL operations on digests (docs/behaviour.md §4.1, §10.2). */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Digest)
export class DigestResolver {
  constructor(private readonly digestService: DigestService) {}

  /** One page of the org's digests, oldest first (admins only). */
  @Query()
  @Authorized('read', Digest)
  digests(first?: Int, after?: string): Promise<Page<Digest>> {
    return this.digestService.list({ first, after });
  }
}
