import { GraphQLAuthorizationGuard } from '../runtime/auth/guards.js';
import { Authorized, Query, Resolver, UseGuards } from '../runtime/declarations/decorators.js';
import type { Page } from '../runtime/data/keyset.js';
import type { Int } from '../runtime/declarations/scalars.js';
import { AuditRecord } from './audit-record.entity.js';
import { AuditService } from './audit.service.js';

/** GraphQL operations on the audit trail (docs/behaviour.md §4.1, §10.3). */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => AuditRecord)
export class AuditResolver {
  constructor(private readonly auditService: AuditService) {}

  /** One page of the org's audit records, oldest first (admins only). */
  @Query()
  @Authorized('read', AuditRecord)
  auditRecords(first?: Int, after?: string): Promise<Page<AuditRecord>> {
    return this.auditService.list({ first, after });
  }
}
