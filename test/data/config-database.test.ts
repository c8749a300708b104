/**
 * The database settings (docs/guide/configuration.md; docs/guide/deployment.md "A connection
 * pooler"): `APP_DATABASE__DIRECT_URL` defaults to `APP_DATABASE__URL`, is validated like it, must
 * name the same kind of database, and is refused beside SQLite (a file has no pooler in front of
 * it) — at boot, naming the variable, without showing a password.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../runtime/server/config.js';
import { ROOT } from '../support/project.js';

/** The problems `env` gives, as `VARIABLE: message` lines. */
function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => `${problem.variable}: ${problem.message}`);
  }
}

const POSTGRES = 'postgres://app:secret@db.internal:5432/app';
const POOLER = 'postgres://app:secret@pooler.internal:6432/app';

describe('APP_DATABASE__DIRECT_URL', () => {
  it('defaults to APP_DATABASE__URL, on SQLite as on PostgreSQL', () => {
    expect(loadConfig({}).config.database).toEqual({ url: 'file:./data/app.db', directUrl: 'file:./data/app.db' });
    expect(loadConfig({ APP_DATABASE__URL: POOLER }).config.database).toEqual({ url: POOLER, directUrl: POOLER });
  });

  it('takes PostgreSQL reached directly beside a pooler', () => {
    expect(loadConfig({ APP_DATABASE__URL: POOLER, APP_DATABASE__DIRECT_URL: POSTGRES }).config.database).toEqual({
      url: POOLER,
      directUrl: POSTGRES,
    });
  });

  it('refuses an unsupported URL like APP_DATABASE__URL, without echoing its password', () => {
    expect(problems({ APP_DATABASE__URL: POOLER, APP_DATABASE__DIRECT_URL: 'mysql://root:hunter2@db/app' })).toEqual([
      'APP_DATABASE__DIRECT_URL: expected file:<path> or postgres://… (got "mysql://…@db/app")',
    ]);
    expect(problems({ APP_DATABASE__URL: 'mysql://root:hunter2@db/app' })).toEqual([
      'APP_DATABASE__URL: expected file:<path> or postgres://… (got "mysql://…@db/app")',
    ]);
  });

  it('is refused beside SQLite, which no pooler stands in front of, unless it names the same file', () => {
    expect(problems({ APP_DATABASE__URL: 'file:./data/app.db', APP_DATABASE__DIRECT_URL: 'file:./data/other.db' })).toEqual([
      'APP_DATABASE__DIRECT_URL: SQLite (APP_DATABASE__URL=file:<path>) has no connection pooler in front of it; unset APP_DATABASE__DIRECT_URL',
    ]);
    expect(problems({ APP_DATABASE__URL: 'file:./data/app.db', APP_DATABASE__DIRECT_URL: POSTGRES })).toHaveLength(1);
    expect(problems({ APP_DATABASE__URL: 'file:./data/app.db', APP_DATABASE__DIRECT_URL: 'file:./data/app.db' })).toEqual([]);
  });

  it('must name the same kind of database as APP_DATABASE__URL', () => {
    expect(problems({ APP_DATABASE__URL: POOLER, APP_DATABASE__DIRECT_URL: 'file:./data/app.db' })).toEqual([
      'APP_DATABASE__DIRECT_URL: expected the same database as APP_DATABASE__URL, reached directly (postgres://…), not SQLite (file:<path>)',
    ]);
  });

  it('stops the server at boot, naming the variable, before it connects anywhere', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'generated/main.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, APP_DATABASE__URL: POOLER, APP_DATABASE__DIRECT_URL: 'pgbouncer://db.internal/app' },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('invalid configuration:');
    expect(result.stderr).toContain('APP_DATABASE__DIRECT_URL: expected file:<path> or postgres://… (got "pgbouncer://db.internal/app")');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
