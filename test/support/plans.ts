/**
 * Query plans of the has_many ranking (docs/decisions.md §6): the statement `User.posts` / `User.reviews`
 * send for a page of parents, and what SQLite's planner makes of it.
 */
import type { Database } from '../../generated/database.js';
import { SCOPE_SCHEMA } from '../../generated/entities.js';
import { PostRepository } from '../../generated/repositories/post.repository.js';
import { planStableText, SQLITE } from '../../runtime/dialects/sqlite.js';
import { pageWindow } from '../../runtime/data/keyset.js';
import { createLogger } from '../../runtime/server/logger.js';
import { type Sql, whereToSql } from '../../runtime/data/sql-scope.js';
import type { DialectSql } from '../../runtime/data/sql-text.js';

/**
 * The ranking statement of posts by `column` for `parents` (ten per parent), filtered by the read
 * scope of a member (their own posts and the published ones of their org), as the loader sends it
 * in the SQL `sql` writes (PostgreSQL's binds the parents as one array; default SQLite's, one
 * parameter a parent).
 */
export function rankingStatement(
  database: Database,
  column: 'authorId' | 'reviewerId',
  parents: readonly string[],
  member: { readonly id: string; readonly orgId: string },
  sql: DialectSql = SQLITE.sql,
): Sql {
  // Building the statement reads nothing: the runner is never called.
  const repository = new PostRepository(
    database,
    { sql, read: () => Promise.resolve([]), close: () => Promise.resolve() },
    createLogger({ level: 'silent' }),
  );
  const scope = {
    OR: [
      { orgId: member.orgId, authorId: member.id },
      { orgId: member.orgId, status: 'published' },
    ],
  };
  return repository.rankedPageStatement(column, parents, pageWindow({ first: 10 }), whereToSql(sql, scope, 't', 'Post', SCOPE_SCHEMA));
}

/** SQLite's plan of `statement` as the SQL runner runs it (with `+?` placeholders): the `detail` of each EXPLAIN QUERY PLAN step. */
export async function sqlitePlan(database: Database, statement: Sql): Promise<string[]> {
  const plan = await database.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${planStableText(statement)}`, ...statement.values);
  return plan.map((row) => row.detail);
}

/** The steps of a SQLite plan that read the ranked table `t` (a search through an index, or a scan). */
export function tableSteps(details: readonly string[]): string[] {
  return details.filter((detail) => /^(SEARCH|SCAN) t\b/.test(detail));
}

/** The one step a ranking by `column` should take: a search of the relation's own `(column, id)` index. */
export function ownIndexSearch(column: string): RegExp {
  return new RegExp(`^SEARCH t USING (COVERING )?INDEX Post_${column}_id_idx \\(${column}=\\?\\)$`);
}
