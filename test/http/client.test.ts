/**
 * The typed clients of generated/client/ (docs/behaviour.md §11), used the way a caller uses them:
 * a caller file (test/fixtures/client-caller/caller.ts) compiles with tsc under its own strict
 * settings; every call it marks `@ts-expect-error` is a type error on exactly that line once the
 * directives are gone, so the clients' types are not `any`; and the caller runs against the
 * generated server on loopback with a development token — a REST list, a by-id get answering 404,
 * a create, and GraphQL queries through typed document nodes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphQLClient, usersQuery } from '../../generated/client/graphql.js';
import { ROOT } from '../support/project.js';
import { startTestServer, type TestServer } from '../support/server.js';

const CALLER_DIR = path.join(ROOT, 'test/fixtures/client-caller');
const DIRECTIVE = /\/\/ @ts-expect-error\b.*$/;

/** Runs the repository's tsc on a tsconfig; answers its exit status and what it printed. */
function tsc(project: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--pretty', 'false'], {
    cwd: CALLER_DIR,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('the typed clients, compiled by a caller', () => {
  it('compile with a caller of the REST and GraphQL clients (tsc, strict, exactOptionalPropertyTypes)', () => {
    expect(tsc(path.join(CALLER_DIR, 'tsconfig.json'))).toEqual({ status: 0, output: '' });
  }, 120_000);

  it('refuse every call the caller marks @ts-expect-error, each on the line after its directive', () => {
    const source = readFileSync(path.join(CALLER_DIR, 'caller.ts'), 'utf8').split('\n');
    const expected = source.flatMap((line, index) => (DIRECTIVE.test(line) ? [index + 2] : []));
    expect(expected.length).toBeGreaterThanOrEqual(8);
    // The same caller without its directives: what each one silenced must now be reported.
    const unchecked = path.join(CALLER_DIR, 'unchecked.ts');
    const project = path.join(CALLER_DIR, 'tsconfig.unchecked.json');
    try {
      writeFileSync(unchecked, source.map((line) => line.replace(DIRECTIVE, '//')).join('\n'));
      writeFileSync(project, JSON.stringify({ extends: './tsconfig.json', files: ['unchecked.ts'] }));
      const { status, output } = tsc(project);
      expect(status).not.toBe(0);
      const reported = [...output.matchAll(/^unchecked\.ts\((\d+),\d+\): error TS\d+/gm)].map((match) => Number(match[1]));
      expect([...new Set(reported)]).toEqual(expected);
      expect(output).toContain(
        `Argument of type '"/v2/no-such-route"' is not assignable to parameter of type 'PathsWithMethod<paths, "get">'`,
      );
      expect(output).toContain(`Type '"nope"' is not assignable to type 'keyof Post'`);
      expect(output).toContain(`Property 'title' does not exist on type 'Pick<Post, "id">'`);
    } finally {
      rmSync(unchecked, { force: true });
      rmSync(project, { force: true });
    }
  }, 120_000);
});

describe('the typed clients, run by a caller against the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists, gets a missing post (404 problem), creates, and queries over GraphQL through typed documents', async () => {
    const { run } = await import('../fixtures/client-caller/caller.js');
    const member = server.user('member');
    const result = await run(server.url, await server.token('member'), uuidv7());

    expect(result.list.status).toBe(200);
    expect(result.list.posts).toHaveLength(1);
    expect(result.list.nextCursor).toBe(result.list.posts[0]?.id);

    expect(result.missing.status).toBe(404);
    expect(result.missing.problem).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    expect(result.created.status).toBe(201);
    expect(result.created.post).toMatchObject({
      title: 'Written through the typed client',
      status: 'draft',
      authorId: member.id,
      orgId: member.orgId,
    });

    // GraphQL sees what REST sees: the listed post, and the new draft (a member reads their own drafts).
    const ids = result.graphql.posts.map((post) => post.id);
    expect(ids).toContain(result.list.posts[0]?.id);
    expect(ids).toContain(result.created.post?.id);
    for (const post of result.graphql.posts) expect(Object.keys(post).sort()).toEqual(['id', 'status', 'title']);
    expect(result.graphql.created).toEqual({ id: result.created.post?.id, title: 'Written through the typed client' });
  });

  it('select only what a grant allows: a viewer reads users without email, and is refused it when selected', async () => {
    const graphql = createGraphQLClient(`${server.url}/graphql`, { token: await server.token('viewer') });
    const named = await graphql.request(usersQuery(['id', 'name']), { first: 5 });
    expect(named.errors).toBeUndefined();
    expect(named.data?.users.length).toBeGreaterThan(0);
    const everything = await graphql.request(usersQuery());
    expect(everything.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'email' });
  });

  it('answer a refused token as a GraphQL error, and a body that is no GraphQL response by throwing', async () => {
    const anonymous = createGraphQLClient(`${server.url}/graphql`, { token: 'not-a-token' });
    const refused = await anonymous.request(usersQuery(['id']));
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await expect(createGraphQLClient(`${server.url}/v2/posts`).request(usersQuery(['id']))).rejects.toThrow(
      /answered \d+ with no GraphQL response/,
    );
  });
});
