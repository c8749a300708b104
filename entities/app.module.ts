import { AuthenticationGuard, LoaderScope, Module, UseGuards } from 'resource-service';
import { AppAbilities } from './abilities.js';
import { ActivityModule } from './activity.module.js';
import { EchoGateway } from './echo.gateway.js';
import { ApiInfoService, ApiRootV1Controller, ApiRootV2Controller, MetaController } from './meta.controller.js';
import { PostsModule } from './posts.module.js';
import { UsersModule } from './users.module.js';

/**
 * The application: everything mounted is reachable from here (docs/behaviour.md §1: no central list).
 * `LoaderScope` is the GraphQL batch-context provider relation loaders need (docs/behaviour.md §5.10).
 * Version 1 of the REST API is deprecated and sunsets on 2027-06-30: its responses say so.
 * The authentication guard is bound globally: every GraphQL operation runs it (docs/behaviour.md §5.2).
 */
@UseGuards(AuthenticationGuard)
@Module({
  imports: [UsersModule, PostsModule, ActivityModule],
  providers: [AppAbilities, LoaderScope, EchoGateway, ApiInfoService],
  controllers: [MetaController, ApiRootV1Controller, ApiRootV2Controller],
  versions: { '1': { deprecated: '2026-06-01', sunset: '2027-06-30' } },
})
export class AppModule {}
