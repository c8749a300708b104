/**
 * The benchmark's requests by hash (`--persisted`, BENCHMARKS.md "Trusted documents"): the demo
 * lists the documents of ./scenarios.ts under `entities/documents/`, so the persisted-document
 * manifest holds them (docs/behaviour.md §4.10).
 */
import { createHash } from 'node:crypto';
import { parse, print } from 'graphql';
import { DOCUMENTS, graphqlBody } from './scenarios.js';

/** The persisted-document id of a document: `sha256:` and the SHA-256 of its printed text, as the manifest keys it. */
function documentIdOf(query: string): string {
  return `sha256:${createHash('sha256')
    .update(print(parse(query)))
    .digest('hex')}`;
}

/** A GraphQL request body naming the persisted document of `query` instead of sending it (`--persisted`). */
export function persistedBody(query: string, variables?: Record<string, unknown>): string {
  return JSON.stringify(variables ? { documentId: documentIdOf(query), variables } : { documentId: documentIdOf(query) });
}

/**
 * The body `body` stands for: a persisted-document body as the query-text body it replaces, any
 * other unchanged; requests that stand for the same are checked to answer the same.
 */
export function textBody(body: string): string {
  const parsed = JSON.parse(body) as { documentId?: string; variables?: Record<string, unknown> };
  if (parsed.documentId === undefined) return body;
  const query = Object.values(DOCUMENTS).find((text) => documentIdOf(text) === parsed.documentId);
  return query === undefined ? body : graphqlBody(query, parsed.variables);
}
