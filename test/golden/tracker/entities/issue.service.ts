import { IssueLabelRepository } from '../generated/repositories/issue-label.repository.js';
import { IssueRepository } from '../generated/repositories/issue.repository.js';
import { LabelRepository } from '../generated/repositories/label.repository.js';
import { PersonRepository } from '../generated/repositories/person.repository.js';
import { currentPrincipal, EventBus, fail, Injectable, type Page, type PageArgs, type Result } from 'resource-service';
import type { IssueSummary, NewIssue } from './issue.dto.js';
import type { Issue } from './issue.entity.js';
import type { Label } from './label.entity.js';

/** Issues: reporting, closing, and what is shown beside them. */
@Injectable()
export class IssueService {
  constructor(
    private readonly issues: IssueRepository,
    private readonly people: PersonRepository,
    private readonly labels: LabelRepository,
    private readonly issueLabels: IssueLabelRepository,
    private readonly events: EventBus,
  ) {}

  /** One keyset page of the issues the caller may read. */
  list(args: PageArgs): Promise<Page<Issue>> {
    return this.issues.page(args);
  }

  /** One issue, or null when it does not exist or the caller may not read it. */
  findById(id: string): Promise<Issue | null> {
    return this.issues.findById(id);
  }

  /** Reports an issue in the caller's workspace, the caller as reporter. */
  report(input: NewIssue): Promise<Result<Issue>> {
    const principal = currentPrincipal();
    return this.issues.create({
      workspaceId: principal.org_id,
      projectId: input.projectId,
      reporterId: principal.sub,
      assigneeId: input.assigneeId ?? null,
      title: input.title,
      state: 'open',
    });
  }

  /** Closes an open issue and tells `issueClosed` subscribers. Unknown or unreadable: NOT_FOUND; not the caller's to close: FORBIDDEN; closed already: CONFLICT. */
  async close(id: string): Promise<Result<Issue>> {
    const issue = await this.issues.findById(id);
    if (!issue) return fail('NOT_FOUND', `issue ${id} was not found`);
    if (!this.issues.permits('close', issue)) return fail('FORBIDDEN', 'you may not close this issue');
    if (issue.state === 'closed') return fail('CONFLICT', `issue ${id} is closed already`);
    const closed = await this.issues.update(id, { state: 'closed' }, { action: 'close', expect: { state: 'open' } });
    if (!closed.ok) return closed.failure.code === 'NOT_FOUND' ? fail('CONFLICT', `issue ${id} is closed already`) : closed;
    this.events.publish('issueClosed', closed.value);
    return closed;
  }

  /** Puts `labelId` on `issueId`: both must be readable (NOT_FOUND otherwise), the pair new (CONFLICT). */
  async label(issueId: string, labelId: string): Promise<Result<Issue>> {
    const linked = await this.issueLabels.create({ issueId, labelId, workspaceId: currentPrincipal().org_id });
    if (!linked.ok) return linked;
    const issue = await this.issues.findById(issueId);
    return issue ? { ok: true, value: issue } : fail('NOT_FOUND', `issue ${issueId} was not found`);
  }

  /** Takes `labelId` off `issueId`; NOT_FOUND when it was not on it (or the caller may not remove it). */
  async unlabel(issueId: string, labelId: string): Promise<Result<Issue>> {
    const removed = await this.issueLabels.delete({ issueId, labelId });
    if (!removed.ok) return removed;
    const issue = await this.issues.findById(issueId);
    return issue ? { ok: true, value: issue } : fail('NOT_FOUND', `issue ${issueId} was not found`);
  }

  /** The labels on issue `id` the caller may read, by hand through the join rows; null when the caller may not read the issue. */
  async labelsOf(id: string): Promise<Label[] | null> {
    const issue = await this.issues.findById(id);
    if (!issue) return null;
    const links = await this.issueLabels.list({ issueId: id });
    return this.labels.findManyByIds(links.map((link) => link.labelId));
  }

  /** The name of each issue's assignee, in order; null where there is none or the caller may not read them. One statement for all. */
  async assigneeNames(issues: readonly Pick<Issue, 'assigneeId'>[]): Promise<(string | null)[]> {
    const ids = issues.flatMap((issue) => (issue.assigneeId ? [issue.assigneeId] : []));
    const names = new Map((await this.people.findManyByIds(ids)).map((person) => [person.id, person.name]));
    return issues.map((issue) => (issue.assigneeId ? (names.get(issue.assigneeId) ?? null) : null));
  }

  /** The reporter's address; null when the caller may not read the reporter (a grant leaving addresses out refuses it). */
  async reporterEmail(issue: Pick<Issue, 'reporterId'>): Promise<string | null> {
    return (await this.people.findById(issue.reporterId))?.email ?? null;
  }

  /** The issue `id` at a glance, built from its row and its reporter's; null when the caller may not read the issue. */
  async summary(id: string): Promise<IssueSummary | null> {
    const issue = await this.issues.findById(id);
    if (!issue) return null;
    const reporter = await this.people.findById(issue.reporterId);
    return {
      title: issue.title,
      state: issue.state,
      ...(reporter ? { reporterName: reporter.name, reporterEmail: reporter.email } : {}),
    };
  }
}
