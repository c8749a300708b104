// Runs on: sqlite, postgresql
/**
 * Many-to-many relations through a join entity (docs/behaviour.md §2.6, §5.8, §8), on the suite's
 * second application (test/golden/tracker: `Issue.labels` and `Label.issues` through `IssueLabel`,
 * keyed by both): a connection paged per parent in one statement, the join rows and the far side
 * each read under the caller's scope before ranking. Generated link sets, made through the
 * application's own mutations, are read back by every role and compared with what CASL's own row
 * test admits of the rows (relations loaded); pages walked with `after` visit each linked row once.
 */
import { subject } from '@casl/ability';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAbility } from '../../runtime/auth/ability.js';
import { PROPERTY_RUNS, PROPERTY_SEED } from '../support/properties.js';
import { startTrackerServer, type TrackerRole, type TrackerServer } from '../support/tracker.js';

let server: TrackerServer;
let space: string;
/** The links the server holds now (issueId → labelIds), kept in step with the mutations sent. */
const links = new Map<string, Set<string>>();

/** A generated read grant on one of the three entities a many_to_many reads (the server keeps it to the caller's workspace). */
interface GeneratedRule {
  readonly subject: 'Issue' | 'Label' | 'IssueLabel';
  readonly condition: Record<string, unknown>;
}

/** Generated grant sets: each entity's read scope — columns, and relations of the join rows to either side. */
const GRANT_SETS: GeneratedRule[][] = fc
  .sample(
    fc.record({
      issue: fc.constantFrom({}, { state: 'open' }, { project: { is: { archived: false } } }),
      label: fc.constantFrom({}, { internal: false }, { name: { startsWith: 'b' } }),
      join: fc.constantFrom(
        {},
        { issue: { is: { state: 'open' } } },
        { label: { is: { internal: false } } },
        { issue: { is: { project: { is: { archived: false } } } }, label: { is: { name: { not: 'ui' } } } },
      ),
    }),
    { numRuns: 12, seed: PROPERTY_SEED },
  )
  .map(({ issue, label, join }) => [
    { subject: 'Issue', condition: issue },
    { subject: 'Label', condition: label },
    { subject: 'IssueLabel', condition: join },
  ]);

beforeAll(async () => {
  server = await startTrackerServer({ grants: GRANT_SETS });
  space = server.seeded.workspaces[0]?.id ?? '';
  for (const link of server.seeded.issueLabels) links.set(link.issueId, (links.get(link.issueId) ?? new Set()).add(link.labelId));
}, 180_000);
afterAll(async () => server?.stop());

const issuesOfSpace = (): TrackerServer['seeded']['issues'] =>
  server.seeded.issues.filter((issue) => server.seeded.projects.find((project) => project.id === issue.projectId)?.workspaceId === space);
const labelsOfSpace = (): TrackerServer['seeded']['labels'] => server.seeded.labels.filter((label) => label.workspaceId === space);

/**
 * The oracle's grants on Issue, Label and IssueLabel for `role`: test/golden/tracker/entities/abilities.ts
 * written again, so that the server's reading of its own grants is checked against an independent one.
 */
function abilityOf(role: TrackerRole): ReturnType<typeof defineAbility> {
  const inSpace = { workspaceId: space };
  return defineAbility(({ can }) => {
    if (role === 'guest') {
      can('read', 'Issue', { ...inSpace, project: { is: { archived: false } } });
      can('read', 'Label', { ...inSpace, internal: false });
      can('read', 'IssueLabel', { ...inSpace, issue: { is: { project: { is: { archived: false } } } } });
      return;
    }
    can('read', ['Issue', 'Label', 'IssueLabel'], inSpace);
  });
}

/** An issue row as CASL's row test needs it: its project loaded. */
function issueRow(id: string): Record<string, unknown> {
  const issue = server.seeded.issues.find((candidate) => candidate.id === id);
  const project = server.seeded.projects.find((candidate) => candidate.id === issue?.projectId);
  return { ...issue, workspaceId: project?.workspaceId, project };
}

/** A link as CASL's row test needs it: both its rows loaded. */
function linkRow(issueId: string, labelId: string): Record<string, unknown> {
  return {
    issueId,
    labelId,
    workspaceId: space,
    issue: issueRow(issueId),
    label: server.seeded.labels.find((label) => label.id === labelId),
  };
}

/** What the oracle says `role` sees of `issue`'s labels and of `label`'s issues: readable links to readable rows, in id order. */
function expectedLabels(ability: ReturnType<typeof defineAbility>, issueId: string): string[] {
  return [...(links.get(issueId) ?? [])]
    .filter((labelId) => ability.can('read', subject('IssueLabel', linkRow(issueId, labelId))))
    .filter((labelId) => ability.can('read', subject('Label', { ...server.seeded.labels.find((label) => label.id === labelId) })))
    .sort();
}
function expectedIssues(ability: ReturnType<typeof defineAbility>, labelId: string): string[] {
  return issuesOfSpace()
    .filter((issue) => links.get(issue.id)?.has(labelId) === true)
    .filter((issue) => ability.can('read', subject('IssueLabel', linkRow(issue.id, labelId))))
    .filter((issue) => ability.can('read', subject('Issue', issueRow(issue.id))))
    .map((issue) => issue.id)
    .sort();
}

type Connection = { edges: { cursor: string; node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

/** The ability a generated grant set gives (as test/fixtures/tracker-grants-server.ts builds it). */
function generatedAbility(rules: readonly GeneratedRule[]): ReturnType<typeof defineAbility> {
  return defineAbility(({ can }) => {
    for (const rule of rules) can('read', rule.subject, { ...rule.condition, workspaceId: space });
  });
}

/** Every caller's view of both sides — the tracker's roles and the generated grant sets — compared with the oracle. */
async function compareEveryRole(label: string): Promise<void> {
  const callers = [
    ...(['admin', 'member', 'guest'] as const).map((role) => ({ role, ability: abilityOf(role), token: () => server.token(role) })),
    ...GRANT_SETS.map((rules, index) => ({
      role: JSON.stringify(rules),
      ability: generatedAbility(rules),
      token: () => server.tokenAs(`grants-${String(index)}`),
    })),
  ];
  for (const { role, ability, token: tokenOf } of callers) {
    const token = await tokenOf();
    const issues = await server.graphql<{ issues: { id: string; labels: Connection }[] }>(
      '{ issues(first: 100) { id labels(first: 10) { edges { node { id } } } } }',
      {
        token,
      },
    );
    expect(issues.errors, label).toBeUndefined();
    for (const issue of issues.data?.issues ?? [])
      expect(issue.labels.edges.map((edge) => edge.node.id).sort(), `${label} ${role} Issue.labels`).toEqual(
        expectedLabels(ability, issue.id),
      );
    const labels = await server.graphql<{ labels: { id: string; issues: Connection }[] }>(
      '{ labels(first: 10) { id issues(first: 50) { edges { node { id } } } } }',
      {
        token,
      },
    );
    expect(labels.errors, label).toBeUndefined();
    for (const entry of labels.data?.labels ?? [])
      expect(entry.issues.edges.map((edge) => edge.node.id).sort(), `${label} ${role} Label.issues`).toEqual(
        expectedIssues(ability, entry.id),
      );
  }
}

describe('many-to-many through a join entity (docs/behaviour.md §2.6)', () => {
  it("shows each role exactly the links it may read, to rows it may read, on both sides, as the grants' row test says", async () => {
    await compareEveryRole('seeded');
    // The guest sees fewer: no internal label, nothing of an archived project's issues.
    const guest = await server.graphql<{ issues: { labels: Connection }[] }>(
      '{ issues(first: 100) { labels { edges { node { id name internal } } } } }',
      {
        token: await server.token('guest'),
      },
    );
    const seen = (guest.data?.issues ?? []).flatMap((issue) =>
      issue.labels.edges.map((edge) => edge.node as unknown as { internal: boolean }),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((node) => !node.internal)).toBe(true);
  });

  it('keeps every guarantee on generated link sets made through the mutations (labelIssue, unlabelIssue)', async () => {
    const admin = await server.token('admin');
    const pairs = issuesOfSpace().flatMap((issue) => labelsOfSpace().map((label) => [issue.id, label.id] as const));
    await fc.assert(
      fc.asyncProperty(fc.subarray(pairs, { maxLength: 12 }), async (toggled) => {
        for (const [issueId, labelId] of toggled) {
          const on = links.get(issueId)?.has(labelId) === true;
          const answer = await server.graphql(
            `mutation { ${on ? 'unlabelIssue' : 'labelIssue'}(issueId: "${issueId}", labelId: "${labelId}") { id } }`,
            { token: admin },
          );
          expect(answer.errors).toBeUndefined();
          const set = links.get(issueId) ?? new Set<string>();
          if (on) set.delete(labelId);
          else set.add(labelId);
          links.set(issueId, set);
        }
        await compareEveryRole(JSON.stringify(toggled));
      }),
      { numRuns: Math.max(4, Math.ceil(PROPERTY_RUNS / 15)), seed: PROPERTY_SEED },
    );
  }, 240_000);

  it('pages per parent: first/after walk every linked row once, in id order, and a level costs one statement', async () => {
    const admin = await server.token('admin');
    const label = labelsOfSpace()[0]?.id ?? '';
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page: { data?: { label: { issues: Connection } } | null } = await server.graphql<{ label: { issues: Connection } }>(
        `{ label(id: "${label}") { issues(first: 1${after ? `, after: "${after}"` : ''}) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } }`,
        { token: admin },
      );
      const connection = page.data?.label.issues;
      all.push(...(connection?.edges.map((edge) => edge.node.id) ?? []));
      after = connection?.pageInfo.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null;
    } while (after !== null);
    expect(all).toEqual(expectedIssues(abilityOf('admin'), label));
    expect(new Set(all).size).toBe(all.length);
    const requestId = `m2m-${String(Date.now())}`;
    const level = await server.graphql('{ issues(first: 100) { labels(first: 2) { edges { node { name } } } } }', {
      token: admin,
      requestId,
    });
    expect(level.errors).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.statementsOf(requestId)).toBe(2);
  });

  it('links only rows the caller may read: a label or issue of another workspace, or an unknown one, is NOT_FOUND alike; a pair twice is CONFLICT', async () => {
    const member = await server.token('member');
    const issue = issuesOfSpace()[0]?.id ?? '';
    const foreignLabel = server.seeded.labels.find((label) => label.workspaceId !== space)?.id ?? '';
    const missing = '01900000-0000-7000-8000-00000000beef';
    const codeOf = async (issueId: string, labelId: string): Promise<unknown> =>
      (await server.graphql(`mutation { labelIssue(issueId: "${issueId}", labelId: "${labelId}") { id } }`, { token: member })).errors?.[0]
        ?.extensions?.code;
    expect(await codeOf(issue, foreignLabel)).toBe('NOT_FOUND');
    expect(await codeOf(issue, missing)).toBe('NOT_FOUND');
    const fresh = labelsOfSpace().find((label) => links.get(issue)?.has(label.id) !== true)?.id;
    if (fresh) {
      expect(await codeOf(issue, fresh)).toBeUndefined();
      links.set(issue, (links.get(issue) ?? new Set<string>()).add(fresh));
      expect(await codeOf(issue, fresh)).toBe('CONFLICT');
    }
    // A guest may not label at all.
    const guest = await server.graphql(`mutation { labelIssue(issueId: "${issue}", labelId: "${labelsOfSpace()[0]?.id}") { id } }`, {
      token: await server.token('guest'),
    });
    expect(guest.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    // REST reads the same links by hand through the join repository.
    const rest = (await (await server.fetch(`/v1/issues/${issue}/labels`, { token: member })).json()) as { id: string }[];
    expect(rest.map((row) => row.id).sort()).toEqual(expectedLabels(abilityOf('member'), issue));
  });
});
