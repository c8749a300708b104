import { OrgRepository } from '../generated/repositories/org.repository.js';
import { Injectable } from '../runtime/declarations/decorators.js';
import type { Org } from './org.entity.js';

/** Orgs the caller may read (their own). */
@Injectable()
export class OrgService {
  constructor(private readonly orgs: OrgRepository) {}

  /** Every org the caller may read, capped at `LIST_CAP` (pagination mode `none`). */
  listAll(): Promise<Org[]> {
    return this.orgs.listAll();
  }

  /** One org by id, or null when it does not exist or the caller may not read it. */
  findById(id: string): Promise<Org | null> {
    return this.orgs.findById(id);
  }
}
