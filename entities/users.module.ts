import { GraphQLAuthorizationModule, Module } from 'resource-service';
import { UserResolver } from './user.resolver.js';
import { UserService } from './user.service.js';
import { UsersController } from './users.controller.js';

/** Users: service, GraphQL operations and REST routes. */
@Module({ imports: [GraphQLAuthorizationModule], providers: [UserService, UserResolver], controllers: [UsersController] })
export class UsersModule {}
