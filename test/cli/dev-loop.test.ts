// Runs on: sqlite, postgresql
/**
 * `npm run dev` after its first boot (docs/decisions.md §10): what a newcomer sees — a summary with
 * the addresses, no route lines — and the loop on a copy of the project: a change restarts the
 * server on the same port with the new code, a new entity's migration is applied to the dev
 * database, invalid declarations and a version that does not boot leave the running server
 * serving, and SIGTERM stops everything. On each database (see the first line) the migration runs
 * beside the running server.
 */
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, type RunningCli, startCli } from '../support/cli.js';
import { createPostgresDatabase, openDatabase, testProvider } from '../support/database.js';
import { ROOT } from '../support/project.js';

/** The name `generate` gives the migration creating `Bookmark` (docs/decisions.md §9). */
const NEXT_MIGRATION = `${String(readdirSync(path.join(ROOT, 'generated/prisma/sqlite/migrations')).filter((name) => /^\d{4}_/.test(name)).length + 1).padStart(4, '0')}_create_bookmark`;

/** A new entity with keys to Post and User. */
const BOOKMARK_ENTITY = `import { BelongsTo, Column, Entity, PrimaryKey } from 'resource-service';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/** A post a user keeps. */
@Entity()
export class Bookmark {
  /** Primary key, UUID v7. */
  @PrimaryKey()
  id!: string;

  /** The post kept. */
  @Column()
  postId!: string;

  /** Who wrote it. */
  @Column()
  authorId!: string;

  /** What it says. */
  @Column()
  body!: string;

  @BelongsTo(() => Post, { column: 'postId' })
  post?: Post;

  @BelongsTo(() => User, { column: 'authorId' })
  author?: User;
}
`;

/** The cycle lines (`regenerated: …`, `not regenerated…`) printed so far. */
function cycles(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^(regenerated|not regenerated)/.test(line));
}

describe('npm run dev, watching', () => {
  let project: string;
  let dev: RunningCli;
  let url: string;
  let databaseUrl: string;

  beforeAll(async () => {
    project = copyProject();
    // An empty database of the provider under test: dev migrates and seeds it.
    databaseUrl = testProvider() === 'postgresql' ? await createPostgresDatabase() : `file:${path.join(project, 'dev.db')}`;
    dev = startCli(['dev'], { cwd: project, env: { APP_DATABASE__URL: databaseUrl, APP_HTTP__PORT: '0' } });
    await dev.waitFor((stdout) => stdout.includes('\nwatching entities/'), 120_000);
    url = /\nserving (http:\S+)\n/.exec(dev.stdout())?.[1] ?? '';
  }, 150_000);

  afterAll(async () => {
    const code = await dev.stop();
    rmSync(project, { recursive: true, force: true });
    expect(code).toBe(0);
  });

  /** Waits for the `n`-th cycle line and returns it. */
  async function cycle(n: number): Promise<string> {
    await dev.waitFor((stdout) => cycles(stdout).length >= n, 90_000);
    return cycles(dev.stdout())[n - 1] ?? '';
  }

  /** A GraphQL request to the running server. */
  async function graphql(query: string): Promise<{ data?: Record<string, unknown>; errors?: unknown[] }> {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  }

  it('prints a short summary: the addresses, tokens and examples, no route lines and no info logs', async () => {
    const output = dev.stdout();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ws = url.replace(/^http/, 'ws');
    const entrypoints: [string, string][] = [
      ['docs', `${url}/api`],
      ['openapi', `${url}/api-json`],
      ['openapiYaml', `${url}/api-yaml`],
      ['graphql', `${url}/graphql`],
      ['playground', `${url}/graphql`],
      ['subscriptions', `${ws}/graphql`],
      ['health', `${url}/health`],
      ['mcp', `${url}/mcp`],
    ];
    for (const [name, address] of entrypoints) {
      expect(output).toMatch(new RegExp(`\\n {2}${name} +${address.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} +\\S`));
    }
    expect(output).toContain('export TOKEN_MEMBER=');
    expect(output).toContain('\ntry:\n');
    expect(output).not.toMatch(/mounted|"level":30|"level":20/);
    // From the command to the watching line, a screen's worth: no line per route.
    expect(output.split('\n').length).toBeLessThan(40);
    // The landing answer lists the same, and the playground is on in dev.
    expect(await (await fetch(`${url}/`)).json()).toMatchObject({
      docs: '/api',
      graphql: '/graphql',
      playground: '/graphql',
      health: '/health',
      mcp: '/mcp',
    });
    expect((await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } })).status).toBe(200);
  });

  it('restarts on the same port with the new code after a change', async () => {
    const resolver = path.join(project, 'entities/post.resolver.ts');
    writeFileSync(resolver, readFileSync(resolver, 'utf8').replace('One post by id;', 'One post, found by its id;'));
    expect(await cycle(1)).toMatch(/^regenerated: 3 files, restarted in \d+ ms$/);
    const described = await graphql('{ __schema { queryType { fields { name description } } } }');
    const fields = (described.data?.__schema as { queryType: { fields: { name: string; description: string | null }[] } }).queryType.fields;
    expect(fields.find((field) => field.name === 'post')?.description).toContain('One post, found by its id;');
  }, 120_000);

  it('applies the migration of a new entity to the dev database and serves its type', async () => {
    writeFileSync(path.join(project, 'entities/bookmark.entity.ts'), BOOKMARK_ENTITY);
    expect(await cycle(2)).toMatch(new RegExp(`^regenerated: \\d+ files, migration ${NEXT_MIGRATION} applied, restarted in \\d+ ms$`));
    const type = await graphql('{ __type(name: "Bookmark") { fields { name } } }');
    expect((type.data?.__type as { fields: { name: string }[] } | null)?.fields.map((field) => field.name)).toEqual([
      'id',
      'postId',
      'authorId',
      'body',
    ]);
    const database = await openDatabase(databaseUrl);
    try {
      // The table exists (an empty one), and the migration is recorded as applied.
      expect(await database.$queryRawUnsafe('SELECT "id" FROM "Bookmark"')).toEqual([]);
      expect(
        await database.$queryRawUnsafe(
          'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name DESC LIMIT 1',
        ),
      ).toEqual([{ migration_name: NEXT_MIGRATION }]);
    } finally {
      await database.$disconnect();
    }
  }, 120_000);

  it('keeps the running server on invalid declarations, printing the diagnostics, then restarts once fixed', async () => {
    const resolver = path.join(project, 'entities/notification.resolver.ts');
    const original = readFileSync(resolver, 'utf8');
    writeFileSync(resolver, original.replace("  @Authorized('read', Notification)\n", ''));
    expect(await cycle(3)).toBe('not regenerated; the server keeps running the previous version');
    expect(dev.stderr()).toContain('entities/notification.resolver.ts:14:3 error operation-posture-missing');
    expect((await fetch(`${url}/health`)).status).toBe(200);
    writeFileSync(resolver, original);
    expect(await cycle(4)).toMatch(/^regenerated: 0 files, restarted in \d+ ms$/);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  }, 120_000);

  it('keeps the running server when the new version does not boot', async () => {
    const service = path.join(project, 'entities/notification.service.ts');
    const original = readFileSync(service, 'utf8');
    appendFileSync(service, "\nthrow new Error('boom while loading notification.service.ts');\n");
    expect(await cycle(5)).toBe(
      'regenerated: 0 files, not restarted: the new server exited (code 1) before it was ready; the server keeps running the previous version',
    );
    expect(dev.stderr()).toContain('boom while loading notification.service.ts');
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(((await graphql('{ __type(name: "Bookmark") { name } }')).data?.__type as { name: string } | null)?.name).toBe('Bookmark');
    writeFileSync(service, original);
    expect(await cycle(6)).toMatch(/^regenerated: 0 files, restarted in \d+ ms$/);
  }, 120_000);
});
