import { Authorized, Controller, Get } from '../runtime/decorators.js';
import { Org } from './org.entity.js';
import { OrgService } from './org.service.js';

/** REST routes for orgs. */
@Controller('orgs')
export class OrgsController {
  constructor(private readonly orgService: OrgService) {}

  /** Every org the caller may read, whole (pagination mode `none`, capped at LIST_CAP). */
  @Get('', { pagination: 'none' })
  @Authorized('read', Org)
  list(): Promise<Org[]> {
    return this.orgService.listAll();
  }
}
