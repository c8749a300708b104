import { UserRepository } from '../generated/repositories/user.repository.js';
import { currentPrincipal, Injectable, type Page, type PageArgs, type Result } from 'resource-service';
import type { CreateUser } from './user.dto.js';
import type { User } from './user.entity.js';

/** Users of the caller's org. Every read is scoped by the caller's ability. */
@Injectable()
export class UserService {
  constructor(private readonly users: UserRepository) {}

  /** One keyset page of the users the caller may read (docs/behaviour.md §4.2). */
  list(args: PageArgs): Promise<Page<User>> {
    return this.users.page(args);
  }

  /** One user by id, or null when it does not exist or the caller may not read it. */
  findById(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  /** Creates a user in the caller's org (docs/behaviour.md §4.1: the org named by the principal's `org_id`). */
  create(input: CreateUser): Promise<Result<User>> {
    return this.users.create({ ...input, orgId: currentPrincipal().org_id });
  }
}
