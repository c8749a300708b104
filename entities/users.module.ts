import { Module } from '../runtime/decorators.js';
import { UserResolver } from './user.resolver.js';
import { UserService } from './user.service.js';
import { UsersController } from './users.controller.js';

/** Users: service, GraphQL operations and REST routes. */
@Module({ providers: [UserService, UserResolver], controllers: [UsersController] })
export class UsersModule {}
