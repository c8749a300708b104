import { Module } from '../runtime/declarations/decorators.js';
import { GraphQLAuthorizationModule } from '../runtime/auth/guards.js';
import { OrgResolver } from './org.resolver.js';
import { OrgService } from './org.service.js';
import { OrgsController } from './orgs.controller.js';

/** Orgs: service, GraphQL `orgs` and REST `GET /orgs`. */
@Module({ imports: [GraphQLAuthorizationModule], providers: [OrgService, OrgResolver], controllers: [OrgsController] })
export class OrgsModule {}
