import {
  Args,
  Authorized,
  GraphQLAuthorizationGuard,
  type ID,
  type Int,
  McpTool,
  Mutation,
  type Page,
  Query,
  ResolveField,
  Resolver,
  type Result,
  Subscription,
  UseGuards,
  ZodValidationPipe,
} from 'resource-service';
import { type NewIssue, NewIssueSchema } from './issue.dto.js';
import { IssueLabel } from './issue-label.entity.js';
import { Issue } from './issue.entity.js';
import { IssueService } from './issue.service.js';

/** GraphQL operations on issues, some of them MCP tools too. */
@UseGuards(GraphQLAuthorizationGuard)
@Resolver(() => Issue)
export class IssueResolver {
  constructor(private readonly issueService: IssueService) {}

  /** One page of the issues the caller may read, oldest first. */
  @Query()
  @McpTool({ title: 'List issues' })
  @Authorized('read', Issue)
  issues(first?: Int, after?: string): Promise<Page<Issue>> {
    return this.issueService.list({ first, after });
  }

  /** One issue; null when it does not exist or the caller may not read it. */
  @Query()
  @Authorized('read', Issue)
  issue(id: ID): Promise<Issue | null> {
    return this.issueService.findById(id);
  }

  /** The address of an issue's reporter; null when there is no such issue or the caller may not read the reporter. */
  @Query()
  @McpTool({ title: "An issue reporter's address" })
  @Authorized('read', Issue)
  async reporterEmailOf(issueId: ID): Promise<string | null> {
    const issue = await this.issueService.findById(issueId);
    return issue ? this.issueService.reporterEmail(issue) : null;
  }

  /** Reports an issue in one of the caller's projects. */
  @Mutation()
  @McpTool({ title: 'Report an issue' })
  @Authorized('create', Issue)
  reportIssue(@Args(new ZodValidationPipe(NewIssueSchema)) input: NewIssue): Promise<Result<Issue>> {
    return this.issueService.report(input);
  }

  /** Puts a label on an issue. */
  @Mutation()
  @McpTool({ title: 'Label an issue' })
  @Authorized('create', IssueLabel)
  labelIssue(issueId: ID, labelId: ID): Promise<Result<Issue>> {
    return this.issueService.label(issueId, labelId);
  }

  /** Takes a label off an issue. */
  @Mutation()
  @Authorized('delete', IssueLabel)
  unlabelIssue(issueId: ID, labelId: ID): Promise<Result<Issue>> {
    return this.issueService.unlabel(issueId, labelId);
  }

  /** Closes an open issue. */
  @Mutation()
  @McpTool({ title: 'Close an issue' })
  @Authorized('close', Issue)
  closeIssue(id: ID): Promise<Result<Issue>> {
    return this.issueService.close(id);
  }

  /** The assignee's name; null when there is none or the caller may not read them. Every issue of a level at once. */
  @ResolveField()
  assigneeName(issues: Issue[]): Promise<(string | null)[]> {
    return this.issueService.assigneeNames(issues);
  }

  /** The reporter's address, read by hand: a grant leaving addresses out refuses it. */
  @ResolveField()
  reporterEmail(issue: Issue): Promise<string | null> {
    return this.issueService.reporterEmail(issue);
  }

  /** Every issue closed from now on that the subscriber may read; with `projectId`, that project's only. */
  @Subscription()
  @Authorized('read', Issue)
  issueClosed(issue: Issue, projectId?: ID): Issue | null {
    return projectId === undefined || issue.projectId === projectId ? issue : null;
  }
}
