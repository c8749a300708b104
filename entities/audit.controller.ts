import { ApiTags, Authorized, Controller, Get } from '../runtime/declarations/decorators.js';
import type { Page } from '../runtime/data/keyset.js';
import type { Int } from '../runtime/declarations/scalars.js';
import { AuditRecord } from './audit-record.entity.js';
import { AuditService } from './audit.service.js';

/** The org's audit trail: what happened, to what, when. Admins only. */
@ApiTags('Audit')
@Controller({ path: 'audit-records', version: '2' })
export class AuditController {
  constructor(private readonly auditService: AuditService) {}

  /** One page of the org's audit records, oldest first. */
  @Get()
  @Authorized('read', AuditRecord)
  list(first?: Int, after?: string): Promise<Page<AuditRecord>> {
    return this.auditService.list({ first, after });
  }
}
