/**
 * `build` (generator/build.ts): compiles the application to JavaScript for `node dist/generated/main.js`,
 * refusing while `generated/` is stale.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { layoutOf } from './common.js';
import { runGenerate } from './generate.js';

/**
 * `build` (generator/build.ts): checks that generated/ is current (as `generate --check`), writes
 * the Prisma clients when missing or stale, and compiles the application into `outDir`; returns
 * the exit code.
 */
async function runBuild(root: string, outDir: string): Promise<number> {
  const started = performance.now();
  if ((await runGenerate({ root, check: true, quiet: true })) !== 0) return 1;
  const { ensurePrismaClients } = await import('../emit/prisma/client.js');
  const layout = layoutOf(root);
  const clients = await ensurePrismaClients(layout.generatedDir);
  const { buildApplication } = await import('../build.js');
  const built = await buildApplication(layout.root, path.resolve(layout.root, outDir));
  const where = path.relative(process.cwd(), built.outDir) || '.';
  const lines = [
    ...(clients.length > 0 ? [`regenerated the Prisma client (${clients.join(', ')})`] : []),
    `built ${built.compiled.length} file(s) into ${where}/ in ${Math.round(performance.now() - started)} ms`,
    `start it with: node ${path.join(where, 'generated', 'main.js')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** Adds `build [--out-dir dir]` to `program`; `root` reads `--root`. */
export function addBuildCommand(program: Command, root: () => string): void {
  program
    .command('build')
    .description(
      'compile the application (generated/main.ts and every file of yours it reaches) to JavaScript in dist/, for `node dist/generated/main.js`; refuses while generated/ is stale',
    )
    .option('--out-dir <dir>', 'where the compiled application goes', 'dist')
    .action(async (options: { outDir: string }) => {
      process.exitCode = await runBuild(root(), options.outDir);
    });
}
