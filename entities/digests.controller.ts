import { ApiTags, Authorized, Controller, Get } from '../runtime/declarations/decorators.js';
import type { Page } from '../runtime/data/keyset.js';
import type { Int } from '../runtime/declarations/scalars.js';
import { Digest } from './digest.entity.js';
import { DigestService } from './digest.service.js';

/** Periodic summaries of the org's activity. Admins only. */
@ApiTags('Digests')
@Controller({ path: 'digests', version: '2' })
export class DigestsController {
  constructor(private readonly digestService: DigestService) {}

  /** One page of the org's digests, oldest first. */
  @Get()
  @Authorized('read', Digest)
  list(first?: Int, after?: string): Promise<Page<Digest>> {
    return this.digestService.list({ first, after });
  }
}
