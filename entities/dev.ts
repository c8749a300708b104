/**
 * The demo's development hooks (runtime/declarations/dev-hooks.ts): the sizes and rows `npm run seed` writes,
 * and the token per role and curl lines `npm run dev` prints. The CLI calls these; it knows no
 * table, role or route of its own.
 */
import type { Database } from '../generated/database.js';
import { defineDevHooks, type DevPrincipal } from 'resource-service';
import { ROLES, type SeededUser, type SeedResult, seed } from './seed.js';

/** One principal per role, from the seeded users (the first of each role: the first org's). */
function principalsOf(users: readonly Pick<SeededUser, 'id' | 'orgId' | 'name' | 'role'>[]): DevPrincipal[] {
  return ROLES.flatMap((role) => {
    const user = users.find((candidate) => candidate.role === role);
    return user ? [{ name: user.name, sub: user.id, org_id: user.orgId, role }] : [];
  });
}

/** The users of each role in the first org of a database seeded earlier: roles are token claims, so they are told by the seed's addresses (`admin@…`). */
async function seededUsers(database: Database): Promise<Pick<SeededUser, 'id' | 'orgId' | 'name' | 'role'>[]> {
  const first = await database.user.findFirst({ select: { orgId: true }, orderBy: { id: 'asc' } });
  if (!first) return [];
  const users = await database.user.findMany({
    where: { orgId: first.orgId },
    select: { id: true, orgId: true, name: true, email: true },
    orderBy: { id: 'asc' },
  });
  return users.flatMap((user) => {
    const role = ROLES.find((candidate) => user.email.startsWith(`${candidate}@`));
    return role ? [{ id: user.id, orgId: user.orgId, name: user.name, role }] : [];
  });
}

/** The demo's hooks: orgs, users of every role and posts in both states; a token per role; a REST and a GraphQL example. */
export default defineDevHooks({
  sizes: {
    orgs: { description: 'orgs', default: 2 },
    users: { description: 'users per org (an admin, a member, a viewer, then members)', default: 3 },
    posts: { description: 'posts per user (alternately published and draft)', default: 2 },
  },
  seed: (database: Database, { sizes, onProgress }): Promise<SeedResult> => seed(database, { ...sizes, onProgress }),
  principals: async (database: Database, seeded: SeedResult | undefined) => principalsOf(seeded?.users ?? (await seededUsers(database))),
  examples: ({ url, tokens }) => {
    const member = tokens.find((entry) => entry.role === 'member') ?? tokens[0];
    if (!member) return [];
    return [
      `curl -s "${url}/v2/posts?first=5" -H "Authorization: Bearer $${member.variable}"`,
      `curl -s ${url}/graphql -H 'Content-Type: application/json' -H "Authorization: Bearer $${member.variable}" -d '{"query":"{ users(first: 5) { id name email } }"}'`,
    ];
  },
});
