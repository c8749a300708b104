/**
 * Strict mode (docs/guide/development.md "Strict mode"), as a user runs it: every kind of warning
 * `generate` reports passes `generate` and `generate --check` by default, and fails both — exit 1,
 * printed as `error (strict)`, nothing written — with `--strict`, with the application's
 * package.json setting and through the `check` script `init` writes; `--no-strict` overrides the
 * setting, `generate --watch` writes nothing while one stands. Each kind is a warning rule's
 * fixture (`test/errors/<rule>/invalid`), found by its expected diagnostics, so a warning rule added
 * later is covered here once it has its fixture.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKER_FILE, MARKER_LINE } from '../../generator/emit/index.js';
import { cli, copyProject, editFile, startCli } from '../support/cli.js';
import { ROOT } from '../support/project.js';

const FIXTURES = path.join(ROOT, 'test/errors');

/** The rules whose invalid fixture records a warning of theirs: every kind of warning `generate` reports. */
const WARNING_RULES = readdirSync(FIXTURES)
  .filter((rule) => {
    const expected = path.join(FIXTURES, rule, 'invalid', 'expected.txt');
    return existsSync(expected) && readFileSync(expected, 'utf8').includes(` warning ${rule}: `);
  })
  .sort();

/** The migration review's rules, which only `generate` (not `--check`) runs: it alone plans a new migration. */
const isMigrationRule = (rule: string): boolean => rule.startsWith('migration-');

/** The `check` script `init` writes into a new application, as arguments of the CLI. */
const CHECK_SCRIPT =
  (
    JSON.parse(readFileSync(path.join(ROOT, 'templates/new-application/package.template.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts.check ?? '';

describe('strict mode: every warning fails generate and generate --check', { timeout: 300_000 }, () => {
  let project: string;
  let env: Record<string, string>;
  let manifest: string;

  beforeAll(() => {
    project = copyProject();
    manifest = readFileSync(path.join(project, 'package.json'), 'utf8');
    // No development database: a migration's rows cannot be counted, so a risky step is a warning.
    env = { APP_DATABASE__URL: `file:${path.join(project, 'data/none.db')}` };
  });

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  /** Makes the project the application of `rule`'s invalid fixture, with no generated/ (or, for a migration rule, the fixture's committed one). */
  function useFixture(rule: string): void {
    const fixture = path.join(FIXTURES, rule, 'invalid');
    for (const folder of ['entities', 'generated', 'data']) rmSync(path.join(project, folder), { recursive: true, force: true });
    mkdirSync(path.join(project, 'entities'));
    cpSync(path.join(fixture, 'app.ts'), path.join(project, 'entities/app.ts'));
    if (existsSync(path.join(fixture, 'generated'))) {
      cpSync(path.join(fixture, 'generated'), path.join(project, 'generated'), { recursive: true });
      writeFileSync(path.join(project, 'generated', MARKER_FILE), `${MARKER_LINE}\n`);
    }
  }

  /** The files under the project's generated/, sorted. */
  function generatedFiles(): string[] {
    const dir = path.join(project, 'generated');
    return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : [];
  }

  it('finds every kind of warning the generator reports', () => {
    expect(WARNING_RULES).toEqual(
      expect.arrayContaining([
        'ability-action-unknown',
        'listener-event-unknown',
        'loader-scope-missing',
        'migration-unexecutable',
        'provider-unmounted',
      ]),
    );
    expect(CHECK_SCRIPT).toBe('resource-service generate --check --strict');
  });

  for (const rule of WARNING_RULES) {
    it(`${rule}: a warning by default, an error under --strict that writes nothing`, () => {
      useFixture(rule);
      const before = generatedFiles();
      const refused = cli(['generate', '--strict'], { cwd: project, env });
      expect(refused.stderr).toMatch(new RegExp(`^\\S+:\\d+:\\d+ error \\(strict\\) ${rule}: `, 'm'));
      expect(refused.stderr).not.toContain(` warning ${rule}: `);
      expect(refused.stderr).toMatch(/\n\d+ errors?, 0 warnings \(strict mode counted (1 warning as an error|\d+ warnings as errors)\)\n$/);
      expect(refused.status).toBe(1);
      expect(generatedFiles()).toEqual(before);

      const written = cli(['generate'], { cwd: project, env });
      expect(written.stderr).toMatch(new RegExp(`^\\S+:\\d+:\\d+ warning ${rule}: `, 'm'));
      expect(written.stderr).toMatch(/\n0 errors, \d+ warnings?\n$/);
      expect(written.status).toBe(0);
      expect(generatedFiles()).not.toEqual(before);

      // The migration review judges a migration about to be written: once written, --check has nothing to review.
      if (isMigrationRule(rule)) return;
      const checked = cli(['generate', '--check'], { cwd: project, env });
      expect(checked.stderr).toContain(` warning ${rule}: `);
      expect(checked.stdout).toContain('generated/ is up to date');
      expect(checked.status).toBe(0);
      const strictCheck = cli(['generate', '--check', '--strict'], { cwd: project, env });
      expect(strictCheck.stderr).toContain(` error (strict) ${rule}: `);
      expect(strictCheck.stdout).toBe('');
      expect(strictCheck.status).toBe(1);
    });
  }

  it('a migration --accept-data-loss accepted stays accepted under --strict', () => {
    const rule = WARNING_RULES.find(isMigrationRule) ?? 'migration-unexecutable';
    useFixture(rule);
    const accepted = cli(['generate', '--strict', '--accept-data-loss'], { cwd: project, env });
    expect(accepted.stderr).toContain(` warning ${rule}: `);
    expect(accepted.status).toBe(0);
  });

  describe('the setting in package.json ("resource-service": { "strict": true })', () => {
    afterAll(() => {
      writeFileSync(path.join(project, 'package.json'), manifest);
    });

    const withSection = (section: unknown): void => {
      const parsed = JSON.parse(manifest) as Record<string, unknown>;
      writeFileSync(path.join(project, 'package.json'), `${JSON.stringify({ ...parsed, 'resource-service': section }, null, 2)}\n`);
    };

    it('makes generate --check and generate strict; --no-strict overrides it for one run', () => {
      useFixture('ability-action-unknown');
      expect(cli(['generate'], { cwd: project, env }).status).toBe(0);
      withSection({ strict: true });
      const checked = cli(['generate', '--check'], { cwd: project, env });
      expect(checked.stderr).toContain(' error (strict) ability-action-unknown: ');
      expect(checked.status).toBe(1);
      const relaxed = cli(['generate', '--check', '--no-strict'], { cwd: project, env });
      expect(relaxed.stderr).toContain(' warning ability-action-unknown: ');
      expect(relaxed.status).toBe(0);

      // A change with a warning is not written: generated/ keeps the previous output.
      const before = readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8');
      editFile(project, 'entities/app.ts', (text) => text.replace('/** A note in an org. */', '/** A note of an org. */'));
      const refused = cli(['generate'], { cwd: project, env });
      expect(refused.stderr).toContain(' error (strict) ability-action-unknown: ');
      expect(refused.status).toBe(1);
      expect(readFileSync(path.join(project, 'generated/schema.graphql'), 'utf8')).toBe(before);
    });

    it('is what the check script init writes enforces, whatever package.json says', () => {
      useFixture('ability-action-unknown');
      withSection({ strict: false });
      expect(cli(['generate'], { cwd: project, env }).status).toBe(0);
      const [command, ...args] = CHECK_SCRIPT.split(' ');
      expect(command).toBe('resource-service');
      const checked = cli(args, { cwd: project, env });
      expect(checked.stderr).toContain(' error (strict) ability-action-unknown: ');
      expect(checked.status).toBe(1);
    });

    it('refuses a setting it does not know or of the wrong type, naming the fix', () => {
      withSection({ strcit: true });
      const misspelt = cli(['generate', '--check'], { cwd: project, env });
      expect(misspelt.stderr).toBe(
        'error: package.json "resource-service" has no setting "strcit" (did you mean "strict"?); the settings are "strict"\n',
      );
      expect(misspelt.status).toBe(1);
      withSection({ strict: 'yes' });
      const mistyped = cli(['generate', '--check'], { cwd: project, env });
      expect(mistyped.stderr).toBe('error: package.json "resource-service".strict is "yes"; write true or false\n');
      expect(mistyped.status).toBe(1);
    });

    it('makes generate --watch write nothing while a warning stands, and go on once it is fixed', async () => {
      useFixture('ability-action-unknown');
      withSection({ strict: true });
      const watching = startCli(['generate', '--watch'], { cwd: project, env });
      try {
        await watching.waitFor((stdout) => stdout.includes('watching entities/ for changes'), 90_000);
        expect(watching.stderr()).toContain(' error (strict) ability-action-unknown: ');
        expect(watching.stdout()).not.toMatch(/^ok, /m);
        expect(existsSync(path.join(project, 'generated'))).toBe(false);
        editFile(project, 'entities/app.ts', (text) => text.replace("can('raed'", "can('read'"));
        await watching.waitFor((stdout) => /^ok, \d+ files changed/m.test(stdout), 60_000);
        expect(existsSync(path.join(project, 'generated/schema.graphql'))).toBe(true);
      } finally {
        expect(await watching.stop()).toBe(0);
      }
    });
  });
});
