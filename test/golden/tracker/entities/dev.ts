/**
 * The tracker's development hooks: what `seed` writes (workspaces, people of every role, an active
 * and an archived project, issues in both states with comments) and the token per role `dev` prints.
 */
import { defineDevHooks, type DevPrincipal, newId } from 'resource-service';
import type { Database } from '../generated/database.js';
import type { IssueState } from './issue.entity.js';

/** Issues alternate between these states. */
const STATES: readonly IssueState[] = ['open', 'closed'];

/** The roles the grants know, in the order each workspace's first people play them. */
const ROLES = ['admin', 'member', 'guest'] as const;

/** A person the seed wrote, and the role their token carries. */
interface SeededPerson {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly email: string;
  readonly role: (typeof ROLES)[number];
}

/** What a seed wrote. */
interface Seeded {
  readonly workspaces: readonly { id: string; name: string }[];
  readonly people: readonly SeededPerson[];
  readonly projects: readonly { id: string; workspaceId: string; archived: boolean }[];
  readonly issues: readonly { id: string; projectId: string; reporterId: string; assigneeId: string | null; state: string }[];
  readonly comments: readonly { id: string; issueId: string; writerId: string }[];
  readonly labels: readonly { id: string; workspaceId: string; name: string; internal: boolean }[];
  readonly issueLabels: readonly { issueId: string; labelId: string }[];
}

/** One principal per role, from the first workspace's people. */
function principalsOf(people: readonly SeededPerson[]): DevPrincipal[] {
  return ROLES.flatMap((role) => {
    const person = people.find((candidate) => candidate.role === role);
    return person ? [{ name: person.name, sub: person.id, org_id: person.workspaceId, role }] : [];
  });
}

export default defineDevHooks({
  sizes: {
    workspaces: { description: 'workspaces', default: 2 },
    people: { description: 'people per workspace (an admin, a member, a guest, then members)', default: 4 },
    issues: { description: 'issues per project (two projects per workspace, one archived)', default: 4 },
  },
  async seed(database: Database, { sizes, onProgress }): Promise<Seeded> {
    const workspaces = Array.from({ length: sizes.workspaces }, (_, index) => ({ id: newId(), name: `Team ${index + 1}` }));
    await database.workspace.createMany({ data: workspaces });
    const people: SeededPerson[] = workspaces.flatMap((workspace, space) =>
      Array.from({ length: sizes.people }, (_, index) => {
        const role = ROLES[index] ?? 'member';
        const id = newId();
        // An address nobody could guess, so a test can look for it in any answer.
        return { id, workspaceId: workspace.id, name: `${role} ${index + 1} of team ${space + 1}`, email: `${role}.${id.slice(-12)}@tracker.example`, role };
      }),
    );
    await database.person.createMany({ data: people.map(({ role: _role, ...person }) => person) });
    const projects = workspaces.flatMap((workspace) => [
      { id: newId(), workspaceId: workspace.id, name: 'Website', archived: false },
      { id: newId(), workspaceId: workspace.id, name: 'Legacy', archived: true },
    ]);
    await database.project.createMany({ data: projects });
    const issues = projects.flatMap((project) => {
      const team = people.filter((person) => person.workspaceId === project.workspaceId);
      return Array.from({ length: sizes.issues }, (_, index) => ({
        id: newId(),
        workspaceId: project.workspaceId,
        projectId: project.id,
        reporterId: team[index % team.length]?.id ?? '',
        assigneeId: index % 3 === 2 ? null : (team[(index + 1) % team.length]?.id ?? null),
        title: `${project.name} issue ${index + 1}`,
        state: STATES[index % 2] ?? 'open',
      }));
    });
    await database.issue.createMany({ data: issues });
    const comments = issues.flatMap((issue, index) => {
      const team = people.filter((person) => person.workspaceId === issue.workspaceId);
      return [0, 1].map((offset) => ({
        id: newId(),
        workspaceId: issue.workspaceId,
        issueId: issue.id,
        writerId: team[(index + offset) % team.length]?.id ?? '',
        text: `Remark ${offset + 1} on ${issue.title}`,
      }));
    });
    await database.comment.createMany({ data: comments });
    const labels = workspaces.flatMap((workspace) => [
      { id: newId(), workspaceId: workspace.id, name: 'bug', internal: false },
      { id: newId(), workspaceId: workspace.id, name: 'security', internal: true },
      { id: newId(), workspaceId: workspace.id, name: 'ui', internal: false },
    ]);
    await database.label.createMany({ data: labels });
    // Every issue carries the labels its position picks: none, one, or several.
    const issueLabels = issues.flatMap((issue, index) =>
      labels
        .filter((label) => label.workspaceId === issue.workspaceId)
        .filter((_, position) => ((index + 1) >> position) % 2 === 1)
        .map((label) => ({ issueId: issue.id, labelId: label.id, workspaceId: issue.workspaceId })),
    );
    await database.issueLabel.createMany({ data: issueLabels });
    onProgress(1, 1);
    return {
      workspaces,
      people,
      projects: projects.map(({ id, workspaceId, archived }) => ({ id, workspaceId, archived })),
      issues: issues.map(({ id, projectId, reporterId, assigneeId, state }) => ({ id, projectId, reporterId, assigneeId, state })),
      comments: comments.map(({ id, issueId, writerId }) => ({ id, issueId, writerId })),
      labels,
      issueLabels: issueLabels.map(({ issueId, labelId }) => ({ issueId, labelId })),
    };
  },
  principals: async (database: Database, seeded: Seeded | undefined) => {
    if (seeded) return principalsOf(seeded.people);
    // Roles are token claims: told apart by the seed's addresses.
    const first = await database.workspace.findFirst({ orderBy: { id: 'asc' } });
    if (!first) return [];
    const people = await database.person.findMany({ where: { workspaceId: first.id }, orderBy: { id: 'asc' } });
    return principalsOf(
      people.flatMap((person) => {
        const role = ROLES.find((candidate) => person.email.startsWith(`${candidate}.`));
        return role ? [{ ...person, role }] : [];
      }),
    );
  },
  examples: ({ url, tokens }) =>
    tokens.slice(0, 1).flatMap(({ variable }) => [
      `curl -s "${url}/v1/issues?first=5" -H "Authorization: Bearer $${variable}"`,
      `curl -s ${url}/graphql -H 'Content-Type: application/json' -H "Authorization: Bearer $${variable}" -d '{"query":"{ issues(first: 5) { title assigneeName reporter { name } } }"}'`,
    ]),
});
