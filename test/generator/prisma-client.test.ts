/**
 * `generate` writes the Prisma clients in its own process (generator/emit/prisma/client.ts,
 * docs/decisions.md §10): what it writes must be, file for file, what the `prisma generate` CLI
 * writes from the same schema, for both databases — the guard that keeps the in-process call honest
 * across Prisma upgrades — and a schema Prisma refuses is reported with Prisma's message.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_STAMP_FILE, generatePrismaClient, PrismaGenerateError } from '../../generator/emit/prisma/client.js';
import { ROOT, scratchDir } from '../support/project.js';

const scratch = scratchDir('prisma-client-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, relative, sorted, with its text. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(dir, full), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** A copy of the committed schema for `database` in a folder of its own, writing its client beside it. */
function schemaCopy(database: string, folder: string): string {
  mkdirSync(folder, { recursive: true });
  const schemaFile = path.join(folder, 'schema.prisma');
  writeFileSync(schemaFile, readFileSync(path.join(ROOT, 'generated', 'prisma', database, 'schema.prisma'), 'utf8'));
  return schemaFile;
}

describe('the Prisma client generated in process', () => {
  it.each(['sqlite', 'postgresql'])('is, file for file, what `prisma generate` writes (%s)', async (database) => {
    const inProcess = schemaCopy(database, path.join(scratch, database, 'in-process'));
    await generatePrismaClient(inProcess);

    // The CLI refuses to start without its native schema engine on disk, which it cannot download
    // here; it does not run it to generate, so an empty file stands in.
    const placeholder = path.join(scratch, database, 'schema-engine');
    closeSync(openSync(placeholder, 'w', 0o755));
    const byCli = schemaCopy(database, path.join(scratch, database, 'cli'));
    const cli = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'prisma', 'build', 'index.js'), 'generate', '--schema', byCli],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
          PRISMA_HIDE_UPDATE_MESSAGE: '1',
          CHECKPOINT_DISABLE: '1',
          PRISMA_GENERATE_SKIP_AUTOINSTALL: '1',
        },
      },
    );
    expect(cli.status, cli.stderr).toBe(0);

    const ours = tree(path.join(path.dirname(inProcess), 'client'));
    const theirs = tree(path.join(path.dirname(byCli), 'client'));
    expect([...ours.keys()]).toEqual([...theirs.keys()]);
    expect(ours.size).toBeGreaterThan(5);
    for (const [file, text] of theirs) expect(ours.get(file), file).toBe(text);
    // And it is the client `generate` keeps under generated/ (beside the stamp of what it was generated from).
    const kept = tree(path.join(ROOT, 'generated', 'prisma', database, 'client'));
    kept.delete(CLIENT_STAMP_FILE);
    expect(ours).toEqual(kept);
  });

  it('replaces what the output folder held, as the CLI does: a model that is gone leaves no file', async () => {
    const schemaFile = schemaCopy('sqlite', path.join(scratch, 'stale'));
    await generatePrismaClient(schemaFile);
    const leftOver = path.join(scratch, 'stale', 'client', 'models', 'Removed.ts');
    mkdirSync(path.dirname(leftOver), { recursive: true });
    writeFileSync(leftOver, 'export type Removed = {};\n');
    await generatePrismaClient(schemaFile);
    expect(tree(path.join(scratch, 'stale', 'client')).has(path.join('models', 'Removed.ts'))).toBe(false);
    expect(tree(path.join(scratch, 'stale', 'client')).has(path.join('models', 'User.ts'))).toBe(true);
  });

  it("rejects a schema Prisma refuses with Prisma's own message, naming the schema", async () => {
    const folder = path.join(scratch, 'invalid');
    mkdirSync(folder, { recursive: true });
    const schemaFile = path.join(folder, 'schema.prisma');
    writeFileSync(
      schemaFile,
      'generator client {\n  provider = "prisma-client"\n  output = "./client"\n}\n\ndatasource db {\n  provider = "sqlite"\n}\n\nmodel Post {\n  id String @id\n  author Usr\n}\n',
    );
    const failure = await generatePrismaClient(schemaFile).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PrismaGenerateError);
    expect((failure as Error).message).toContain(schemaFile);
    expect((failure as Error).message).toMatch(/Type "Usr" is neither a built-in type, nor refers to another model/);
  });
});
