import {
  Args,
  Authorized,
  currentPrincipal,
  GraphQLAuthorizationGuard,
  type Int,
  McpTool,
  Mutation,
  type Page,
  Public,
  Query,
  Resolver,
  type Result,
  UseGuards,
  ZodValidationPipe,
} from 'resource-service';
import { type CreateUser, CreateUserSchema } from './user.dto.js';
import { User } from './user.entity.js';
import { UserService } from './user.service.js';

/** GraphQL operations on users (docs/behaviour.md §4.1). */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => User)
export class UserResolver {
  constructor(private readonly userService: UserService) {}

  /** One page of the users the caller may read, oldest first; pass the last id as `after` for the next page. */
  @Query()
  @McpTool({ title: 'List users' })
  @Authorized('read', User)
  users(first?: Int, after?: string): Promise<Page<User>> {
    return this.userService.list({ first, after });
  }

  /** One user by id; null when it does not exist or the caller may not read it. */
  @Query()
  @Authorized('read', User)
  user(id: string): Promise<User | null> {
    return this.userService.findById(id);
  }

  /** Creates a user in the caller's org. */
  @Mutation()
  @Authorized('create', User)
  createUser(@Args(new ZodValidationPipe(CreateUserSchema)) input: CreateUser | null): Promise<Result<User>> {
    return this.userService.create(input as CreateUser);
  }

  /**
   * The signed-in caller's own user.
   *
   * @privateRemarks
   * Public, so it errors when no principal was seeded.
   */
  @Query()
  @McpTool({ title: 'Who am I' })
  @Public()
  me(): Promise<User | null> {
    return this.userService.findById(currentPrincipal().sub);
  }
}
