// Runs on: postgresql
/**
 * `migrate` connects to `APP_DATABASE__DIRECT_URL` when it is set (generator/commands/migrate.ts;
 * docs/guide/deployment.md "A connection pooler"): the schema engine needs a session of its own,
 * which a transaction-mode pooler at `APP_DATABASE__URL` would not keep. Here `APP_DATABASE__URL`
 * names a port nothing listens on, so a command that used it could not connect at all.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { createPostgresDatabase } from '../support/database.js';
import { freePort } from '../support/postgres.js';
import { ROOT } from '../support/project.js';

const MIGRATIONS = readdirSync(path.join(ROOT, 'generated/prisma/postgresql/migrations'))
  .filter((name) => /^\d{4}_/.test(name))
  .sort();

describe('migrate beside a pooler', () => {
  it('deploys and reports through APP_DATABASE__DIRECT_URL, never APP_DATABASE__URL', async () => {
    const direct = await createPostgresDatabase();
    const nowhere = new URL(direct);
    nowhere.port = String(await freePort());
    const env = { APP_DATABASE__URL: nowhere.toString(), APP_DATABASE__DIRECT_URL: direct };

    const deployed = cli(['migrate', 'deploy'], { env });
    expect(deployed.stderr).toBe('');
    expect(deployed.status).toBe(0);
    const status = cli(['migrate', 'status'], { env });
    expect(status.status).toBe(0);
    expect(status.stdout).toBe(`${MIGRATIONS.map((name) => `applied  ${name}\n`).join('')}0 pending\n`);

    // The same command on APP_DATABASE__URL alone reaches nothing.
    expect(cli(['migrate', 'status'], { env: { APP_DATABASE__URL: nowhere.toString() } }).status).not.toBe(0);
  }, 180_000);
});
