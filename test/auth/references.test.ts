// Runs on: sqlite, postgresql
/**
 * A reference is a read (docs/hostile-input.md §11): a key a caller writes — here a comment's
 * `postId`, over REST and GraphQL — must name a row the caller's ability may read, or the write is
 * refused exactly as for a row that does not exist (404 / `NOT_FOUND`, `Post <id> was not found`),
 * so another org's posts, drafts included, can be neither linked to nor probed. Generated
 * principals × generated references (any org's published posts and drafts, and made-up ids), on
 * each database; at the end not one comment links across orgs.
 */
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../support/database.js';
import { PROPERTY_SEED } from '../support/properties.js';
import { type Role, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: { orgs: 3, users: 3, posts: 2 } });
});

afterAll(async () => {
  await server.stop();
});

/** A seeded post with its org. */
interface KnownPost {
  readonly id: string;
  readonly orgId: string;
  readonly authorId: string;
  readonly status: 'draft' | 'published';
}

/** Whether `role` of org `orgIndex` may read `post` (the demo's grants, docs/decisions.md §3). */
function readable(role: Role, orgIndex: number, post: KnownPost): boolean {
  const user = server.user(role, orgIndex);
  if (post.orgId !== user.orgId) return false;
  return role === 'admin' || post.status === 'published' || post.authorId === user.id;
}

describe('references are reads (docs/hostile-input.md §11)', () => {
  it('links a comment only to a post its writer may read; any other id, however it exists, is not found alike (generated)', async () => {
    const orgOf = new Map(server.seeded.users.map((user) => [user.id, user.orgId]));
    const posts: KnownPost[] = server.seeded.posts.map((post) => ({ ...post, orgId: orgOf.get(post.authorId) ?? '' }));
    const target = fc.oneof(fc.constantFrom(...posts), fc.constant(undefined));
    let written = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Role>('admin', 'member', 'viewer'),
        fc.integer({ min: 0, max: 2 }),
        target,
        fc.boolean(),
        async (role, orgIndex, post, overGraphQL) => {
          const postId = post?.id ?? uuidv7();
          const token = await server.token(role, orgIndex);
          const allowed = role !== 'viewer';
          const expected = allowed && post !== undefined && readable(role, orgIndex, post);
          if (overGraphQL) {
            const answer = await server.graphql<{ createComment: { postId: string } | null }>(
              'mutation ($postId: ID!) { createComment(input: { postId: $postId, body: "hi" }) { postId } }',
              { token, variables: { postId } },
            );
            if (expected) {
              expect(answer.errors).toBeUndefined();
              expect(answer.data?.createComment?.postId).toBe(postId);
            } else {
              expect(answer.errors?.[0]?.extensions?.code).toBe(allowed ? 'NOT_FOUND' : 'FORBIDDEN');
              if (allowed) expect(answer.errors?.[0]?.message).toBe(`Post ${postId} was not found`);
            }
          } else {
            const response = await server.fetch('/v2/comments', {
              method: 'POST',
              token,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ postId, body: 'hi' }),
            });
            const body = (await response.json()) as { postId?: string; code?: string; detail?: string };
            if (expected) {
              expect(response.status).toBe(201);
              expect(body.postId).toBe(postId);
            } else {
              expect(response.status).toBe(allowed ? 404 : 403);
              if (allowed) expect(body).toMatchObject({ code: 'NOT_FOUND', detail: `Post ${postId} was not found` });
            }
          }
          if (expected) written += 1;
        },
      ),
      { numRuns: 120, seed: PROPERTY_SEED },
    );
    // Not one comment links across orgs, and every one the property expected is there.
    const database = await openDatabase(server.databaseUrl);
    try {
      const comments = await database.comment.findMany({ include: { post: true } });
      expect(comments.filter((comment) => comment.orgId !== comment.post.orgId)).toEqual([]);
      expect(comments.length).toBe(written);
      expect(written).toBeGreaterThan(0);
    } finally {
      await database.$disconnect();
    }
  }, 120_000);
});
