/**
 * Runs `prisma generate` for an emitted schema (PRODUCT.md §2): the `prisma` CLI needs no engine
 * to generate the client, but refuses to start without its native schema engine on disk, which
 * cannot be downloaded here; `PRISMA_SCHEMA_ENGINE_BINARY` points it at a placeholder file.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Failure of the Prisma CLI, with its output. */
export class PrismaGenerateError extends Error {}

/** Generates the Prisma client described by `schemaFile` (absolute) into its `output` folder. */
export function runPrismaGenerate(schemaFile: string): void {
  const placeholderDir = mkdtempSync(path.join(os.tmpdir(), 'prisma-engine-'));
  const placeholder = path.join(placeholderDir, 'schema-engine');
  closeSync(openSync(placeholder, 'w', 0o755));
  const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
  const result = spawnSync(process.execPath, [cli, 'generate', '--schema', schemaFile], {
    encoding: 'utf8',
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: placeholder, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1', PRISMA_GENERATE_SKIP_AUTOINSTALL: '1' },
  });
  if (result.status !== 0) throw new PrismaGenerateError(`prisma generate failed:\n${result.stdout}\n${result.stderr}`);
}
