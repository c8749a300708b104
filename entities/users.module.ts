import { Module } from '../runtime/declarations/decorators.js';
import { GraphQLAuthorizationModule } from '../runtime/auth/guards.js';
import { UserResolver } from './user.resolver.js';
import { UserService } from './user.service.js';
import { UsersController } from './users.controller.js';

/** Users: service, GraphQL operations and REST routes. */
@Module({ imports: [GraphQLAuthorizationModule], providers: [UserService, UserResolver], controllers: [UsersController] })
export class UsersModule {}
