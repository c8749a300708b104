import { AuthenticationGuard, GraphQLAuthorizationModule, LoaderScope, Module, UseGuards } from 'resource-service';
import { TrackerAbilities } from './abilities.js';
import { IssueResolver } from './issue.resolver.js';
import { IssueService } from './issue.service.js';
import { IssuesController } from './issues.controller.js';

/** An issue tracker: workspaces, people, projects, issues and their comments. */
@UseGuards(AuthenticationGuard)
@Module({
  imports: [GraphQLAuthorizationModule],
  providers: [TrackerAbilities, LoaderScope, IssueService, IssueResolver],
  controllers: [IssuesController],
})
export class AppModule {}
