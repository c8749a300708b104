// Runs on: sqlite, postgresql
/**
 * What an application writes by hand keeps every guarantee the generated code keeps
 * (docs/behaviour.md §2.1, §5.5), on the suite's second application (test/golden/tracker): a
 * computed field, a REST handler and an MCP tool that build their answer from another entity's row
 * read through a repository never hand out a field the caller's grant excludes. Generated grant
 * sets — field lists, conditions on columns and relations — are each given to a token; every
 * answer of every transport is searched for the values those grants exclude (each person's address,
 * unique to the seed), and what the grant permits is answered as it is. Also: batched computed
 * fields cost one statement per level, and a subscriber asking for one project's events gets only
 * those.
 */
import { subject } from '@casl/ability';
import { permittedFieldsOf } from '@casl/ability/extra';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { defineAbility, type WhereCondition } from '../../runtime/auth/ability.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { startTrackerServer, type TrackerServer } from '../support/tracker.js';

/** A generated `can('read', …)` (test/fixtures/tracker-grants-server.ts adds the workspace to its condition). */
interface GeneratedRule {
  readonly subject: 'Person' | 'Issue' | 'Project' | 'Comment' | 'Workspace';
  readonly fields?: readonly string[];
  readonly condition: WhereCondition;
}

const PERSON_FIELDS = ['id', 'workspaceId', 'name', 'email'];
const ISSUE_FIELDS = ['id', 'workspaceId', 'projectId', 'reporterId', 'assigneeId', 'title', 'state', 'createdAt', 'externalRef'];

/** A grant set: always some read on Issue (the hand-written answers hang off issues), the rest generated. */
const grantSet: fc.Arbitrary<GeneratedRule[]> = fc
  .record({
    person: fc.array(
      fc.record({
        fields: fc.option(fc.subarray(PERSON_FIELDS, { minLength: 1 }), { nil: undefined }),
        condition: fc.constantFrom<WhereCondition>(
          {},
          { name: { startsWith: 'admin' } },
          { name: { not: { startsWith: 'guest' } } },
          { reported: { some: { state: 'open' } } },
        ),
      }),
      { maxLength: 2 },
    ),
    issue: fc.array(
      fc.record({
        fields: fc.option(
          fc.subarray(ISSUE_FIELDS, { minLength: 1 }).map((fields) => [...new Set(['id', 'reporterId', 'assigneeId', ...fields])]),
          {
            nil: undefined,
          },
        ),
        condition: fc.constantFrom<WhereCondition>(
          {},
          { state: 'open' },
          { project: { is: { archived: false } } },
          { reporter: { is: { name: { startsWith: 'member' } } } },
        ),
      }),
      { minLength: 1, maxLength: 2 },
    ),
    project: fc.boolean(),
  })
  .map(({ person, issue, project }) => [
    ...person.map((rule): GeneratedRule => ({ subject: 'Person', ...rule })),
    ...issue.map((rule): GeneratedRule => ({ subject: 'Issue', ...rule })),
    ...(project ? [{ subject: 'Project', condition: {} } as GeneratedRule] : []),
    { subject: 'Workspace', condition: {} },
  ]);

const GRANT_SETS = fc.sample(grantSet, { numRuns: 24, seed: PROPERTY_SEED });

let server: TrackerServer;

beforeAll(async () => {
  server = await startTrackerServer({ grants: GRANT_SETS });
}, 180_000);
afterAll(async () => server?.stop());

/** The ability a grant set gives, as the server builds it (its conditions kept to the caller's workspace). */
function abilityOf(rules: readonly GeneratedRule[], workspaceId: string): ReturnType<typeof defineAbility> {
  return defineAbility(({ can }) => {
    for (const rule of rules) {
      const condition = { ...rule.condition, [rule.subject === 'Workspace' ? 'id' : 'workspaceId']: workspaceId };
      if (rule.fields) can('read', rule.subject, [...rule.fields], condition);
      else can('read', rule.subject, condition);
    }
  });
}

/** Each seeded person with the issues they reported loaded, as CASL's row test needs for a `reported` condition. */
function personRow(id: string): Record<string, unknown> {
  const person = server.seeded.people.find((candidate) => candidate.id === id);
  return { ...person, reported: server.seeded.issues.filter((issue) => issue.reporterId === id) };
}

/** Whether `ability` lets the caller read `field` of person `id` (CASL on the whole row). */
function personFieldReadable(ability: ReturnType<typeof defineAbility>, id: string, field: string): boolean {
  const row = personRow(id);
  return permittedFieldsOf(ability, 'read', subject('Person', row), { fieldsFrom: (rule) => rule.fields ?? PERSON_FIELDS }).includes(field);
}

/** Every answer a caller with `token` gets from the hand-written paths, as text (GraphQL, REST, MCP). */
async function everyAnswer(token: string): Promise<string[]> {
  const answers: string[] = [];
  const graph = async (query: string): Promise<void> => {
    answers.push(JSON.stringify(await server.graphql(query, { token })));
  };
  await graph('{ issues(first: 100) { id reporterEmail } }');
  await graph('{ issues(first: 100) { id assigneeName reporter { id name } } }');
  for (const issue of server.seeded.issues) {
    await graph(`{ reporterEmailOf(issueId: "${issue.id}") }`);
    answers.push(await (await server.fetch(`/v1/issues/${issue.id}/summary`, { token })).text());
  }
  answers.push(await (await server.fetch('/v1/issues?first=100', { token })).text());
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'hand-written-test', version: '1' });
  await client.connect(transport);
  try {
    for (const issue of server.seeded.issues.slice(0, 8))
      answers.push(JSON.stringify(await client.callTool({ name: 'reporterEmailOf', arguments: { issueId: issue.id } })));
    answers.push(JSON.stringify(await client.callTool({ name: 'issues', arguments: { first: 100 } })));
  } finally {
    await client.close();
  }
  return answers;
}

describe('hand-written answers under generated grants (docs/behaviour.md §2.1)', () => {
  it('never carry an address the grant excludes, on GraphQL, REST or MCP, and carry those it permits', async () => {
    const space = server.seeded.workspaces[0]?.id ?? '';
    const people = server.seeded.people.filter((person) => person.workspaceId === space);
    let refused = 0;
    let answered = 0;
    for (const [index, rules] of GRANT_SETS.entries()) {
      const token = await server.tokenAs(`grants-${String(index)}`);
      const ability = abilityOf(rules, space);
      const label = JSON.stringify(rules);
      const text = (await everyAnswer(token)).join('\n');
      for (const person of people) {
        if (personFieldReadable(ability, person.id, 'email')) continue;
        refused += 1;
        expect(text.includes(person.email), `${label}: ${person.name}'s address reached the wire`).toBe(false);
      }
      // What the grant permits is answered: a readable issue's reporter, readable with their address, shows it.
      const issues = await server.graphql<{ issues: { id: string; reporterEmail: string | null }[] }>(
        '{ issues(first: 100) { id reporterEmail } }',
        { token },
      );
      for (const issue of issues.data?.issues ?? []) {
        const reporter = server.seeded.issues.find((candidate) => candidate.id === issue.id)?.reporterId ?? '';
        const readable = ability.can('read', subject('Person', personRow(reporter)));
        if (readable && personFieldReadable(ability, reporter, 'email')) {
          answered += 1;
          expect(issue.reporterEmail, label).toBe(server.seeded.people.find((person) => person.id === reporter)?.email);
        }
      }
    }
    // The generated grants exercised both sides.
    expect(refused).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(0);
  }, 240_000);

  it('a guest (addresses left out) gets FORBIDDEN for the hand-written field, no address in the REST summary, and isError from MCP', async () => {
    const token = await server.token('guest');
    const issue = server.seeded.issues.find(
      (candidate) => server.seeded.projects.find((project) => project.id === candidate.projectId)?.archived === false,
    );
    const graph = await server.graphql<{ issue: { reporterEmail: string | null } | null }>(
      `{ issue(id: "${issue?.id}") { title reporterEmail } }`,
      { token },
    );
    expect(graph.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'email' });
    const summary = (await (await server.fetch(`/v1/issues/${issue?.id}/summary`, { token })).json()) as Record<string, unknown>;
    expect(Object.keys(summary).sort()).toEqual(['reporterName', 'state', 'title']);
    const scalar = await server.fetch('/graphql', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ reporterEmailOf(issueId: "${issue?.id}") }` }),
    });
    expect(((await scalar.json()) as { errors: { extensions: unknown }[] }).errors[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'hand-written-test', version: '1' });
    await client.connect(transport);
    const tool = await client.callTool({ name: 'reporterEmailOf', arguments: { issueId: issue?.id } });
    await client.close();
    expect(tool).toMatchObject({ isError: true, structuredContent: { error: { code: 'FORBIDDEN', field: 'email' } } });
    // A member reads addresses: the same answers carry them.
    const member = await server.token('member');
    const memberSummary = (await (await server.fetch(`/v1/issues/${issue?.id}/summary`, { token: member })).json()) as Record<
      string,
      unknown
    >;
    expect(memberSummary.reporterEmail).toBe(server.seeded.people.find((person) => person.id === issue?.reporterId)?.email);
  });
});

describe('batched computed fields (docs/behaviour.md §2.1, §8)', () => {
  it('cost one statement for a level of issues, under a page of projects too', async () => {
    const token = await server.token('admin');
    const measured = async (query: string): Promise<number | undefined> => {
      const requestId = `batched-${Math.random().toString(36).slice(2)}`;
      const result = await server.graphql(query, { token, requestId });
      expect(result.errors).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return server.statementsOf(requestId);
    };
    expect(await measured('{ issues(first: 100) { title assigneeName } }')).toBe(2);
    expect(await measured('{ issues(first: 100) { title assigneeName reporter { name } } }')).toBe(3);
    // The unbatched field runs once for each issue, which is why one batches.
    const unbatched = await measured('{ issues(first: 100) { reporterEmail } }');
    expect(unbatched).toBe(
      1 +
        server.seeded.issues.filter((issue) =>
          server.seeded.people.some((person) => person.id === issue.reporterId && person.workspaceId === server.seeded.workspaces[0]?.id),
        ).length,
    );
  });
});

describe('subscription arguments (docs/behaviour.md §5.11)', () => {
  it("issueClosed(projectId) sends one project's closed issues, issueClosed every project's", async () => {
    const token = await server.token('admin');
    const space = server.seeded.workspaces[0]?.id;
    const [website, legacy] = server.seeded.projects.filter((project) => project.workspaceId === space);
    const open = (projectId: string | undefined): string | undefined =>
      server.seeded.issues.find((issue) => issue.projectId === projectId && issue.state === 'open')?.id;
    const client = createClient({
      url: `${server.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authToken: token },
      lazy: true,
      retryAttempts: 0,
    });
    const received: Record<string, string[]> = { one: [], every: [] };
    const listen = (name: 'one' | 'every', query: string): void => {
      client.subscribe(
        { query },
        {
          next: (value) => received[name]?.push((value.data as { issueClosed: { id: string } }).issueClosed.id),
          error: () => undefined,
          complete: () => undefined,
        },
      );
    };
    listen('one', `subscription { issueClosed(projectId: "${website?.id}") { id projectId } }`);
    listen('every', 'subscription { issueClosed { id } }');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const closing = [open(website?.id), open(legacy?.id)];
    for (const id of closing) {
      const closed = await server.graphql(`mutation { closeIssue(id: "${id}") { id state } }`, { token });
      expect(closed.errors).toBeUndefined();
    }
    const started = Date.now();
    while (received.every?.length !== 2 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.dispose();
    expect(received.every?.sort()).toEqual([...closing].sort());
    expect(received.one).toEqual([closing[0]]);
  });
});
