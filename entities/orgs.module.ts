import { Module } from '../runtime/decorators.js';
import { OrgResolver } from './org.resolver.js';
import { OrgService } from './org.service.js';
import { OrgsController } from './orgs.controller.js';

/** Orgs: service, GraphQL `orgs` and REST `GET /orgs`. */
@Module({ providers: [OrgService, OrgResolver], controllers: [OrgsController] })
export class OrgsModule {}
