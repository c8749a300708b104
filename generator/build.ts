/**
 * `build` (docs/behaviour.md §13.3): the application compiled to JavaScript for production, so
 * that `node dist/generated/main.js` serves with no TypeScript loader. Each TypeScript file the
 * server reaches from `generated/main.ts` — `generated/`, the Prisma clients, `entities/`, and any
 * other file of the application they import — is compiled on its own by esbuild (the transform tsx
 * applies in development, with the application's tsconfig.json), keeping the folder layout, so a
 * stack trace names the file a person wrote; packages stay imports. The SDL and the
 * persisted-document manifest the server reads at boot are copied beside the compiled `generated/`.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENTS_PATH, SDL_PATH } from './paths.js';

/** What {@link buildApplication} wrote. */
export interface BuildResult {
  /** Files compiled, relative to the application root, sorted. */
  readonly compiled: readonly string[];
  /** The folder written, absolute. */
  readonly outDir: string;
}

/**
 * Compiles the application at `root` (its `generated/main.ts` and everything local it imports)
 * into `outDir`, replacing the top-level folders of the previous build that this one writes.
 * Rejects with esbuild's error (each file, line and column that does not compile) or when
 * `generated/main.ts` does not exist.
 */
export async function buildApplication(root: string, outDir: string): Promise<BuildResult> {
  const entry = path.join(root, 'generated', 'main.ts');
  if (!existsSync(entry)) throw new Error('generated/main.ts does not exist; run `resource-service generate` first');
  const esbuild = await import('esbuild');
  const tsconfig = path.join(root, 'tsconfig.json');
  const shared = {
    absWorkingDir: root,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    ...(existsSync(tsconfig) ? { tsconfig } : {}),
  } as const;
  // Which files of the application the server reaches: a bundle's inputs, measured, not written.
  const reach = await esbuild.build({
    ...shared,
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    write: false,
    metafile: true,
    outdir: path.join(root, '.build-probe'),
  });
  const compiled = Object.keys(reach.metafile.inputs)
    .filter((input) => !input.includes('node_modules/') && /\.(ts|mts|js|mjs)$/.test(input) && !input.endsWith('.d.ts'))
    .sort();
  for (const top of new Set(compiled.map((input) => input.split('/')[0] ?? '')))
    rmSync(path.join(outDir, top), { recursive: true, force: true });
  await esbuild.build({
    ...shared,
    entryPoints: compiled.map((input) => path.join(root, input)),
    outbase: root,
    outdir: outDir,
    bundle: false,
    sourcemap: true,
  });
  // The files the server reads at boot beside its code: the SDL, and the persisted-document manifest (docs/behaviour.md §4.10).
  for (const file of [SDL_PATH, DOCUMENTS_PATH]) {
    const source = path.join(root, 'generated', file);
    if (!existsSync(source)) continue;
    mkdirSync(path.dirname(path.join(outDir, 'generated', file)), { recursive: true });
    copyFileSync(source, path.join(outDir, 'generated', file));
  }
  return { compiled, outDir };
}
