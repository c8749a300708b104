/**
 * The requests the benchmark sends (BENCHMARKS.md), shared by the load generator and by the floor,
 * which recognises its GraphQL documents by their exact text (so this module imports nothing: the
 * floor's memory is its own). The demo lists the same documents under `entities/documents/`, so the
 * persisted-document manifest holds them (bench/persisted.ts sends them by hash).
 */

/** GraphQL documents, byte for byte. */
export const DOCUMENTS = {
  /** The nested query: a users page, each user's org (belongs_to) and first 10 posts (has_many). */
  nested:
    'query Nested { users(first: 20) { id name org { id name } posts(first: 10) { edges { cursor node { id title } } pageInfo { hasNextPage endCursor } } } }',
  /** The same at 100 parents (statement counts only). */
  nested100:
    'query Nested100 { users(first: 100) { id name org { id name } posts(first: 10) { edges { cursor node { id title } } pageInfo { hasNextPage endCursor } } } }',
  /** A flat list, twin of `GET /users?first=20`. */
  users: 'query Users { users(first: 20) { id name } }',
  /** A point lookup. */
  user: 'query User($id: String!) { user(id: $id) { id name email } }',
  /** The write of the write mix. */
  createUser: 'mutation CreateUser($input: CreateUser) { createUser(input: $input) { id name email } }',
} as const;

/** A JSON GraphQL request body. */
export function graphqlBody(query: string, variables?: Record<string, unknown>): string {
  return JSON.stringify(variables ? { query, variables } : { query });
}
