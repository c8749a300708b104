/**
 * Runs `prisma generate` for an emitted schema (docs/decisions.md §2): the `prisma` CLI needs no engine
 * to generate the client, but refuses to start without its native schema engine on disk, which
 * cannot be downloaded here; `PRISMA_SCHEMA_ENGINE_BINARY` points it at a placeholder file.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Failure of the Prisma CLI, with its output. */
class PrismaGenerateError extends Error {}

/**
 * Generates the Prisma client described by `schemaFile` (absolute) into its `output` folder, in a
 * child process (the CLI takes about a second, most of it loading itself), so several schemas can
 * be generated at once. Rejects with {@link PrismaGenerateError} carrying the CLI's output.
 */
export function runPrismaGenerate(schemaFile: string): Promise<void> {
  const placeholderDir = mkdtempSync(path.join(os.tmpdir(), 'prisma-engine-'));
  const placeholder = path.join(placeholderDir, 'schema-engine');
  closeSync(openSync(placeholder, 'w', 0o755));
  const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'generate', '--schema', schemaFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: placeholder, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1', PRISMA_GENERATE_SKIP_AUTOINSTALL: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      rmSync(placeholderDir, { recursive: true, force: true });
      if (code === 0) resolve();
      else reject(new PrismaGenerateError(`prisma generate failed:\n${output}`));
    });
  });
}
