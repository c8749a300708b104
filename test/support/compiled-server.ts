/**
 * The demo's server compiled once per `npm test`, the way `npm run build` compiles it, so a test
 * server starts as `node dist/generated/main.js` does in production: no TypeScript loader in the
 * process, which starts in half the CPU time of a start through tsx
 * (BENCHMARKS.md §"The test suite").
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApplication } from '../../generator/build.js';
import { ROOT } from './project.js';

/** The variable naming the compiled `generated/main.js` of the run (set by test/support/global-setup.ts). */
export const COMPILED_SERVER_VARIABLE = 'TEST_COMPILED_SERVER';

/** The condition under which package.json's `exports` name TypeScript sources, which a compiled copy does not have. */
const SOURCE_CONDITION = 'resource-service-source';

/** package.json's `exports` with the {@link SOURCE_CONDITION} entries left out. */
function compiledExports(exports: unknown): unknown {
  if (typeof exports !== 'object' || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([condition]) => condition !== SOURCE_CONDITION)
      .map(([key, value]) => [key, compiledExports(value)]),
  );
}

/**
 * Compiles a server into `folder` (created when missing): this repository's runtime
 * (`dist/runtime`, beside a copy of package.json, so `resource-service/…` resolves to it without
 * the source condition the test processes carry in NODE_OPTIONS) and the application at `project`
 * (default this repository's demo: `dist/generated/main.js` and what it reaches,
 * {@link buildApplication}). `node_modules` is a link to the repository's, so the folder may live
 * anywhere. Resolves with the path of `main.js`; rejects with esbuild's error when a file does not
 * compile.
 */
export async function buildCompiledServer(folder: string, project = ROOT): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    path.join(folder, 'package.json'),
    JSON.stringify({ name: manifest.name, version: manifest.version, type: manifest.type, exports: compiledExports(manifest.exports) }),
  );
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'));
  const runtime = readdirSync(path.join(ROOT, 'runtime'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(ROOT, 'runtime', file));
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: runtime,
    outbase: ROOT,
    outdir: path.join(folder, 'dist'),
    platform: 'node',
    format: 'esm',
    target: 'node20',
    bundle: false,
    logLevel: 'silent',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
  });
  await buildApplication(project, path.join(folder, 'dist'));
  return path.join(folder, 'dist', 'generated', 'main.js');
}

/** The run's compiled `main.js` ({@link COMPILED_SERVER_VARIABLE}), or undefined outside `npm test`. */
export function compiledServer(): string | undefined {
  return process.env[COMPILED_SERVER_VARIABLE] || undefined;
}
