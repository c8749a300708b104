import { Authorized, Controller, Get, HttpCode, type Int, type Page, Post, type Result } from 'resource-service';
import type { IssueSummary } from './issue.dto.js';
import { Issue } from './issue.entity.js';
import { IssueService } from './issue.service.js';
import type { Label } from './label.entity.js';

/** Issues over REST: the list, one at a glance, and closing one. */
@Controller({ path: 'issues', version: '1' })
export class IssuesController {
  constructor(private readonly issueService: IssueService) {}

  /** One page of the issues the caller may read, oldest first. */
  @Get()
  @Authorized('read', Issue)
  list(first?: Int, after?: string): Promise<Page<Issue>> {
    return this.issueService.list({ first, after });
  }

  /** The issue at a glance, with its reporter; 404 when the caller may not read it. */
  @Get(':id/summary')
  @Authorized('read', Issue)
  summary(id: string): Promise<IssueSummary | null> {
    return this.issueService.summary(id);
  }

  /** The labels on the issue the caller may read; 404 when the caller may not read the issue. */
  @Get(':id/labels', { pagination: 'none' })
  @Authorized('read', Issue)
  labels(id: string): Promise<Label[] | null> {
    return this.issueService.labelsOf(id);
  }

  /** Closes an open issue; 409 when it is closed already. */
  @Post(':id/close')
  @HttpCode(200)
  @Authorized('close', Issue)
  close(id: string): Promise<Result<Issue>> {
    return this.issueService.close(id);
  }
}
