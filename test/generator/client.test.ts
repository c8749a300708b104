/**
 * The client emitters over documents the demo does not have (docs/behaviour.md §11): the GraphQL
 * client of a schema shaped like a generated resource (list, get, create, update, delete, with
 * enums, nested inputs, defaults, a deprecated field and a root field with nothing to select) —
 * every document it builds valid against that schema, its types checked by tsc — and the REST
 * client of a version token that is no identifier; and the cache openapi-typescript's output is
 * kept in.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, type DocumentNode, print, validate } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { diskCache } from '../../generator/cache.js';
import { emitGraphQLClient } from '../../generator/emit/client/graphql.js';
import { emitRestClients } from '../../generator/emit/client/rest.js';
import { ROOT, scratchDir } from '../support/project.js';

const LAYOUT = { outputDir: 'generated' };

const SDL = `
"""A comment on a post."""
type Comment {
  id: ID!
  body: String!
  postId: ID!
  score: Int
  rating: Float
  tags: [String!]
  state: CommentState!
  postedAt: DateTime!
  author: User
  excerpt(length: Int!): String!
}

type User {
  id: ID!
}

scalar DateTime

enum CommentState {
  visible
  hidden
}

input CreateComment {
  body: String!
  postId: ID!
  state: CommentState
  tags: [String!]
  filter: CommentFilter
}

input CommentFilter {
  state: CommentState
}

input UpdateComment {
  body: String
}

type CommentEdge {
  node: Comment!
}

type CommentConnection {
  edges: [CommentEdge!]!
}

type Query {
  comments(first: Int, after: String, state: CommentState = visible): [Comment!]!
  comment(id: ID!): Comment
  commentCount: Int!
  connection: CommentConnection!
  oldComments: [Comment] @deprecated(reason: "Use comments.")
}

type Mutation {
  createComment(input: CreateComment!): Comment
  updateComment(id: ID!, input: UpdateComment!): Comment
  deleteComment(id: ID!): Boolean!
}
`;

/** A caller of the emitted module: what must compile, and what must not. */
const CALLER = `
import { commentsQuery, commentCountQuery, createCommentMutation, deleteCommentMutation, type CommentsQuery, updateCommentMutation } from './client/graphql.js';
import type { ResultOf, VariablesOf } from '@graphql-typed-document-node/core';

const listed: ResultOf<ReturnType<typeof commentsQuery<'id' | 'state'>>> = { comments: [{ id: 'a', state: 'hidden' }] };
const all: CommentsQuery = { comments: [{ id: 'a', body: 'b', postId: 'p', score: null, rating: 1.5, tags: ['x'], state: 'visible', postedAt: '2000-01-31T09:30:00.000Z' }] };
const counted: ResultOf<ReturnType<typeof commentCountQuery>> = { commentCount: 3 };
const created: VariablesOf<ReturnType<typeof createCommentMutation>> = { input: { body: 'b', postId: 'p', filter: { state: 'visible' } } };
const updated: VariablesOf<ReturnType<typeof updateCommentMutation>> = { id: 'c', input: {} };
const deleted: ResultOf<ReturnType<typeof deleteCommentMutation>> = { deleteComment: true };
// @ts-expect-error -- state is 'visible' or 'hidden'
const wrongState: CommentsQuery<'state'> = { comments: [{ state: 'gone' }] };
// @ts-expect-error -- the input is required
const noInput: VariablesOf<ReturnType<typeof createCommentMutation>> = {};
// @ts-expect-error -- author is a relation, not selectable
commentsQuery(['author']);
// @ts-expect-error -- excerpt takes an argument, not selectable
commentsQuery(['excerpt']);
export { listed, all, counted, created, updated, deleted, wrongState, noInput };
`;

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A folder under the repository's ignored `.scratch/` (packages resolve from there; tsc -p . never looks). */
function scratchInRepository(): string {
  mkdirSync(path.join(ROOT, '.scratch'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, '.scratch', 'client-'));
  scratch.push(dir);
  return dir;
}

describe('the GraphQL client of a schema with a resource', () => {
  const file = emitGraphQLClient(LAYOUT, SDL);
  const content = file?.content ?? '';

  it('has a document factory per root field with something to select, named after the field and its kind', () => {
    expect(file?.path).toBe('client/graphql.ts');
    expect([...content.matchAll(/^export function (\w+)/gm)].map((match) => match[1])).toEqual([
      'commentsQuery',
      'commentQuery',
      'commentCountQuery',
      'oldCommentsQuery',
      'createCommentMutation',
      'updateCommentMutation',
      'deleteCommentMutation',
      'createGraphQLClient',
    ]);
    expect(content).toContain(
      '/** The variables of `comments`. */\nexport interface CommentsQueryVariables {\n  first?: number | null;\n  after?: string | null;\n  state?: CommentState | null;\n}',
    );
    expect(content).toContain("export type CommentState = 'visible' | 'hidden';");
    expect(content).toContain('  oldComments: (Pick<Comment, F> | null)[] | null;');
    expect(content).toContain('@deprecated Use comments.');
  });

  it('builds documents valid against the schema, selecting the named fields or every leaf field', async () => {
    const dir = scratchInRepository();
    mkdirSync(path.join(dir, 'client'));
    writeFileSync(path.join(dir, 'client/graphql.ts'), content);
    const module = (await import(path.join(dir, 'client/graphql.ts'))) as Record<string, (fields?: readonly string[]) => DocumentNode>;
    const schema = buildSchema(SDL);
    const factories = Object.entries(module).filter(([name]) => /(Query|Mutation)$/.test(name));
    expect(factories).toHaveLength(7);
    for (const [name, factory] of factories) expect(validate(schema, factory()).map((error) => `${name}: ${error.message}`)).toEqual([]);
    expect(print(module.commentsQuery!(['id', 'body', 'id']))).toBe(
      'query Comments($first: Int, $after: String, $state: CommentState) {\n  comments(first: $first, after: $after, state: $state) {\n    id\n    body\n  }\n}',
    );
    expect(print(module.commentQuery!())).toContain(
      'comment(id: $id) {\n    id\n    body\n    postId\n    score\n    rating\n    tags\n    state\n    postedAt\n  }',
    );
    expect(print(module.deleteCommentMutation!())).toBe('mutation DeleteComment($id: ID!) {\n  deleteComment(id: $id)\n}');
    expect(() => module.commentsQuery!([])).toThrow('select at least one field');
    expect(() => module.commentsQuery!(['id } mutation { x'])).toThrow('is no field name');
  });

  it('types what each document takes and answers (tsc, strict)', () => {
    const dir = scratchInRepository();
    mkdirSync(path.join(dir, 'client'));
    writeFileSync(path.join(dir, 'client/graphql.ts'), content);
    writeFileSync(path.join(dir, 'caller.ts'), CALLER);
    const options = [
      '--noEmit',
      '--strict',
      '--exactOptionalPropertyTypes',
      '--noUncheckedIndexedAccess',
      '--target',
      'es2022',
      '--lib',
      'es2023',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--types',
      'node',
      '--skipLibCheck',
      '--pretty',
      'false',
    ];
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), ...options, path.join(dir, 'caller.ts')],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});

describe('the REST client of a version', () => {
  const document = (paths: Record<string, unknown>): string =>
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Comments', version: '2024-06' },
      paths,
      components: {
        schemas: { Comment: { type: 'object', properties: { id: { type: 'string' }, body: { type: 'string' } }, required: ['id'] } },
      },
    });
  const comments = {
    '/v2024-06/comments': {
      get: {
        operationId: 'CommentsController_list',
        responses: {
          '200': {
            description: 'Success.',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Comment' } } } },
          },
        },
      },
    },
  };

  it('is named after a version token that is no identifier, and holds its paths', async () => {
    const files = await emitRestClients(LAYOUT, ['2024-06'], new Map([['openapi/v2024-06.json', document(comments)]]));
    expect(files.map((file) => file.path)).toEqual(['client/v2024-06.ts']);
    const content = files[0]?.content ?? '';
    expect(content).toContain("import createClient, { type Client, type ClientOptions, mergeHeaders } from 'openapi-fetch';");
    expect(content).toContain('export function createV2024_06Client(baseUrl: string, options: RestClientOptions = {}): V2024_06Client {');
    expect(content).toContain('"/v2024-06/comments": {');
  }, 60_000);

  it('is one client of the API without versions, and none for a document without paths', async () => {
    expect((await emitRestClients(LAYOUT, [], new Map([['openapi/openapi.json', document(comments)]]))).map((file) => file.path)).toEqual([
      'client/rest.ts',
    ]);
    expect(await emitRestClients(LAYOUT, [], new Map([['openapi/openapi.json', document({})]]))).toEqual([]);
  }, 60_000);

  it('reuses cached types for an unchanged document, and the output is the same either way', async () => {
    const dir = scratchDir('client-cache-');
    scratch.push(dir);
    const emitted = new Map([['openapi/v2.json', document(comments)]]);
    const uncached = await emitRestClients(LAYOUT, ['2'], emitted);
    const first = await emitRestClients(LAYOUT, ['2'], emitted, diskCache(dir));
    expect(readdirSync(dir)).toHaveLength(1);
    const second = await emitRestClients(LAYOUT, ['2'], emitted, diskCache(dir));
    expect(first).toEqual(uncached);
    expect(second).toEqual(uncached);
  }, 60_000);
});

describe('the generator cache', () => {
  it('answers what was stored, and a damaged or missing entry as a miss', () => {
    const dir = scratchDir('generator-cache-');
    scratch.push(dir);
    const cache = diskCache(dir);
    expect(cache.get('absent')).toBeUndefined();
    cache.set('key', 'export interface paths {}\n');
    expect(cache.get('key')).toBe('export interface paths {}\n');
    writeFileSync(path.join(dir, 'key'), 'not-the-digest\nexport interface paths {}\n');
    expect(cache.get('key')).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['key']);
  });
});
