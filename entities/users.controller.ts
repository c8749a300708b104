import { ApiTags, Authorized, Body, Controller, Get, type Int, type Page, Post, type Result, ZodValidationPipe } from 'resource-service';
import { type CreateUser, CreateUserSchema } from './user.dto.js';
import { User } from './user.entity.js';
import { UserService } from './user.service.js';

/**
 * The people of the caller's org.
 *
 * @privateRemarks
 * Unversioned: reachable whatever version a caller states.
 */
@ApiTags('Users')
@Controller('users')
export class UsersController {
  constructor(private readonly userService: UserService) {}

  /**
   * One page of the users the caller may read, oldest first.
   *
   * @privateRemarks
   * A keyset page over the primary key (docs/behaviour.md §4.2).
   */
  @Get()
  @Authorized('read', User)
  list(first?: Int, after?: string): Promise<Page<User>> {
    return this.userService.list({ first, after });
  }

  /** One user by id. Answers 404 when it does not exist or the caller may not read it. */
  @Get(':id')
  @Authorized('read', User)
  get(id: string): Promise<User | null> {
    return this.userService.findById(id);
  }

  /** Creates a user in the caller's org. */
  @Post()
  @Authorized('create', User)
  create(@Body(new ZodValidationPipe(CreateUserSchema)) input: CreateUser): Promise<Result<User>> {
    return this.userService.create(input);
  }
}
