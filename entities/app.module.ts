import { Module } from '../runtime/decorators.js';
import { AppAbilities } from './abilities.js';
import { OrgsModule } from './orgs.module.js';
import { PostsModule } from './posts.module.js';
import { UsersModule } from './users.module.js';

/** The application: everything mounted is reachable from here (spec §1: no central list). */
@Module({ imports: [UsersModule, PostsModule, OrgsModule], providers: [AppAbilities] })
export class AppModule {}
