import { GraphQLAuthorizationModule, Module } from 'resource-service';
import { PostResolver } from './post.resolver.js';
import { PostService } from './post.service.js';
import { PostsController } from './posts.controller.js';

/** Posts: service, GraphQL operations (publish, postPublished) and versioned REST routes. */
@Module({ imports: [GraphQLAuthorizationModule], providers: [PostService, PostResolver], controllers: [PostsController] })
export class PostsModule {}
