import { Module } from '../runtime/decorators.js';
import { LoaderScope } from '../runtime/graphql/loaders.js';
import { AppAbilities } from './abilities.js';
import { OrgsModule } from './orgs.module.js';
import { PostsModule } from './posts.module.js';
import { UsersModule } from './users.module.js';

/**
 * The application: everything mounted is reachable from here (spec §1: no central list).
 * `LoaderScope` is the GraphQL batch-context provider relation loaders need (spec §5.10).
 */
@Module({ imports: [UsersModule, PostsModule, OrgsModule], providers: [AppAbilities, LoaderScope] })
export class AppModule {}
