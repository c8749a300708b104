/**
 * Demo data for the `seed` command (through the hooks in `dev.ts`): orgs, users of every role,
 * posts in both states. Roles are token claims, not columns, so the seed reports which user plays
 * which role; `dev` mints tokens for them.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../generated/database.js';

/** Sizes of a seed. */
export interface SeedOptions {
  /** Number of orgs (default 2). */
  readonly orgs: number;
  /** Users per org (default 3: one admin, one member, one viewer, then members). */
  readonly users: number;
  /** Posts per user (default 2: alternately published and draft). */
  readonly posts: number;
  /** Called after each batch with the rows written so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A seeded user and the role the demo gives them. */
export interface SeededUser {
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
  readonly email: string;
  readonly role: 'admin' | 'member' | 'viewer';
}

/** What a seed created. */
export interface SeedResult {
  readonly orgs: readonly { readonly id: string; readonly name: string }[];
  readonly users: readonly SeededUser[];
  readonly posts: readonly { readonly id: string; readonly authorId: string; readonly status: 'draft' | 'published' }[];
}

const ORG_NAMES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vehement', 'Massive Dynamic', 'Soylent', 'Stark', 'Wayne'];
/** The demo's roles (docs/decisions.md §3), in the order each org's first users get them. */
export const ROLES = ['admin', 'member', 'viewer'] as const;
const BATCH = 500;

/** Writes the demo data; ids are UUID v7, created in id order. Unscoped: run it as a job. */
export async function seed(database: Database, options: SeedOptions): Promise<SeedResult> {
  const orgs = Array.from({ length: options.orgs }, (_, index) => ({
    id: uuidv7(),
    name: `${ORG_NAMES[index % ORG_NAMES.length] ?? 'Org'}${index >= ORG_NAMES.length ? ` ${Math.floor(index / ORG_NAMES.length) + 1}` : ''}`,
  }));
  const users: SeededUser[] = [];
  for (const org of orgs) {
    const domain = org.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    for (let index = 0; index < options.users; index++) {
      const role = ROLES[index] ?? 'member';
      const name = index < ROLES.length ? `${role[0]?.toUpperCase()}${role.slice(1)} of ${org.name}` : `Member ${index + 1} of ${org.name}`;
      users.push({
        id: uuidv7(),
        orgId: org.id,
        name,
        email: `${index < ROLES.length ? role : `member${index + 1}`}@${domain}.example`,
        role,
      });
    }
  }
  const posts: {
    id: string;
    orgId: string;
    authorId: string;
    title: string;
    body: string;
    status: 'draft' | 'published';
    publishedAt: Date | null;
  }[] = [];
  for (const user of users) {
    for (let index = 0; index < options.posts; index++) {
      const status = index % 2 === 0 ? 'published' : 'draft';
      posts.push({
        id: uuidv7(),
        orgId: user.orgId,
        authorId: user.id,
        title: `${status === 'published' ? 'Notes' : 'Draft'} ${index + 1} by ${user.name}`,
        body: 'Seeded by the demo.',
        status,
        publishedAt: status === 'published' ? new Date() : null,
      });
    }
  }
  const total = orgs.length + users.length + posts.length;
  let done = 0;
  const write = async <T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> => {
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await insert(batch);
      done += batch.length;
      options.onProgress?.(done, total);
    }
  };
  await write(orgs, (batch) => database.org.createMany({ data: batch }));
  await write(users, (batch) => database.user.createMany({ data: batch.map(({ role: _role, ...user }) => user) }));
  await write(posts, (batch) => database.post.createMany({ data: batch }));
  return {
    orgs,
    users,
    posts: posts.map((post) => ({ id: post.id, authorId: post.authorId, status: post.status })),
  };
}
