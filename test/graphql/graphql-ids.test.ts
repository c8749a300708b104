// Runs on: sqlite, postgresql
/**
 * One scalar per kind of value (docs/behaviour.md §2.1, docs/decisions.md §2): on the schema the
 * running server serves, every key — primary keys, belongs_to columns, the demo's columns and
 * hand-written arguments typed `ID` — is `ID`, and only the demo's `user(id: String!)` keeps
 * `String`; operations answer with `$id: ID!` variables. Real server process, real HTTP, on each
 * database of the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/** A type reference of the introspection answer. */
interface TypeRef {
  readonly kind: string;
  readonly name: string | null;
  readonly ofType: TypeRef | null;
}
interface Named {
  readonly name: string;
  readonly type: TypeRef;
}
interface IntrospectedType {
  readonly name: string;
  readonly kind: string;
  readonly fields: readonly (Named & { readonly args: readonly Named[] })[] | null;
  readonly inputFields: readonly Named[] | null;
}

const TYPE = 'type { kind name ofType { kind name ofType { kind name } } }';
const INTROSPECTION = `{ __schema { types { name kind fields { name ${TYPE} args { name ${TYPE} } } inputFields { name ${TYPE} } } } }`;

/** The named type under non-null and list wrappers. */
function named(type: TypeRef): string {
  return type.ofType ? named(type.ofType) : (type.name ?? '');
}

let server: TestServer;
let admin: string;
let types: readonly IntrospectedType[];

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.token('admin');
  const answer = await server.graphql<{ __schema: { types: IntrospectedType[] } }>(INTROSPECTION, { token: admin });
  expect(answer.errors).toBeUndefined();
  types = (answer.data?.__schema.types ?? []).filter((type) => !type.name.startsWith('__'));
});
afterAll(async () => server?.stop());

describe('GraphQL ids', () => {
  it("types every id-valued field, input field and argument ID, except the demo's user(id: String!)", () => {
    const ids: string[] = [];
    const notIds: string[] = [];
    for (const type of types) {
      const members = [
        ...(type.fields ?? []).flatMap((field) => [
          { at: `${type.name}.${field.name}`, ...field },
          ...field.args.map((arg) => ({ at: `${type.name}.${field.name}(${arg.name})`, ...arg })),
        ]),
        ...(type.inputFields ?? []).map((field) => ({ at: `${type.name}.${field.name}`, ...field })),
      ];
      for (const member of members) {
        if (member.name !== 'id' && !member.name.endsWith('Id')) continue;
        (named(member.type) === 'ID' ? ids : notIds).push(member.at);
      }
    }
    expect(notIds).toEqual(['Query.user(id)']);
    expect(ids).toEqual(
      expect.arrayContaining([
        'Query.post(id)',
        'Mutation.publishPost(id)',
        'Query.comment(id)',
        'Post.orgId',
        'Comment.orgId',
        'Comment.authorId',
        'Comment.postId',
        'AuditRecord.userId',
        'AuditRecord.subjectId',
        'CreateCommentInput.postId',
      ]),
    );
  });

  it("answers post and publishPost with $id: ID! variables, user with $id: String!, and a comment's keys as before", async () => {
    const posts = (await (await server.fetch('/v2/posts', { token: admin })).json()) as { id: string; status: string }[];
    const draft = posts.find((post) => post.status === 'draft');
    expect(draft).toBeDefined();
    const read = await server.graphql<{ post: { id: string } }>('query ($id: ID!) { post(id: $id) { id orgId } }', {
      token: admin,
      variables: { id: draft?.id },
    });
    expect(read.errors).toBeUndefined();
    expect(read.data?.post.id).toBe(draft?.id);
    const published = await server.graphql<{ publishPost: { status: string } }>('mutation ($id: ID!) { publishPost(id: $id) { status } }', {
      token: admin,
      variables: { id: draft?.id },
    });
    expect(published.errors).toBeUndefined();
    expect(published.data?.publishPost.status).toBe('published');
    const user = server.user('admin');
    const reading = await server.graphql<{ user: { id: string } }>('query ($id: String!) { user(id: $id) { id } }', {
      token: admin,
      variables: { id: user.id },
    });
    expect(reading.data?.user.id).toBe(user.id);
    // A String! variable where ID! is declared is a client the change breaks: refused before the operation runs.
    const stale = await server.graphql('mutation ($id: String!) { publishPost(id: $id) { id } }', {
      token: admin,
      variables: { id: draft?.id },
    });
    expect(stale.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // A comment's orgId and authorId, IDs now, hold the values they held (stored as before).
    const created = await server.graphql<{ createComment: { orgId: string; authorId: string } }>(
      'mutation ($postId: ID!) { createComment(input: { postId: $postId, body: "an id is an id" }) { orgId authorId } }',
      { token: admin, variables: { postId: posts[0]?.id } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data?.createComment).toEqual({ orgId: user.orgId, authorId: user.id });
  });
});
