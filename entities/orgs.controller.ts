import { ApiTags, Authorized, Controller, Get } from '../runtime/declarations/decorators.js';
import { Org } from './org.entity.js';
import { OrgService } from './org.service.js';

/** The tenants every user and post belongs to; a caller reads only their own org. */
@ApiTags('Orgs')
@Controller('orgs')
export class OrgsController {
  constructor(private readonly orgService: OrgService) {}

  /**
   * Every org the caller may read, in one answer rather than in pages.
   *
   * @privateRemarks
   * Pagination mode `none`: the whole scoped collection, capped at LIST_CAP.
   */
  @Get('', { pagination: 'none' })
  @Authorized('read', Org)
  list(): Promise<Org[]> {
    return this.orgService.listAll();
  }
}
